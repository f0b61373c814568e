pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim

// What the array runs: the chip (its MXU is 128 or 256 wide), a shape
// preset, M, K and N, and how weight tiles follow one another. Every size
// scrubs in steps of 8 (Alt: 1) and takes any typed value; `edited` says a
// change was the learner's own, `presetChosen` that it was a preset's.
GridLayout {
    id: root
    required property var model      // SystolicModel
    property string preset: ""
    signal edited(string what)       // "m", "k", "n", "mode", "chip"
    signal chipChosen(string id)
    signal presetChosen(string id)
    columns: 2
    columnSpacing: Theme.gapM
    rowSpacing: Theme.gap

    readonly property var presets: [
        { id: "tile", label: "one tile · 128³" },
        { id: "skinny", label: "8 rows · 8×128×128" },
        { id: "ragged", label: "ragged · 100×300×200" },
        { id: "long", label: "1024 rows · 1024×128×128" }
    ]

    Caption { text: "chip" }
    ChoiceRow {
        Layout.fillWidth: true
        options: Array.from(Sim.chips).map(c => ({ id: c.id, label: c.id + " · " + root.model.arrayOf(c.id) }))
        current: root.model.chip
        namePrefix: "ex06Chip_"
        onChosen: id => { root.chipChosen(id); root.edited("chip") }
    }

    Caption { text: "shape" }
    ChoiceRow {
        Layout.fillWidth: true
        options: root.presets
        current: root.preset
        namePrefix: "ex06Preset_"
        onChosen: id => root.presetChosen(id)
    }

    Caption { text: "M × K × N" }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        Repeater {
            // Fixed, so a delegate is never rebuilt under its own edit.
            model: [{ name: "m", label: "M rows" }, { name: "k", label: "K" }, { name: "n", label: "N" }]
            delegate: ScrubNumber {
                id: sizeScrub
                required property var modelData
                objectName: "ex06Size_" + modelData.name
                label: modelData.label
                Binding on value { value: root.model[sizeScrub.modelData.name]; restoreMode: Binding.RestoreNone }
                defaultValue: 128
                // 0 is reachable (and typed negatives clamp to it), so the
                // piece can say in place why a size must be positive.
                from: 0; to: 4096; stepSize: 8; fineStep: 1; minimumDigits: 4
                pixelsPerStep: 6
                snapReason: "a sublane of 8 rows"
                onValueEdited: v => { root.model[modelData.name] = v; root.edited(modelData.name) }
            }
        }
    }

    Caption { text: "weight tiles" }
    ChoiceRow {
        Layout.fillWidth: true
        options: [{ id: "overlapped", label: "TPU: the next tile loads during this one" },
                  { id: "no-overlap", label: "SCALE-Sim: load, stream, drain in turn" }]
        current: root.model.mode
        namePrefix: "ex06Mode_"
        onChosen: id => { root.model.mode = id; root.edited("mode") }
    }
}
