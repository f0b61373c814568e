pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim

// What the budget is of: the kernel (each button loads its preset), the
// chip, the dtype, the sizes, the blocks, the input buffers and the
// kernel's vmem_limit_bytes. Sizes scrub through powers of two; a block
// dimension snaps to the dtype's tile (rows for a second-to-last axis, 128
// lanes for a last one) and Alt steps one element at a time. `edited` says
// a change was the learner's own; `presetChosen` that it was a preset's.
GridLayout {
    id: root
    required property var model      // VmemBudgetModel
    signal edited(string what)       // "blocks", "sizes", "dtype", "buffers", "limit", "chip"
    signal chipChosen(string id)
    signal presetChosen()
    columns: 2
    columnSpacing: Theme.gapM
    rowSpacing: Theme.gap

    readonly property real mib: 1024 * 1024
    readonly property var info: model.kernelInfo
    readonly property var dtypes: (model.kernel === "matmul" ? ["bf16", "f32", "int8", "fp8"] : ["bf16", "f32"])
                                  .map(d => ({ id: d, label: d }))
    readonly property real physicalMiB: (model.physical.value || 0) / mib
    readonly property real defaultMiB: (model.scopedDefault.value || 0) / mib

    function setAt(list, index, value) {
        const next = list.slice()
        next[index] = value
        return next
    }

    Caption { text: "kernel" }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gap / 2
        Repeater {
            model: root.model.kernels
            delegate: SnugButton {
                required property var modelData
                readonly property bool on: root.model.kernel === modelData.id
                objectName: "ex07Kernel_" + modelData.id
                text: modelData.title
                mono: true
                fillColor: on ? Theme.accent : Theme.inkHover
                hoverColor: on ? Theme.accentHover : Theme.cardHover
                textColor: on ? Theme.ink : Theme.inkText
                onClicked: { root.presetChosen(); root.model.applyPreset(modelData.id) }
            }
        }
    }

    Caption { text: "chip" }
    ChoiceRow {
        Layout.fillWidth: true
        options: Array.from(Sim.chips).map(c => ({ id: c.id, label: c.id }))
        current: root.model.chip
        namePrefix: "ex07Chip_"
        // The course's one chip: the piece sets it, and the model follows.
        onChosen: id => { root.chipChosen(id); root.edited("chip") }
    }

    Caption { text: "dtype" }
    ChoiceRow {
        Layout.fillWidth: true
        options: root.dtypes
        current: root.model.dtype
        namePrefix: "ex07Dtype_"
        onChosen: id => { root.model.dtype = id; root.edited("dtype") }
    }

    Caption { text: "sizes" }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        Repeater {
            model: root.info.sizes || []
            delegate: ScrubNumber {
                required property var modelData
                required property int index
                objectName: "ex07Size_" + modelData.name
                label: modelData.name
                // Follows the model even after a drag has set the value by hand.
                Binding on value { value: root.model.sizes[index] || 0; restoreMode: Binding.RestoreNone }
                defaultValue: modelData.value
                from: 1; to: 65536; logarithmic: true; powersOnly: true; fineStep: 1; minimumDigits: 5
                onValueEdited: v => { root.model.sizes = root.setAt(root.model.sizes, index, v); root.edited("sizes") }
            }
        }
    }

    Caption { text: "blocks" }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        Repeater {
            model: root.info.blocks || []
            delegate: ScrubNumber {
                required property var modelData
                required property int index
                objectName: "ex07Block_" + modelData.name
                label: modelData.name
                Binding on value { value: root.model.blocks[index] || 0; restoreMode: Binding.RestoreNone }
                defaultValue: modelData.value
                from: 1; to: 65536; fineStep: 1; minimumDigits: 4
                stepSize: modelData.lanes ? root.model.tileLanes : root.model.tileRows
                snapReason: modelData.lanes ? root.model.tileLanes + " lanes"
                                            : root.model.tileRows + "-row " + root.model.dtype + " tile"
                onValueEdited: v => { root.model.blocks = root.setAt(root.model.blocks, index, v); root.edited("blocks") }
            }
        }
    }

    Caption { text: "input buffers" }
    ChoiceRow {
        Layout.fillWidth: true
        options: [{ id: "2", label: "2 (the default)" }, { id: "3", label: "3 · pl.Buffered(3)" }]
        current: String(root.model.inputBuffers)
        namePrefix: "ex07Buffers_"
        onChosen: id => { root.model.inputBuffers = Number(id); root.edited("buffers") }
    }

    Caption { text: "vmem_limit_bytes"; Layout.alignment: Qt.AlignTop; Layout.topMargin: Theme.gap }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        ScrubNumber {
            objectName: "ex07Limit"
            Binding on value {
                value: root.model.limitBytes > 0 ? root.model.limitBytes / root.mib : root.defaultMiB
                restoreMode: Binding.RestoreNone
            }
            defaultValue: root.defaultMiB
            from: 1; to: Math.max(1, root.physicalMiB); stepSize: 1; fineStep: 1; minimumDigits: 3
            unit: "MiB"
            snapReason: "whole MiB, up to the chip's " + root.physicalMiB + " MiB of VMEM"
            onValueEdited: v => { root.model.limitBytes = v * root.mib; root.edited("limit") }
        }
        FactFigure { label: "default"; fact: root.model.scopedDefault; chip: root.model.chip; objectName: "ex07DefaultLimit" }
        FactFigure { label: "physical"; fact: root.model.physical; chip: root.model.chip; objectName: "ex07Physical" }
    }
}
