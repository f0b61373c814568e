import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// A piece's mastery goals as the progress store holds them, so the ticks
// here say what the workshop card, the chapter and the report say: each
// goal ticked once the piece has seen it reached, and a closing line once
// the item is done.
ColumnLayout {
    id: root
    property string heading: ""
    property var goals: []        // Course.goalsOf(chapter, item): [{id, text, reached}]
    property int chapter: 0
    spacing: Theme.gap / 2
    readonly property bool done: goals.length > 0 && goals.every(g => g.reached)

    Text {
        Layout.fillWidth: true
        visible: root.heading !== ""
        text: root.heading
        wrapMode: Text.Wrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
        color: Theme.inkMuted
    }
    Repeater {
        model: root.goals
        Text {
            required property var modelData
            objectName: "goal_" + modelData.id
            readonly property bool reached: modelData.reached
            Layout.fillWidth: true
            text: (reached ? "✓ " : "○ ") + modelData.text
            wrapMode: Text.Wrap
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: reached ? Theme.inkText : Theme.inkMuted
        }
    }
    Text {
        objectName: "goalsDone"
        Layout.fillWidth: true
        // Kept in the layout (transparent) until it applies, so nothing moves when it does.
        opacity: root.done ? 1 : 0
        text: "Counted toward chapter " + root.chapter + "."
        wrapMode: Text.Wrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.measured
    }
}
