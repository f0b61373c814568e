import QtQuick
import QtQuick.Controls
import TpuCourse.Ui
import TpuCourse.Backend

// D1: questions from libtpusim's seeded generator, at the drill's level,
// the card kinds due today first; each answer checked by the simulator,
// graded, scheduled with FSRS and kept in the progress store. Inline in
// the chapter's text (compact) the piece takes its content's height.
FocusScope {
    id: root
    objectName: "d1Piece"
    // Known from the moment it is made: set into a chapter's text, or not.
    property bool compact: Object(parent).setIntoText === true
    property var question: ({})
    property var result: null
    readonly property var stats: { Drills.revision; return Drills.stats("D1") }

    implicitHeight: round.implicitHeight + 2 * Theme.gapM
    implicitWidth: Theme.px(640)

    function next() {
        round.refusal = ""
        root.result = null
        root.question = Drills.question("D1")
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
            objectName: "d1Round"
            y: Theme.gapM
            width: scroller.availableWidth
            compact: root.compact
            intro: "Decode any dot_general: a contraction printed as jaxpr, StableHLO or HLO, its result's dimensions hidden; give the output shape, the FLOPs, and the contracting dimensions of each operand (the lhs's, then x, then the rhs's: [2] x [1]). Checked with libtpusim's dot_general model, the one the IR x-ray decodes with."
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
