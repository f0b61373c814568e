pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The step as a track of stops: start, then one stop per K/V block. Drag or
// click along it, or use the arrow keys (Home and End jump to the ends).
Item {
    id: root
    property int stops: 5          // blocks + 1
    property int value: 0
    property var labels: []        // one per stop
    signal moved(int value)        // the learner changed it (not the player)
    readonly property int trackMargin: Theme.gapM   // the first and last stops sit this far in

    implicitHeight: Theme.px(52)
    activeFocusOnTab: true
    Accessible.role: Accessible.Slider
    Accessible.name: "step " + value + " of " + (stops - 1)

    // The owner's step follows `moved`; assigning `value` here would cut
    // its binding, and the player could no longer move the stop.
    function set(v) {
        v = Math.max(0, Math.min(stops - 1, v))
        if (v !== value) moved(v)
    }
    function setFrom(x) { set(Math.round((x - track.x) / track.width * (stops - 1))) }
    Keys.onLeftPressed: set(value - 1)
    Keys.onRightPressed: set(value + 1)
    Keys.onPressed: event => {
        if (event.key === Qt.Key_Home) { set(0); event.accepted = true }
        else if (event.key === Qt.Key_End) { set(stops - 1); event.accepted = true }
    }

    Rectangle {
        id: track
        x: root.trackMargin
        width: parent.width - 2 * root.trackMargin
        y: Theme.gap + Theme.px(6)
        height: Theme.progressThickness
        radius: height / 2
        color: Theme.trackOnDark
        Rectangle {
            width: root.stops > 1 ? parent.width * root.value / (root.stops - 1) : 0
            height: parent.height
            radius: parent.radius
            color: Theme.accent
            Behavior on width { NumberAnimation { duration: Theme.scrollDuration } }
        }
    }
    Repeater {
        model: root.stops
        Item {
            id: tick
            required property int index
            readonly property real cx: track.x + (root.stops > 1 ? track.width * index / (root.stops - 1) : 0)
            Rectangle {
                x: parent.cx - width / 2
                y: track.y + track.height / 2 - height / 2
                width: tick.index === root.value ? Theme.px(16) : Theme.px(10)
                height: width
                radius: width / 2
                color: tick.index <= root.value ? Theme.accent : Theme.card
                border.color: tick.index <= root.value ? Theme.accent : Theme.inkFaint
                border.width: 1
            }
            MonoText {
                x: Math.max(0, Math.min(root.width - width, parent.cx - width / 2))
                y: track.y + Theme.gapM
                text: root.labels[tick.index] || ""
                color: tick.index === root.value ? Theme.accent : Theme.inkMuted
                font.pixelSize: Theme.tinySize
            }
        }
    }
    MouseArea {
        objectName: "ex03StepTrack"
        anchors.fill: parent
        cursorShape: Qt.SizeHorCursor
        preventStealing: true
        onPressed: mouse => { root.forceActiveFocus(); root.setFrom(mouse.x) }
        onPositionChanged: mouse => { if (pressed) root.setFrom(mouse.x) }
    }
    Rectangle {
        anchors.fill: parent
        radius: Theme.radius
        color: "transparent"
        border.color: Theme.focus
        border.width: Theme.focusWidth
        visible: root.activeFocus
    }
}
