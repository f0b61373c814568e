import QtQuick
import TpuCourse.Ui
import TpuCourse.Sim

// An elementwise op over a rows x cols array, `inputs` arrays in and one out.
// Its size never moves its point: only the work per element does, so that
// is what dragging its point changes.
OpCard {
    id: root
    property string chip: Sim.defaultChip
    property string dtype: "bf16"
    readonly property ScrubNumber driver: workScrub
    signal edited()

    function setShape(rows, cols, inputs) {
        rowsScrub.value = rows; colsScrub.value = cols; inputsScrub.value = inputs
        workScrub.value = 1
    }

    result: Sim.rooflineElementwise(chip, rowsScrub.value, colsScrub.value, inputsScrub.value, dtype,
                                    workScrub.value)

    ScrubNumber {
        id: rowsScrub
        objectName: root.opId + "Rows"
        label: "rows"; value: 4096; defaultValue: 4096
        from: 8; to: 65536; logarithmic: true; powersOnly: true; fineStep: 8; minimumDigits: 5
        onValueEdited: root.edited()
    }
    ScrubNumber {
        id: colsScrub
        objectName: root.opId + "Cols"
        label: "cols"; value: 4096; defaultValue: 4096
        from: 128; to: 65536; logarithmic: true; powersOnly: true; fineStep: 128; minimumDigits: 5
        onValueEdited: root.edited()
    }
    ScrubNumber {
        id: inputsScrub
        objectName: root.opId + "Inputs"
        label: "inputs"; value: 2; defaultValue: 2
        from: 1; to: 8; minimumDigits: 1
        onValueEdited: root.edited()
    }
    ScrubNumber {
        id: workScrub
        labelColor: root.swatch  // the number its dot drags
        objectName: root.opId + "Work"
        label: "work"; unit: "FLOP/elem"; value: 1; defaultValue: 1
        from: 1; to: 4096; logarithmic: true; powersOnly: true; fineStep: 1; minimumDigits: 4
        onValueEdited: root.edited()
    }
}
