pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Sim

// EX·03 in miniature, looping slowly in the stack's header: K and V blocks
// stream from HBM past a resident Q while the carried-state recurrence is
// written for the block in hand. The loop only moves the highlight; the
// example's shape comes from the instrument's own stepper run, made once.
// Rendered offscreen (screenshots, tests) it holds still on one step so
// every render is the same.
Rectangle {
    id: root
    signal openPlace(string place)
    readonly property var run: Attention.stream(8, 16, 4, 4, false, 7)    // a map from C++, read untyped
    readonly property int blocks: run.blocks || 4
    readonly property bool animate: Qt.platform.pluginName !== "offscreen"
    property int step: 2            // 0: before any block; s: block s-1 in hand
    readonly property int current: step - 1
    readonly property string j: current < 0 ? "ⱼ" : sub(current)

    function stepWords(s) {
        const j = s === 0 ? "" : sub(s - 1)
        return String(s).padStart(2, "0") + "/" + String(blocks).padStart(2, "0") + " · "
            + (s === 0 ? "Q lands in VMEM and stays"
               : "one pass over K" + j + ", V" + j + ": rescale (m, l, acc), never materializing scores to HBM")
    }
    function sub(n) { return String(n).split("").map(c => "₀₁₂₃₄₅₆₇₈₉"[c]).join("") }
    function phase(block) {
        if (block === current) return "current"
        if (block === current + 1) return "next"
        return block < current ? "done" : "idle"
    }
    // Block b lives in buffer A when b is even, B when odd.
    function buffer(which) {
        for (const b of [current, current + 1, current - 1])
            if (b >= 0 && b < blocks && b % 2 === which)
                return { b: b, phase: phase(b) }
        return { b: -1, phase: "idle" }
    }

    implicitHeight: col.height + 2 * Theme.gapL
    radius: Theme.radius
    color: Theme.ink
    activeFocusOnTab: true
    Accessible.role: Accessible.Button
    Accessible.name: "EX·03 streaming attention, live: open the instrument"
    Keys.onReturnPressed: openPlace("EX03")
    Keys.onEnterPressed: openPlace("EX03")
    Keys.onSpacePressed: openPlace("EX03")

    Timer {
        interval: 1800
        repeat: true
        // Still while the window is in the background or minimized: a
        // learner elsewhere is not watching it step.
        running: root.animate && root.visible && root.Window.active
        onTriggered: root.step = (root.step + 1) % (root.blocks + 1)
    }

    component Cell: Rectangle {
        property string label: ""
        property string phase: "idle"
        implicitWidth: Math.max(Theme.px(28), text.implicitWidth + Theme.gap)
        implicitHeight: Theme.px(24)
        radius: Theme.radius / 2
        color: phase === "current" ? Theme.accent : phase === "next" ? Theme.accentSoft : Theme.inkHover
        border.width: phase === "next" ? 1 : 0
        border.color: Theme.accent
        opacity: phase === "done" ? 0.5 : 1
        // No colour animation: a step is then one frame, not a dozen, and
        // the card costs the stack a small part of a core (bench_idle).
        MonoText {
            id: text
            anchors.centerIn: parent
            text: parent.label
            font.pixelSize: Theme.tinySize
            color: parent.phase === "current" ? Theme.ink : Theme.inkText
        }
    }

    Column {
        id: col
        x: Theme.gapL; y: Theme.gapL
        width: parent.width - 2 * Theme.gapL
        spacing: Theme.gap

        Item {
            width: parent.width
            height: heading.implicitHeight
            MonoText { id: heading; text: "EX·03 streaming attention · live"; color: Theme.accent }
            MonoText {
                x: parent.width - width
                anchors.verticalCenter: parent.verticalCenter
                text: "ch 13"; color: Theme.inkFaint; font.pixelSize: Theme.tinySize
            }
        }
        Row {
            spacing: Theme.gap / 2
            MonoText { width: Theme.px(44); anchors.verticalCenter: parent.verticalCenter; text: "HBM"; color: Theme.inkMuted; font.pixelSize: Theme.tinySize }
            Cell { label: "Q"; phase: root.step === 0 ? "next" : "done" }
            Item { width: Theme.gap / 2; height: 1 }
            Repeater { model: root.blocks; Cell { required property int index; label: "K" + root.sub(index); phase: root.phase(index) } }
            Item { width: Theme.gap / 2; height: 1 }
            Repeater { model: root.blocks; Cell { required property int index; label: "V" + root.sub(index); phase: root.phase(index) } }
        }
        Row {
            spacing: Theme.gap / 2
            MonoText { width: Theme.px(44); anchors.verticalCenter: parent.verticalCenter; text: "VMEM"; color: Theme.inkMuted; font.pixelSize: Theme.tinySize }
            Cell { label: "q Q (resident)" }
            Item { width: Theme.gap / 2; height: 1 }
            Repeater {
                model: [0, 1]
                Row {
                    id: bufferRow
                    required property int modelData
                    readonly property var held: root.buffer(modelData)
                    readonly property string name: modelData === 0 ? "A" : "B"
                    spacing: Theme.gap / 2
                    Cell { label: "k" + bufferRow.name + " " + (bufferRow.held.b >= 0 ? "K" + root.sub(bufferRow.held.b) : "·"); phase: bufferRow.held.phase }
                    Cell { label: "v" + bufferRow.name + " " + (bufferRow.held.b >= 0 ? "V" + root.sub(bufferRow.held.b) : "·"); phase: bufferRow.held.phase }
                }
            }
        }
        Column {
            topPadding: Theme.gap / 2
            spacing: 2
            MonoText { text: "CARRIED STATE"; color: Theme.inkMuted; font.pixelSize: Theme.tinySize }
            MonoText { text: "m   : max(m₋, rowmax S" + root.j + ")"; color: Theme.inkText; font.pixelSize: Theme.tinySize }
            MonoText { text: "l   : l·e^(m₋−m) + rowsum e^(S" + root.j + "−m)"; color: Theme.inkText; font.pixelSize: Theme.tinySize }
            MonoText { text: "acc : acc·e^(m₋−m) + e^(S" + root.j + "−m)·V" + root.j; color: Theme.inkText; font.pixelSize: Theme.tinySize }
            MonoText { text: "m₋  : the row's max before this block"; color: Theme.inkMuted; font.pixelSize: Theme.tinySize }
            MonoText {
                text: root.step === 0 ? "MXU · idle: m = −∞, l = 0, acc = 0"
                                      : "MXU · S" + root.j + " = Q·K" + root.j + "ᵀ, then acc"
                color: Theme.accent; font.pixelSize: Theme.tinySize
            }
        }
        // As tall as the longest step's words, so the card, and the honesty
        // card under it, stand still while the loop goes round.
        Item {
            width: parent.width
            height: Math.max(stepText.implicitHeight, longestStep.implicitHeight)
            Text {
                id: stepText
                objectName: "liveStepText"
                width: parent.width
                text: root.stepWords(root.step)
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }
            // Laid out, never drawn: it only measures.
            Text {
                id: longestStep
                visible: false
                width: parent.width
                text: root.stepWords(root.blocks)
                font: stepText.font
                wrapMode: Text.WordWrap
            }
        }
        Text {
            width: parent.width
            text: "scrub it: the carried state rescales exactly; the score matrix never exists →"
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
            color: mouse.containsMouse || root.activeFocus ? Theme.accentHover : Theme.accent
            wrapMode: Text.WordWrap
        }
    }
    MouseArea {
        id: mouse
        objectName: "liveAttentionCard"
        anchors.fill: parent
        hoverEnabled: true
        cursorShape: Qt.PointingHandCursor
        onClicked: root.openPlace("EX03")
    }
    FocusFrame {}
}
