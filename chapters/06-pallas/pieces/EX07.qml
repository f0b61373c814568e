import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·07 the VMEM budget: a Pallas kernel's blocks, their buffers, the
// scratch and the body's large values, each padded to its tiles, stacked
// against the chip's scoped VMEM limit and its physical VMEM, all from
// libtpusim. Raise vmem_limit_bytes; go over and read what the compiler
// would say; take the largest legal blocks that fit.
FocusScope {
    id: root
    // Shows its own chip choice: the piece page's title bar leaves its out.
    readonly property bool choosesChip: true
    // The chapter's mastery item for this piece, goal by goal, as the store holds it.
    Mastery { id: mastery; piece: "EX07" }
    readonly property var goals: mastery.goals
    // What the last change was: a preset or the suggestion is the course's
    // doing; only the learner's own edits count toward the goals.
    property bool learnerEdited: false
    property bool limitEdited: false
    // The kernels fitted under the limit with blocks of the learner's own, this session.
    property var kernelsFitted: []

    VmemBudgetModel { id: budgetModel }
    // Read once per change: each read of the model's map converts the whole
    // of it (every line of the budget) for the script engine.
    readonly property var budget: budgetModel.budget
    // The course's one chip, wherever it was chosen; a limit the chip cannot
    // hold goes back to its default first.
    readonly property string courseChip: Course.chip
    onCourseChipChanged: fitChip(courseChip)
    Component.onCompleted: fitChip(courseChip)
    function fitChip(id) {
        if (budgetModel.limitBytes > budgetModel.physicalOf(id))
            budgetModel.limitBytes = 0
        budgetModel.chip = id
    }

    // A kernel by its id, as chapter text names it (`::: piece EX07 preset=attention`).
    function applyPresetNamed(name) {
        if (!Array.from(budgetModel.kernels).some(k => k.id === name)) return false
        root.learnerEdited = false
        root.limitEdited = false
        budgetModel.applyPreset(name)
        return true
    }
    function blocksArePreset() {
        const preset = (Object(budgetModel.kernelInfo).blocks || []).map(b => b.value)    // a map from C++, read untyped
        return JSON.stringify(preset) === JSON.stringify(Array.from(budgetModel.blocks).map(Number))
    }
    function judgeGoals() {
        const b = root.budget
        if (!root.learnerEdited || b.problem)
            return
        if (b.fits && !root.blocksArePreset() && root.kernelsFitted.indexOf(budgetModel.kernel) < 0) {
            root.kernelsFitted = root.kernelsFitted.concat([budgetModel.kernel])
            if (root.kernelsFitted.length >= 3)
                mastery.reach("fit-three")
        }
        if (b.fits && root.limitEdited && b.limitRaised && b.total > b.defaultLimit)
            mastery.reach("raise")
        if (verdict.open && b.error && b.error.stage === "compile")
            mastery.reach("over")
    }
    Connections {
        target: budgetModel
        // Once the change has settled: root.budget is read again by then,
        // and a burst of changes is judged once. (Qt.callLater is a
        // method; qmllint 6.4 reads it as a property.)
        function onBudgetChanged() { Qt.callLater(root.judgeGoals) } // qmllint disable type
    }

    ScrollPage {
        id: scroller
        anchors.fill: parent
        focus: true
        contentHeight: page.implicitHeight

        TwoColumns {
            id: page
            width: scroller.availableWidth
            firstShare: 0.5
            minimumColumnWidth: Theme.px(440)

            ColumnLayout {
                spacing: Theme.gapM

                Text {
                    Layout.fillWidth: true
                    text: "Everything one grid step touches sits in VMEM at once: each operand's block once per buffer, the scratch, and the values the body makes. Size the blocks, the buffers and the limit; libtpusim adds it up, padded to tiles."
                    font.family: Theme.sans
                    font.pixelSize: Theme.bodySize
                    lineHeight: 1.2
                    color: Theme.inkMuted
                    wrapMode: Text.WordWrap
                }
                BudgetControls {
                    Layout.fillWidth: true
                    model: budgetModel
                    onChipChosen: id => Course.chip = id
                    onPresetChosen: { root.learnerEdited = false; root.limitEdited = false }
                    onEdited: what => {
                        root.learnerEdited = true
                        if (what === "limit")
                            root.limitEdited = true
                        root.judgeGoals()
                    }
                }
                BlockSuggestion {
                    Layout.fillWidth: true
                    suggestion: budgetModel.suggestion
                    current: Array.from(budgetModel.blocks).map(Number)
                    onTaken: { root.learnerEdited = false; budgetModel.applySuggestion() }
                }
            }

            ColumnLayout {
                spacing: Theme.gapM

                BudgetStack { Layout.fillWidth: true; budget: root.budget }
                CompilerVerdict {
                    id: verdict
                    Layout.fillWidth: true
                    budget: root.budget
                    onOpened: root.judgeGoals()
                }
                RowLayout {
                    Layout.fillWidth: true
                    spacing: Theme.gap
                    Caption { Layout.fillWidth: true; text: "line by line: buffers × padded bytes"; wrapMode: Text.Wrap }
                    MonoText {
                        objectName: "ex07Traffic"
                        text: root.budget.hbmText ? root.budget.hbmText + " through HBM in "
                                                           + root.budget.steps + " steps" : ""
                        color: Theme.inkMuted
                    }
                    ProvenanceBadge {
                        visible: !!root.budget.provenance
                        kind: root.budget.provenance ? root.budget.provenance.kind : "predicted"
                        details: root.budget.provenance ? root.budget.provenance.details : ""
                    }
                }
                BudgetLines { Layout.fillWidth: true; budget: root.budget }
                GoalList {
                    objectName: "ex07Mastery"
                    Layout.fillWidth: true
                    heading: "Fit, break and raise:"
                    goals: root.goals
                    chapter: mastery.chapter
                }
            }
        }
    }
}
