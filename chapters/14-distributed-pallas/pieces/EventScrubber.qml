import QtQuick
import TpuCourse.Ui

// Time as a track of events: one stop per event of the run. Drag or click
// along it, or use the arrow keys (Home and End jump to the ends).
Item {
    id: root
    property int count: 1          // events in the run
    property int value: 0
    signal moved(int value)
    readonly property int trackMargin: Theme.gapM

    implicitHeight: Theme.px(28)
    activeFocusOnTab: true
    Accessible.role: Accessible.Slider
    Accessible.name: "event " + (value + 1) + " of " + count

    // The owner's index follows `moved`; assigning `value` here would cut
    // its binding, and a re-run could no longer move the stop.
    function set(v) {
        v = Math.max(0, Math.min(count - 1, v))
        if (v !== value) moved(v)
    }
    function setFrom(x) { set(Math.round((x - track.x) / track.width * (count - 1))) }
    Keys.onLeftPressed: set(value - 1)
    Keys.onRightPressed: set(value + 1)
    Keys.onPressed: event => {
        if (event.key === Qt.Key_Home) { set(0); event.accepted = true }
        else if (event.key === Qt.Key_End) { set(count - 1); event.accepted = true }
    }

    Rectangle {
        id: track
        x: root.trackMargin
        width: parent.width - 2 * root.trackMargin
        anchors.verticalCenter: parent.verticalCenter
        height: Theme.progressThickness
        radius: height / 2
        color: Theme.trackOnDark
        Rectangle {
            width: root.count > 1 ? parent.width * root.value / (root.count - 1) : 0
            height: parent.height
            radius: parent.radius
            color: Theme.accent
        }
    }
    Rectangle {
        width: Theme.px(14); height: width; radius: width / 2
        color: Theme.accent
        x: track.x + (root.count > 1 ? track.width * root.value / (root.count - 1) : 0) - width / 2
        anchors.verticalCenter: parent.verticalCenter
    }
    MouseArea {
        objectName: "ex10ScrubTrack"
        anchors.fill: parent
        cursorShape: Qt.SizeHorCursor
        preventStealing: true
        onPressed: mouse => { root.forceActiveFocus(); root.setFrom(mouse.x) }
        onPositionChanged: mouse => { if (pressed) root.setFrom(mouse.x) }
    }
    FocusFrame {}
}
