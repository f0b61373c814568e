import QtQuick
import TpuCourse.Ui

// A visible ring around whatever holds keyboard focus.
Rectangle {
    anchors.fill: parent
    anchors.margins: -3
    // Round where what it rings is (a Rectangle's radius, read untyped).
    radius: Object(parent).radius !== undefined ? Object(parent).radius + 3 : 3
    color: "transparent"
    border.color: Theme.focus
    border.width: Theme.focusWidth
    visible: parent.activeFocus
}
