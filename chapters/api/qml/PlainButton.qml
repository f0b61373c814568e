import QtQuick
import TpuCourse.Ui

// A flat button that works the same with the mouse, Enter or Space.
Rectangle {
    id: root
    property alias text: label.text
    property color textColor: Theme.paper
    property color fillColor: Theme.ink
    property color hoverColor: Theme.inkHover
    property bool mono: false
    property real sidePadding: Theme.gapL   // room left and right of the label
    signal clicked()

    implicitWidth: label.implicitWidth + sidePadding * 2
    implicitHeight: label.implicitHeight + Theme.gapM
    radius: Theme.radius
    color: mouse.containsMouse ? hoverColor : fillColor
    activeFocusOnTab: true
    Accessible.role: Accessible.Button
    Accessible.name: label.text
    Accessible.onPressAction: clicked()
    Keys.onReturnPressed: clicked()
    Keys.onEnterPressed: clicked()
    Keys.onSpacePressed: clicked()

    Text {
        id: label
        anchors.centerIn: parent
        color: root.textColor
        font.family: root.mono ? Theme.mono : Theme.sans
        font.pixelSize: Theme.smallSize
        font.weight: Font.DemiBold
        font.preferShaping: !root.mono  // as MonoText: code as written, no ligatures
    }
    MouseArea {
        id: mouse
        anchors.fill: parent
        hoverEnabled: true
        cursorShape: Qt.PointingHandCursor
        onClicked: root.clicked()
    }
    FocusFrame {}
}
