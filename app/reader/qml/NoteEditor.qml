import QtQuick
import QtQuick.Controls
import TpuCourse.Ui

// Writing a note on a paragraph: Ctrl+Enter or leaving the field keeps it
// (kept), Escape puts it back (dropped).
Column {
    id: editor
    property alias text: field.text
    signal kept(string text)
    signal dropped()
    property bool done: false
    spacing: Theme.px(4)

    TextArea {
        id: field
        objectName: "markNoteEditor"
        width: editor.width
        placeholderText: "a note on this paragraph, kept with your progress"
        wrapMode: TextEdit.Wrap
        font.family: Theme.sans
        font.pixelSize: Theme.readerNoteSize
        // The page's colours, so a note reads in the dark theme as in the light.
        color: Theme.pageInk
        placeholderTextColor: Theme.pageMuted
        selectionColor: Theme.focus
        selectByMouse: true
        background: Rectangle {
            color: Theme.pageCode
            radius: Theme.radius
            border.width: field.activeFocus ? Theme.focusWidth : 1
            border.color: field.activeFocus ? Theme.focus : Theme.pageRule
        }
        Component.onCompleted: forceActiveFocus()
        Keys.onEscapePressed: { editor.done = true; editor.dropped() }
        Keys.onPressed: event => {
            if ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter) && (event.modifiers & Qt.ControlModifier)) {
                event.accepted = true
                editor.done = true
                editor.kept(field.text)
            }
        }
        onActiveFocusChanged: if (!activeFocus && !editor.done) editor.kept(field.text)
    }
    Caption {
        text: "Ctrl+Enter keeps it, Escape puts it back; an empty note removes it"
        font.pixelSize: Theme.tinySize
    }
}
