import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·03 streaming attention: Q stays in VMEM while K and V stream in from
// HBM one block at a time, and every query row carries (m, l, acc),
// rescaling it when its max rises. The small example is run once by
// libtpusim's stepper; scrubbing only picks which step to show.
FocusScope {
    id: root
    // Shows its own chip choice: the piece page's title bar leaves its out.
    readonly property bool choosesChip: true
    // Small enough to read every number: 8 query rows, 16 keys in 4 blocks;
    // with a causal mask, row r sees keys 0..r, so 8 keys in 4 blocks of 2.
    property bool causal: false
    readonly property var run: causal ? Attention.stream(8, 8, 4, 2, true, 7) : Attention.stream(8, 16, 4, 4, false, 7)
    onCausalChanged: { player.stop(); step = 0; stepsSeen = [true] }
    readonly property int blocks: run.blocks || 0
    property int step: 0
    readonly property var carried: run.steps ? run.steps[step] : ({})
    readonly property var before: run.steps ? run.steps[Math.max(0, step - 1)] : ({})
    // The chapter's mastery item, goal by goal as the store holds it: the
    // last block reached, its output checked against the full softmax, once
    // without a mask and once with one.
    Mastery { id: mastery; piece: "EX03" }
    readonly property var goals: mastery.goals

    function sub(n) { return String(n).split("").map(c => "₀₁₂₃₄₅₆₇₈₉"[c]).join("") }
    function caption() {
        if (step === 0)
            return "step 0 · Q arrives in VMEM and stays; every row starts at m = −∞, l = 0, acc = 0"
                   + (causal ? " · causal: row r sees keys 0..r, masked scores count for nothing" : "")
        const j = sub(step - 1)
        if (step === blocks)
            return "step " + step + " · last block K" + j + ", V" + j + ": rescale, then O = acc / l; S was never in HBM"
        return "step " + step + " · one pass over K" + j + ", V" + j + ": rescale (m, l, acc), never materializing scores to HBM"
    }

    // The steps of this run the learner has had on screen: the goal is to
    // step every block, so End from the start does not reach it.
    property var stepsSeen: [true]
    // Reaching the last block with every block seen and the check passed
    // is one goal, per mask.
    onStepChanged: {
        const seen = stepsSeen.slice()
        seen[step] = true
        stepsSeen = seen
        let all = true
        for (let i = 0; i <= blocks; ++i)
            all = all && !!seen[i]
        if (step === blocks && blocks > 0 && all && run.check && run.check.passed) {
            mastery.reach(causal ? "causal" : "full")
        }
    }

    Timer {
        id: player
        interval: 1400
        repeat: true
        onTriggered: {
            if (root.step < root.blocks) root.step += 1
            if (root.step >= root.blocks) stop()
        }
    }

    ScrollPage {
        id: scroller
        anchors.fill: parent
        focus: true
        contentHeight: page.implicitHeight

        ColumnLayout {
            id: page
            width: scroller.availableWidth
            spacing: Theme.gapM

            Text {
                Layout.fillWidth: true
                text: "Q stays in VMEM; K and V stream in from HBM one block at a time. Each query row carries a running max m, a running sum l and an unnormalized output acc, and rescales them by e^(m₋−m) whenever its max rises. The score matrix is never stored."
                font.family: Theme.sans
                font.pixelSize: Theme.bodySize
                lineHeight: 1.25
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }

            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gapM
                PlainButton {
                    objectName: "ex03Play"
                    text: player.running ? "❚❚ pause" : (root.step === root.blocks ? "↺ replay" : "▶ play")
                    mono: true
                    Layout.preferredWidth: Theme.px(120)
                    fillColor: Theme.accent; hoverColor: Theme.accentHover; textColor: Theme.ink
                    onClicked: {
                        if (player.running) { player.stop(); return }
                        if (root.step === root.blocks) root.step = 0
                        player.start()
                    }
                }
                ChoiceRow {
                    namePrefix: "ex03Mask_"
                    options: [{ id: "full", label: "full" }, { id: "causal", label: "causal" }]
                    current: root.causal ? "causal" : "full"
                    onChosen: id => root.causal = id === "causal"
                }
                StepScrubber {
                    id: scrubber
                    objectName: "ex03Step"
                    Layout.fillWidth: true
                    stops: root.blocks + 1
                    value: root.step
                    labels: ["start", ...Array.from({ length: root.blocks }, (_, j) => "K" + root.sub(j) + " V" + root.sub(j))]
                    onMoved: v => { player.stop(); root.step = v }
                }
            }
            MonoText {
                objectName: "ex03Caption"
                Layout.fillWidth: true
                text: root.caption()
                color: Theme.accent
                font.pixelSize: Theme.smallSize
                wrapMode: Text.WordWrap
            }

            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gapM
                ColumnLayout {
                    Layout.fillWidth: false
                    Layout.preferredWidth: page.width * 0.5
                    Layout.maximumWidth: page.width * 0.5
                    Layout.alignment: Qt.AlignTop
                    spacing: Theme.gapM
                    StreamDiagram {
                        Layout.fillWidth: true
                        blocks: root.blocks
                        step: root.step
                        seqQ: root.run.seqQ || 0
                        blockK: root.run.blockK || 0
                        headDim: root.run.headDim || 0
                    }
                    StateFormulas { Layout.fillWidth: true; block: root.step - 1 }
                }
                ColumnLayout {
                    Layout.fillWidth: true
                    Layout.alignment: Qt.AlignTop
                    spacing: Theme.gapM
                    CarriedStateTable {
                        Layout.fillWidth: true
                        carried: root.carried
                        previous: root.before
                        step: root.step
                        provenance: root.run.provenance || ({})
                    }
                    FinalCheck {
                        Layout.fillWidth: true
                        reached: root.step === root.blocks && root.blocks > 0
                        check: root.run.check || ({})
                    }
                }
            }

            AtScalePanel { Layout.fillWidth: true; causal: root.causal }
            GoalList {
                objectName: "ex03Mastery"
                Layout.fillWidth: true
                heading: "Match the full softmax:"
                goals: root.goals
                chapter: mastery.chapter
            }
        }
    }
}
