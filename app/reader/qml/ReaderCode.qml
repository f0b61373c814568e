pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

// One sample of code: padded, coloured by language, never wrapped (long
// lines scroll sideways inside the block), with a copy button that copies
// the code exactly as written.
Rectangle {
    id: root
    property string code: ""
    property var styled: []            // the code as styled text, in pieces of whole lines
    property string language: ""
    // Words an exhibit's notes are pinned to, each {text, hot}: outlined
    // where each first stands, more thickly while its note is pointed at.
    property var pins: []
    readonly property bool copied: copiedTimer.running
    // The width that shows every line without scrolling.
    readonly property real naturalWidth: lines.implicitWidth + 2 * Theme.gapM + 2

    readonly property var boxes: pins.length > 0 ? pinBoxes(pins, lines.implicitHeight) : []
    FontMetrics { id: codeFace; font.family: Theme.mono; font.pixelSize: Theme.codeSize }
    // Where each pin's words first stand: {x, y, width, height, hot}.
    // `laidOut` is the pieces' height, read so the boxes follow their layout.
    function pinBoxes(notes, laidOut) {
        const boxes = []
        for (const note of notes) {
            const at = note.text ? code.indexOf(note.text) : -1
            if (at < 0 || laidOut <= 0)
                continue
            const lineStart = code.lastIndexOf("\n", at - 1) + 1
            const line = code.slice(0, lineStart).split("\n").length - 1
            const place = lineBox(line)
            if (!place)
                continue
            boxes.push({ x: codeFace.advanceWidth(code.slice(lineStart, at)), y: place.y,
                         width: codeFace.advanceWidth(note.text), height: place.height, hot: note.hot === true })
        }
        return boxes
    }
    // Line `line` of the code: its piece, and its share of that piece's height.
    function lineBox(line) {
        let first = 0
        for (let i = 0; i < pieces.count; ++i) {
            const piece = pieces.itemAt(i) as Text
            if (!piece)
                return null
            const count = piece.lineCount
            if (line < first + count)
                return { y: piece.y + (line - first) * piece.height / count, height: piece.height / count }
            first += count
        }
        return null
    }

    implicitHeight: header.height + view.height + Theme.gapM * 2
    radius: Theme.radius
    color: Theme.pageCode
    border.color: Theme.pageRule

    Row {
        id: header
        x: Theme.gapM
        y: Theme.gap
        width: parent.width - 2 * Theme.gapM
        height: copyButton.height
        MonoText {
            anchors.verticalCenter: parent.verticalCenter
            width: parent.width - copyButton.width
            text: root.language
            color: Theme.pageMuted
            font.pixelSize: Theme.tinySize
        }
        PlainButton {
            id: copyButton
            objectName: "copyCode"
            text: root.copied ? "copied" : "copy"
            mono: true
            fillColor: "transparent"
            hoverColor: Theme.pageHover
            textColor: Theme.pageAccent
            onClicked: { Course.copyText(root.code); copiedTimer.restart() }
        }
    }
    Timer { id: copiedTimer; interval: 1500 }

    SidewaysScroll {
        id: view
        x: Theme.gapM
        y: header.y + header.height
        width: parent.width - 2 * Theme.gapM
        contentWidth: lines.implicitWidth
        contentHeight: lines.implicitHeight
        // Behind the code: the face is monospaced, so a place in the code
        // is a line (a piece's share of its height) and an advance. By
        // count, so pointing at a note redraws its box, not remakes them all.
        Repeater {
            model: root.boxes.length
            Rectangle {
                id: pinBox
                required property int index
                readonly property var box: root.boxes[pinBox.index] || ({})
                objectName: "codePin"
                // Clear of the words' first and last letters, and of the lines above and below.
                x: (pinBox.box.x || 0) - Theme.px(3)
                y: (pinBox.box.y || 0) + 1
                width: (pinBox.box.width || 0) + 2 * Theme.px(3)
                height: Math.max(0, (pinBox.box.height || 0) - 2)
                radius: Theme.px(2)
                color: "transparent"
                border.color: Theme.pageAccent
                border.width: pinBox.box.hot ? 2 : 1
            }
        }
        // One Text a piece: each lays out once, however the page scrolls.
        Column {
            id: lines
            Repeater {
                id: pieces
                model: root.styled
                Text {
                    required property string modelData
                    objectName: "codeText"
                    text: modelData
                    textFormat: Text.StyledText
                    font.family: Theme.mono
                    font.pixelSize: Theme.codeSize
                    lineHeight: 1.3
                    color: Theme.pageInk
                }
            }
        }
    }
}
