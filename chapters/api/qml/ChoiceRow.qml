import QtQuick
import TpuCourse.Ui

// One of a few choices (chips, dtypes, collectives): a row of buttons,
// the chosen one filled; arrow keys move between them. Given a width too
// narrow for one row, the buttons wrap onto the next.
Flow {
    id: root
    property var options: []        // [{id, label}]
    property string current: ""
    property string namePrefix: ""  // objectName of each button: prefix + id
    signal chosen(string id)
    spacing: Theme.gap / 2

    Repeater {
        model: root.options
        delegate: SnugButton {
            required property var modelData
            readonly property bool on: root.current === modelData.id
            objectName: root.namePrefix + modelData.id
            text: modelData.label
            mono: true
            fillColor: on ? Theme.accent : Theme.inkHover
            hoverColor: on ? Theme.accentHover : Theme.cardHover
            textColor: on ? Theme.ink : Theme.inkText
            onClicked: root.chosen(modelData.id)
            Keys.onLeftPressed: nextItemInFocusChain(false).forceActiveFocus()
            Keys.onRightPressed: nextItemInFocusChain(true).forceActiveFocus()
        }
    }
}
