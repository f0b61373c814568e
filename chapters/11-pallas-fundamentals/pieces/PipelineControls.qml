pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim

// What the pipeline runs: the course's chip, a preset from chapter 11, the matmul's M, K and N,
// its blocks bm, bk and bn (powers of two by drag, any value typed), and the
// grid's order. `edited` says a change was the learner's own.
GridLayout {
    id: root
    required property var model      // PipelineModel
    property string preset: ""
    signal edited(string what)       // "size", "blocks", "order"
    signal presetChosen(string id)
    signal chipChosen(string id)
    columns: 2
    columnSpacing: Theme.gapM
    rowSpacing: Theme.gap

    readonly property var presets: [
        { id: "128", label: "128³ blocks" },
        { id: "512", label: "512³ blocks" },
        { id: "docs", label: "512×1024×1024" },
        { id: "kfirst", label: "K first (wrong)" },
        { id: "launch", label: "2 steps · 1024³" },
        { id: "uneven", label: "3 row blocks · megacore" },
        { id: "huge", label: "262,144 steps · 8192³" }
    ]
    readonly property var orders: [
        { id: "mnk", label: "(m, n, k)" },
        { id: "nmk", label: "(n, m, k)" },
        { id: "mkn", label: "(m, k, n)" },
        { id: "kmn", label: "(k, m, n)" }
    ]

    component Size: ScrubNumber {
        id: size
        required property string name
        required property string what
        objectName: "ex08Size_" + name
        label: name === "m" || name === "k" || name === "n" ? name.toUpperCase() : name
        Binding on value { value: root.model[size.name]; restoreMode: Binding.RestoreNone }
        // 0 is reachable (typed negatives clamp to it), so the piece can say in place why a size must be positive.
        from: 0; to: 16384; logarithmic: true; powersOnly: true; fineStep: 1; minimumDigits: 5
        onValueEdited: v => { root.model[name] = v; root.edited(what) }
    }

    Caption { text: "chip" }
    ChoiceRow {
        Layout.fillWidth: true
        options: Array.from(Sim.chips).map(c => ({ id: c.id, label: c.id }))
        current: root.model.chip
        namePrefix: "ex08Chip_"
        onChosen: id => { root.chipChosen(id); root.edited("chip") }
    }

    Caption { text: "worked example" }
    ChoiceRow {
        Layout.fillWidth: true
        options: root.presets
        current: root.preset
        namePrefix: "ex08Preset_"
        onChosen: id => root.presetChosen(id)
    }

    Caption { text: "bf16 matmul" }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        Size { name: "m"; what: "size"; defaultValue: 4096 }
        Size { name: "k"; what: "size"; defaultValue: 4096 }
        Size { name: "n"; what: "size"; defaultValue: 4096 }
    }

    Caption { text: "blocks" }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        Size { name: "bm"; what: "blocks"; defaultValue: 512 }
        Size { name: "bk"; what: "blocks"; defaultValue: 1024 }
        Size { name: "bn"; what: "blocks"; defaultValue: 1024 }
    }

    Caption { text: "grid order" }
    ChoiceRow {
        Layout.fillWidth: true
        options: root.orders
        current: root.model.order
        namePrefix: "ex08Order_"
        onChosen: id => { root.model.order = id; root.edited("order") }
    }
}
