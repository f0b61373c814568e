import QtQuick
import QtQuick.Controls
import TpuCourse.Ui
import TpuCourse.Backend

// D3: questions from libtpusim's seeded generator, at the drill's level,
// the card kinds due today first; each answer checked by the simulator,
// graded, scheduled with FSRS and kept in the progress store. Inline in
// the chapter's text (compact) the piece takes its content's height.
FocusScope {
    id: root
    objectName: "d3Piece"
    // Known from the moment it is made: set into a chapter's text, or not.
    property bool compact: Object(parent).setIntoText === true
    property var question: ({})
    property var result: null
    readonly property var stats: { Drills.revision; return Drills.stats("D3") }

    implicitHeight: round.implicitHeight + 2 * Theme.gapM
    implicitWidth: Theme.px(640)

    function next() {
        round.refusal = ""
        root.result = null
        root.question = Drills.question("D3")
    }
    // No presets: every question is the generator's.
    function applyPresetNamed(name) { return false }

    Component.onCompleted: next()

    ScrollPage {
        id: scroller
        anchors.fill: parent
        interactive: !root.compact
        contentHeight: round.implicitHeight + 2 * Theme.gapM

        DrillRound {
            id: round
            objectName: "d3Round"
            y: Theme.gapM
            width: scroller.availableWidth
            compact: root.compact
            intro: "Legal or not: a blocked matmul's BlockSpecs, grid and dimension semantics, a dtype and a chip; say whether it compiles and runs right within the default scoped VMEM, how many bytes of VMEM its buffers take (within 10 %), and when it does not, why: shape (the (8, 128) rule), coverage (output blocks never written), race (parallel steps writing one block) or vmem (over the limit). Checked with the BlockSpec sandbox's models."
            question: root.question
            result: root.result
            stats: root.stats
            codeHtml: root.question.code ? Reader.codeStyled(root.question.code, root.question.codeLanguage, Theme.codeColorsOnDark) : ""
            onCheckRequested: (answers, elapsedMs) => {
                const r = Drills.check(root.question, answers, elapsedMs)
                if (r.refused) {
                    round.refuse(r.refusal, r.refusedField)
                    return
                }
                round.refusal = ""
                root.result = r
            }
            onNextRequested: root.next()
            onRegradeRequested: grade => {
                const r = Drills.regrade(root.result.reviewId, grade)
                if (r.refused)
                    round.refusal = r.refusal
                else
                    root.result = Object.assign({}, root.result, r)
            }
        }
    }
}
