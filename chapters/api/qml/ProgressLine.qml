import QtQuick
import TpuCourse.Ui

// A thin progress bar with its percentage beside it.
Row {
    id: root
    property real value: 0
    // On the reading page unless told otherwise.
    property color fillColor: Theme.pageAccent
    property color trackColor: Theme.pageTrack
    property color textColor: Theme.pageInk
    property int barWidth: Theme.progressWidth
    // What the percentage is of, when the place does not say ("of the mastery work").
    property string of: ""

    spacing: Theme.gap
    Accessible.role: Accessible.ProgressBar
    Accessible.name: Math.round(value * 100) + " percent" + (of !== "" ? " " + of : "")

    Rectangle {
        anchors.verticalCenter: parent.verticalCenter
        width: root.barWidth
        height: Theme.progressThickness
        radius: height / 2
        color: root.trackColor
        Rectangle {
            width: Math.max(0, Math.min(1, root.value)) * parent.width
            height: parent.height
            radius: parent.radius
            color: root.fillColor
        }
    }
    MonoText {
        anchors.verticalCenter: parent.verticalCenter
        text: Math.round(root.value * 100) + "%" + (root.of !== "" ? " " + root.of : "")
        color: root.textColor
        font.pixelSize: Theme.tinySize
    }
}
