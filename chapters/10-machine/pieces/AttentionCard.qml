import QtQuick
import TpuCourse.Ui
import TpuCourse.Sim

// Flash attention (one head, block_q = block_k): each query block streams
// every K and V block once, so its FLOPs per HBM byte grow with the block.
// Dragging its point changes the block.
OpCard {
    id: root
    property string chip: Sim.defaultChip
    property string dtype: "bf16"
    readonly property ScrubNumber driver: blockScrub
    signal edited()

    result: Sim.rooflineAttention(chip, seqScrub.value, dimScrub.value, blockScrub.value, dtype)

    ScrubNumber {
        id: seqScrub
        objectName: root.opId + "Seq"
        label: "seq"; value: 4096; defaultValue: 4096
        from: 256; to: 65536; logarithmic: true; powersOnly: true; minimumDigits: 5
        onValueEdited: {
            // A block longer than the sequence cannot tile it.
            if (blockScrub.value > value)
                blockScrub.value = value
            root.edited()
        }
    }
    ScrubNumber {
        id: dimScrub
        objectName: root.opId + "HeadDim"
        label: "head dim"; value: 128; defaultValue: 128
        from: 32; to: 512; logarithmic: true; powersOnly: true; minimumDigits: 3
        onValueEdited: root.edited()
    }
    ScrubNumber {
        id: blockScrub
        labelColor: root.swatch  // the number its dot drags
        objectName: root.opId + "Block"
        label: "block"; value: 128; defaultValue: 128
        from: 8; to: seqScrub.value; logarithmic: true; powersOnly: true; minimumDigits: 4
        onValueEdited: root.edited()
    }
}
