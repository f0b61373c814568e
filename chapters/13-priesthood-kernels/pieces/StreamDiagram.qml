pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// Where the arrays live at one step: Q, K and V in HBM; Q resident in VMEM
// with two K/V buffers, one being computed on while the other is filled
// with the next block; the score tile only ever on the MXU's side of VMEM.
Rectangle {
    id: root
    property int blocks: 4
    property int step: 0           // 0: before any block; s: block s-1 folded in
    property int seqQ: 8
    property int blockK: 4
    property int headDim: 4
    readonly property int current: step - 1
    readonly property bool finished: step === blocks

    function sub(n) { return String(n).split("").map(c => "₀₁₂₃₄₅₆₇₈₉"[c]).join("") }
    function hbmPhase(j) {
        if (j === current) return "current"
        if (j === current + 1 && !finished) return "next"
        return j < current ? "done" : "idle"
    }
    // Block j streams into buffer A when j is even and B when odd.
    function bufferBlock(buffer) {
        const mine = j => j >= 0 && j < blocks && j % 2 === buffer
        if (mine(current)) return { j: current, phase: "current" }
        if (mine(current + 1)) return { j: current + 1, phase: "next" }
        if (mine(current - 1)) return { j: current - 1, phase: "done" }
        return { j: -1, phase: "empty" }
    }

    color: Theme.card
    radius: Theme.radius
    border.color: Theme.cardBorder
    implicitHeight: layout.implicitHeight + 2 * Theme.gapM

    ColumnLayout {
        id: layout
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gap

        MonoText { text: "HBM"; color: Theme.inkMuted; font.weight: Font.DemiBold }
        Flow {
            Layout.fillWidth: true
            spacing: Theme.gap / 2
            MemoryBlock { label: "Q"; phase: root.step === 0 ? "next" : "done" }
            Item { width: Theme.gap; height: 1 }
            Repeater {
                model: root.blocks
                MemoryBlock { required property int index; label: "K" + root.sub(index); phase: root.hbmPhase(index) }
            }
            Item { width: Theme.gap; height: 1 }
            Repeater {
                model: root.blocks
                MemoryBlock { required property int index; label: "V" + root.sub(index); phase: root.hbmPhase(index) }
            }
            Item { width: Theme.gap; height: 1 }
            MemoryBlock {
                objectName: "ex03OutputBlock"
                label: "O"
                note: root.finished ? "written once" : "not yet"
                phase: root.finished ? "current" : "empty"
            }
            MemoryBlock { label: "S"; note: "never written"; phase: "ghost" }
        }

        MonoText {
            Layout.fillWidth: true
            text: root.step === 0 ? "↓ DMA: Q once, then K₀ and V₀"
                : root.finished ? "↑ O = acc / l, written once; nothing else goes back"
                : "↓ DMA: K" + root.sub(root.current + 1) + ", V" + root.sub(root.current + 1)
                  + " into the other buffer while the MXU works on K" + root.sub(root.current)
            color: Theme.accent
            font.pixelSize: Theme.tinySize
            elide: Text.ElideRight
        }

        MonoText { text: "VMEM"; color: Theme.inkMuted; font.weight: Font.DemiBold }
        Flow {
            Layout.fillWidth: true
            spacing: Theme.gap / 2
            MemoryBlock { label: "q Q"; note: "resident"; phase: root.step === 0 ? "next" : "idle" }
            Item { width: Theme.gap; height: 1 }
            Repeater {
                model: [0, 1]
                Row {
                    id: bufferRow
                    required property int modelData
                    readonly property var held: root.bufferBlock(modelData)
                    readonly property string buf: modelData === 0 ? "A" : "B"
                    spacing: Theme.gap / 2
                    MemoryBlock { label: "k" + bufferRow.buf + " " + (bufferRow.held.j >= 0 ? "K" + root.sub(bufferRow.held.j) : "·"); phase: bufferRow.held.phase }
                    MemoryBlock { label: "v" + bufferRow.buf + " " + (bufferRow.held.j >= 0 ? "V" + root.sub(bufferRow.held.j) : "·"); phase: bufferRow.held.phase }
                    Item { width: Theme.gap; height: 1 }
                }
            }
            MemoryBlock { label: "m l acc"; note: root.seqQ + " rows"; phase: root.step === 0 ? "idle" : "current" }
        }
        MonoText {
            Layout.fillWidth: true
            text: root.step === 0 ? "MXU · idle: m = −∞, l = 0, acc = 0 for every row"
                : "MXU · S" + root.sub(root.current) + " = Q·K" + root.sub(root.current) + "ᵀ ("
                  + root.seqQ + "×" + root.blockK + " tile, in VMEM only), then acc += P·V" + root.sub(root.current)
            color: Theme.inkText
            font.pixelSize: Theme.tinySize
            elide: Text.ElideRight
        }
    }
}
