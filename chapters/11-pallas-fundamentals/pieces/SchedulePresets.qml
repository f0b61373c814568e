pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui

// Schedules to start from: the docs' matmul, the same with another grid
// order, and three ways to break it (a race, a gap, a lost accumulator).
Flow {
    id: root
    required property var model      // BlockSpecModel
    signal choosing()   // before a preset's values go in, so the piece knows the change is not the learner's
    spacing: Theme.gap / 2

    readonly property var presets: [
        {id: "docs", label: "docs ijk", order: "ijk", names: "i, j, k", x: "(i, k)", y: "(k, j)", out: "(i, j)",
         semantics: ["parallel", "parallel", "arbitrary"], reduction: 2},
        {id: "swapped", label: "order jik", order: "jik", names: "j, i, k", x: "(i, k)", y: "(k, j)", out: "(i, j)",
         semantics: ["parallel", "parallel", "arbitrary"], reduction: 2},
        {id: "race", label: "race: k parallel", order: "ijk", names: "i, j, k", x: "(i, k)", y: "(k, j)", out: "(i, j)",
         semantics: ["parallel", "parallel", "parallel"], reduction: 2},
        {id: "gap", label: "gap: out (0, j)", order: "ijk", names: "i, j, k", x: "(i, k)", y: "(k, j)", out: "(0, j)",
         semantics: ["parallel", "parallel", "arbitrary"], reduction: 2},
        {id: "kfirst", label: "k first", order: "kij", names: "k, i, j", x: "(i, k)", y: "(k, j)", out: "(i, j)",
         semantics: ["arbitrary", "parallel", "parallel"], reduction: 0}
    ]

    // The preset the schedule is now, value for value; "" once the learner
    // has changed anything of it.
    readonly property string current: {
        const m = root.model
        const semantics = String(m.semantics)
        for (const p of presets) {
            const head = "lambda " + p.names + ": "
            if (m.order === p.order && semantics === String(p.semantics) && m.reductionAxis === p.reduction
                    && m.xMap === head + p.x && m.yMap === head + p.y && m.outMap === head + p.out)
                return p.id
        }
        return ""
    }

    function apply(p) {
        root.choosing()
        const head = "lambda " + p.names + ": "
        root.model.order = p.order
        root.model.followBlocks = true
        root.model.semantics = p.semantics
        root.model.reductionAxis = p.reduction
        root.model.xMap = head + p.x
        root.model.yMap = head + p.y
        root.model.outMap = head + p.out
    }

    // As tall as a button, so the caption sits level with their labels.
    Caption { text: "start from"; height: implicitHeight + Theme.gapM; verticalAlignment: Text.AlignVCenter }
    Repeater {
        model: root.presets
        delegate: SnugButton {
            required property var modelData
            objectName: "ex09Preset_" + modelData.id
            readonly property bool active: root.current === modelData.id
            text: modelData.label
            mono: true
            fillColor: active ? Theme.accent : Theme.inkHover
            hoverColor: active ? Theme.accentHover : Theme.cardHover
            textColor: active ? Theme.ink : Theme.inkText
            Accessible.name: modelData.label + (active ? ", the schedule now" : "")
            onClicked: root.apply(modelData)
        }
    }
}
