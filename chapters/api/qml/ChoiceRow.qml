pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui

// One of a few choices (chips, dtypes, collectives): a row of buttons,
// the chosen one filled; arrow keys move between them. Given a width too
// narrow for one row, the buttons wrap onto the next.
Item {
    id: root
    property var options: []        // [{id, label}]
    property string current: ""
    property string namePrefix: ""  // objectName of each button: prefix + id
    property real spacing: Theme.gap / 2
    signal chosen(string id)

    // Buttons made so far: made a little each frame (a piece set into a
    // chapter's text), the row has its count before its buttons.
    property int made: 0
    // One row's width whatever the wrapping, so a layout that leaves it its
    // natural width never sees it wrapped; a narrower width wraps it.
    implicitWidth: {
        made  // read again as each button is made
        let total = 0
        for (let i = 0; i < buttons.count; ++i) {
            const b = buttons.itemAt(i)
            if (b) total += b.implicitWidth + (i > 0 ? spacing : 0)
        }
        return total
    }
    implicitHeight: flow.implicitHeight

    Flow {
        id: flow
        width: root.width
        spacing: root.spacing
        // By count: options worked out again with each change of a piece
        // (most often the same ones) re-fill the buttons rather than make
        // them again.
        Repeater {
            id: buttons
            model: root.options.length
            onItemAdded: root.made += 1
            onItemRemoved: root.made -= 1
            delegate: SnugButton {
                required property int index
                // Past the end for a moment when the options shrink: the
                // button's bindings run once more before it goes.
                readonly property var modelData: root.options[index] || ({})
                readonly property bool on: root.current === modelData.id
                objectName: root.namePrefix + modelData.id
                text: modelData.label || ""
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
}
