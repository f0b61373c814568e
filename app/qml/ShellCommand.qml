import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

// A shell command set as it would be typed: when it does not fit its width,
// it breaks before an option (an option and its value stay together), each
// broken line ending in " \" and the next indented, so what is selected and
// copied still runs. Only a single word longer than the line is broken
// inside it. Its copy button copies the command on one line, as given.
Item {
    id: root
    objectName: "shellCommand"
    required property string command
    // The command as set, for tests and for whoever lays it out.
    readonly property alias text: edit.text
    readonly property alias font: edit.font
    implicitHeight: edit.implicitHeight

    // The mono face's columns at this width, beside the copy button.
    readonly property int columns: Math.max(16, Math.floor((width - edit.rightPadding) / Math.max(1, metrics.advanceWidth("0"))))

    function wrapped(command: string, columns: int): string {
        // Options with their values: "--out run.json" is one piece.
        const pieces = []
        for (const word of command.split(" ").filter(w => w.length > 0)) {
            const last = pieces.length - 1
            if (last > 0 && pieces[last].startsWith("-") && pieces[last].indexOf(" ") < 0 && !word.startsWith("-"))
                pieces[last] += " " + word
            else
                pieces.push(word)
        }
        const indent = "    ", lines = []
        let line = "$"
        for (let i = 0; i < pieces.length; ++i) {
            // A line that will be continued keeps room for its " \".
            const room = i === pieces.length - 1 ? columns : columns - 2
            const started = line === "$" || line === indent
            if (!started && line.length + 1 + pieces[i].length > room) {
                lines.push(line + " \\")
                line = indent
            }
            line += (line === indent ? "" : " ") + pieces[i]
        }
        lines.push(line)
        return lines.join("\n")
    }


    // A text edit with the keyboard takes the window's shortcuts (Escape,
    // Ctrl+K) for itself, and so does a button inside one. So the text is
    // selected with the mouse without taking the keyboard, the selection
    // kept in view, and the copy button is the text's sibling.
    TextEdit {
        id: edit
        width: parent.width
        rightPadding: copyButton.width + Theme.gap
        text: root.wrapped(root.command, root.columns)
        readOnly: true
        selectByMouse: true
        activeFocusOnPress: false
        persistentSelection: true
        wrapMode: TextEdit.WrapAnywhere
        // Characters as typed: the mono face's ligatures would draw ">=" as one glyph.
        font.family: Theme.mono; font.pixelSize: Theme.smallSize; font.preferShaping: false
        color: Theme.inkText
    }

    FontMetrics { id: metrics; font: edit.font }

    PlainButton {
        id: copyButton
        objectName: "copyCommand"
        anchors.right: parent.right
        // Centred on the first line, the prompt's.
        y: Math.round((metrics.height - height) / 2)
        text: copiedTimer.running ? "copied" : "copy"
        mono: true
        fillColor: "transparent"
        hoverColor: Theme.cardHover
        textColor: Theme.accent
        Accessible.name: "copy the command " + root.command
        onClicked: { Course.copyText(root.command); copiedTimer.restart() }
    }
    Timer { id: copiedTimer; interval: 1500 }
}
