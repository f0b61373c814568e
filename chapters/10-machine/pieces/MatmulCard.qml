import QtQuick
import TpuCourse.Ui
import TpuCourse.Sim

// A matmul [M,K] x [K,N]. Dragging its point on the chart changes M, the
// batch of rows that share each weight byte fetched from HBM.
OpCard {
    id: root
    property string chip: Sim.defaultChip
    property string dtype: "bf16"
    property int defaultM: 4096
    readonly property ScrubNumber driver: mScrub
    signal edited()

    function setShape(m, k, n) {
        mScrub.value = m; kScrub.value = k; nScrub.value = n
    }

    result: Sim.rooflineMatmul(chip, mScrub.value, kScrub.value, nScrub.value, dtype)

    ScrubNumber {
        id: mScrub
        labelColor: root.swatch  // the number its dot drags
        objectName: root.opId + "M"
        label: "M"; value: root.defaultM; defaultValue: root.defaultM
        from: 1; to: 65536; logarithmic: true; powersOnly: true; fineStep: 1; minimumDigits: 5
        onValueEdited: root.edited()
    }
    ScrubNumber {
        id: kScrub
        objectName: root.opId + "K"
        label: "K"; value: 4096; defaultValue: 4096
        from: 1; to: 65536; logarithmic: true; powersOnly: true; fineStep: 1; minimumDigits: 5
        onValueEdited: root.edited()
    }
    ScrubNumber {
        id: nScrub
        objectName: root.opId + "N"
        label: "N"; value: 4096; defaultValue: 4096
        from: 1; to: 65536; logarithmic: true; powersOnly: true; fineStep: 1; minimumDigits: 5
        onValueEdited: root.edited()
    }
}
