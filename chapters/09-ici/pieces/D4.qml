import QtQuick
import QtQuick.Controls
import TpuCourse.Ui
import TpuCourse.Backend

// D4: questions from libtpusim's seeded generator, at the drill's level,
// the card kinds due today first; each answer checked by the simulator,
// graded, scheduled with FSRS and kept in the progress store. Inline in
// the chapter's text (compact) the piece takes its content's height.
FocusScope {
    id: root
    objectName: "d4Piece"
    // Known from the moment it is made: set into a chapter's text, or not.
    property bool compact: Object(parent).setIntoText === true
    property var question: ({})
    property var result: null
    readonly property var stats: { Drills.revision; return Drills.stats("D4") }

    implicitHeight: round.implicitHeight + 2 * Theme.gapM
    implicitWidth: Theme.px(640)

    function next() {
        round.refusal = ""
        root.result = null
        root.question = Drills.question("D4")
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
            objectName: "d4Round"
            y: Theme.gapM
            width: scroller.availableWidth
            compact: root.compact
            intro: "Collective cost: a chip, a slice of it, an axis, the bytes and a collective; give the time it takes and how many bytes cross the busiest link (each within 15 % of the closed form or of the hop-by-hop simulation), and whether the axis's links make a ring (with wraparound) or a line. Checked with the mesh models EX·11 draws. A sharded layer's cards start one step earlier: from a mesh and an MLP block's PartitionSpecs, name the collective XLA inserts for one array, its bytes V, and whether the matmul beside it hides it, checked as EX·14 prices it."
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
