import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One operand's index map as editable text, e.g. `lambda i, j, k: (i, k)`.
// Every keystroke is parsed by libtpusim; its refusal (with the column)
// shows underneath, and a caret marks the column it names.
ColumnLayout {
    id: root
    property string operand: "x"
    property string text: ""
    property string error: ""
    property alias input: field
    signal edited(string text)
    spacing: Theme.px(2)

    // "column 18: ..." -> 17, the character the refusal points at.
    readonly property int errorColumn: {
        const m = /^column (\d+):/.exec(error)
        return m ? Number(m[1]) - 1 : -1
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        MonoText {
            Layout.preferredWidth: Theme.px(32)
            text: root.operand
            color: Theme.inkMuted
        }
        Rectangle {
            Layout.fillWidth: true
            implicitHeight: field.implicitHeight + Theme.gap
            radius: Theme.radius
            color: Theme.floor
            border.width: 1
            border.color: root.error ? Theme.failed : (field.activeFocus ? Theme.focus : Theme.fieldBorder)
            TextInput {
                id: field
                objectName: "ex09Map_" + root.operand
                anchors.fill: parent
                anchors.leftMargin: Theme.gap; anchors.rightMargin: Theme.gap
                verticalAlignment: TextInput.AlignVCenter
                text: root.text
                font.family: Theme.mono
                font.pixelSize: Theme.smallSize
                color: Theme.inkText
                selectionColor: Theme.focus
                selectByMouse: true
                activeFocusOnTab: true
                clip: true
                Accessible.role: Accessible.EditableText
                Accessible.name: "index map of " + root.operand
                onTextEdited: root.edited(text)
                // The column the parser refuses, underlined in the failure colour.
                Rectangle {
                    visible: root.errorColumn >= 0
                    readonly property rect at: field.positionToRectangle(Math.min(root.errorColumn, field.length))
                    x: at.x; y: at.y + at.height
                    width: Math.max(Theme.px(6), field.positionToRectangle(Math.min(root.errorColumn + 1, field.length)).x - at.x)
                    height: 2
                    color: Theme.failed
                }
            }
        }
    }
    Text {
        objectName: "ex09MapError_" + root.operand
        Layout.fillWidth: true
        Layout.leftMargin: Theme.px(32) + Theme.gap
        visible: root.error !== ""
        text: root.error
        wrapMode: Text.Wrap
        font.family: Theme.sans
        font.pixelSize: Theme.tinySize
        color: Theme.failed
    }
}
