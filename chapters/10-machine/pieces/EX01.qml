pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·01, the roofline playground: four ops on one chip's roofline. Drag
// their shapes (on the cards or their dots) across the ridge and watch time,
// intensity and the binding resource change. The bench rows are presets.
Item {
    id: root
    // Shows its own chip choice: the piece page's title bar leaves its out.
    readonly property bool choosesChip: true
    readonly property string chip: Course.chip   // the course's one chip
    property string dtype: "bf16"
    property string selectedId: "matmul"

    readonly property var cards: [matmulCard, skinnyCard, elementwiseCard, attentionCard]
    // Built once: the chart reads each card's live result through `card`, so
    // its dots are never recreated in the middle of a drag.
    readonly property var ops: cards.map(c => ({ id: c.opId, title: c.title, swatch: c.swatch, card: c }))
    readonly property var selectedCard: cards.find(c => c.opId === selectedId) || matmulCard
    readonly property var presets: Sim.rooflinePresets(chip)

    // Mastery: an op moved across the ridge by the learner, both ways. Chip,
    // dtype and preset changes move the ridge or the op without counting.
    property var lastBounds: ({})
    // The chapter's mastery item for this piece, goal by goal, as the store
    // holds it; the chips an op has crossed the ridge on, this session.
    Mastery { id: mastery; piece: "EX01" }
    readonly property var goals: mastery.goals
    property var chipsCrossed: []
    // A bench row by its id, as chapter text names it (`::: piece EX01 preset=matmul_skinny`).
    function applyPresetNamed(name) {
        const preset = presets.find(p => p.id === name)
        if (preset) applyPreset(preset)
        return preset !== undefined
    }
    function resyncBounds() {
        const bounds = {}
        for (const c of cards) bounds[c.opId] = c.result.bound
        lastBounds = bounds
    }
    function noteEdit(card) {
        const before = lastBounds[card.opId]
        const after = card.result.bound
        const crossed = before !== undefined && before !== after
        if (before === "memory" && after === "compute") mastery.reach("up")
        if (before === "compute" && after === "memory") mastery.reach("down")
        if (crossed && chipsCrossed.indexOf(chip) < 0) {
            chipsCrossed = chipsCrossed.concat([chip])
            if (chipsCrossed.length >= 2) mastery.reach("second-chip")
        }
        const bounds = lastBounds
        bounds[card.opId] = after
        lastBounds = bounds
    }
    function applyPreset(preset) {
        dtype = preset.dtype
        if (preset.op === "elementwise") {
            elementwiseCard.setShape(preset.rows, preset.cols, preset.inputs)
            selectedId = elementwiseCard.opId
        } else {
            const card = preset.id === "matmul_skinny" ? skinnyCard : matmulCard
            card.setShape(preset.m, preset.k, preset.n)
            selectedId = card.opId
        }
        Qt.callLater(resyncBounds)
    }
    // Qt.callLater is a method; qmllint 6.4 reads it as a property.
    // qmllint disable type
    onChipChanged: Qt.callLater(resyncBounds)
    onDtypeChanged: Qt.callLater(resyncBounds)
    // qmllint enable type
    Component.onCompleted: resyncBounds()

    // Chart drags scale the op's driving size from where the drag began.
    property real dragBase: 0
    function cardOf(opId) { return cards.find(c => c.opId === opId) }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.gapM

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gapM
            Caption { text: "chip" }
            ChoiceRow {
                options: Array.from(Sim.chips).map(c => ({ id: c.id, label: c.id }))
                current: root.chip
                namePrefix: "ex01chip_"
                onChosen: id => Course.chip = id
            }
            Caption { text: "dtype"; Layout.leftMargin: Theme.gap }
            ChoiceRow {
                options: Array.of("bf16", "int8", "fp8").map(d => ({ id: d, label: d }))
                current: root.dtype
                namePrefix: "ex01dtype_"
                onChosen: id => root.dtype = id
            }
            Item { Layout.fillWidth: true }
            Caption { text: "bench rows" }
            Repeater {
                model: root.presets
                SnugButton {
                    required property var modelData
                    objectName: "preset_" + modelData.id
                    text: modelData.label || ""
                    fillColor: Theme.card; hoverColor: Theme.cardHover; textColor: Theme.inkText
                    onClicked: root.applyPreset(modelData)
                }
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: Theme.gapL

            ColumnLayout {
                Layout.fillWidth: true
                Layout.fillHeight: true
                spacing: Theme.gapM
                RooflineChart {
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    chip: root.chip
                    dtype: root.dtype
                    ops: root.ops
                    selectedId: root.selectedId
                    onPicked: opId => root.selectedId = opId
                    onDragStarted: opId => root.dragBase = root.cardOf(opId).driver.value
                    onDragMoved: (opId, ratio) => root.cardOf(opId).driver.setValue(root.dragBase * ratio)
                }
                OpReadout {
                    Layout.fillWidth: true
                    title: root.selectedCard.title
                    swatch: root.selectedCard.swatch
                    result: root.selectedCard.result
                }
            }

            ColumnLayout {
                // Explicit: a layout whose children fill would fill too.
                Layout.fillWidth: false
                Layout.preferredWidth: Theme.px(440)
                Layout.fillHeight: true
                spacing: Theme.gap
                Text {
                    Layout.fillWidth: true
                    text: "Drag a dot sideways, or any number, until its op crosses the dotted ridge. A dot drags the number named in its colour."
                    wrapMode: Text.Wrap
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize
                    color: Theme.inkMuted
                }
                MatmulCard {
                    id: matmulCard
                    Layout.fillWidth: true
                    opId: "matmul"; title: "matmul"
                    swatch: Theme.seriesColor(0)
                    chip: root.chip; dtype: root.dtype
                    selected: root.selectedId === opId
                    onPicked: root.selectedId = opId
                    onEdited: root.noteEdit(matmulCard)
                }
                MatmulCard {
                    id: skinnyCard
                    Layout.fillWidth: true
                    opId: "skinny"; title: "skinny matmul"
                    swatch: Theme.seriesColor(1)
                    defaultM: 8
                    chip: root.chip; dtype: root.dtype
                    selected: root.selectedId === opId
                    onPicked: root.selectedId = opId
                    onEdited: root.noteEdit(skinnyCard)
                }
                ElementwiseCard {
                    id: elementwiseCard
                    Layout.fillWidth: true
                    opId: "elementwise"; title: "elementwise"
                    swatch: Theme.seriesColor(2)
                    chip: root.chip; dtype: root.dtype
                    selected: root.selectedId === opId
                    onPicked: root.selectedId = opId
                    onEdited: root.noteEdit(elementwiseCard)
                }
                AttentionCard {
                    id: attentionCard
                    Layout.fillWidth: true
                    opId: "attention"; title: "flash attention"
                    swatch: Theme.seriesColor(3)
                    chip: root.chip; dtype: root.dtype
                    selected: root.selectedId === opId
                    onPicked: root.selectedId = opId
                    onEdited: root.noteEdit(attentionCard)
                }
                GoalList {
                    objectName: "ex01Mastery"
                    Layout.fillWidth: true
                    heading: "Move an op across the ridge:"
                    goals: root.goals
                    chapter: mastery.chapter
                }
                Item { Layout.fillHeight: true }
            }
        }
    }
}
