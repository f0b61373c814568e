import QtQuick
import TpuCourse.Ui

// A stage pinned beside its layer: the stage and its chapter, its title, its
// gate's state and progress. Solid ink on the light layers, outlined on the
// dark ones, so it reads on both.
Rectangle {
    id: root
    property var stage: ({})
    property bool darkGround: false
    signal openPlace(string place)

    readonly property color accent: Theme.gateColor(stage.gateState)
    readonly property string place: "ch" + String(stage.number).padStart(2, "0")

    implicitWidth: Theme.px(400)
    implicitHeight: body.implicitHeight + Theme.gapM
    radius: Theme.radius * 2
    color: darkGround ? (mouse.containsMouse ? Theme.hoverOnDark : "transparent") : (mouse.containsMouse ? Theme.inkHover : Theme.ink)
    border.color: darkGround ? accent : Theme.ink
    border.width: 1
    activeFocusOnTab: true
    Accessible.role: Accessible.Button
    Accessible.name: "stage " + stage.stageNumber + ", chapter " + stage.number + ", " + stage.title + ", gate " + stage.gate + " " + stage.gateState
    Keys.onReturnPressed: openPlace(place)
    Keys.onEnterPressed: openPlace(place)
    Keys.onSpacePressed: openPlace(place)

    Column {
        id: body
        x: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        anchors.verticalCenter: parent.verticalCenter
        spacing: 2
        Item {
            width: parent.width
            height: Math.max(which.implicitHeight, gate.implicitHeight)
            MonoText {
                id: which
                anchors.verticalCenter: parent.verticalCenter
                text: "◆ stage " + root.stage.stageNumber + " · ch " + String(root.stage.number).padStart(2, "0")
                color: root.accent
                font.pixelSize: Theme.tinySize
            }
            MonoText {
                id: gate
                x: parent.width - width
                anchors.verticalCenter: parent.verticalCenter
                text: "gate " + root.stage.gate + " · " + root.stage.gateState
                color: root.accent
                font.pixelSize: Theme.tinySize
            }
        }
        Item {
            width: parent.width
            height: Math.max(title.implicitHeight, progress.implicitHeight)
            Text {
                id: title
                width: progress.x - Theme.gap
                anchors.verticalCenter: parent.verticalCenter
                text: root.stage.title || ""
                elide: Text.ElideRight
                font.family: Theme.sans
                font.pixelSize: Theme.smallSize
                font.weight: Font.DemiBold
                color: Theme.inkText
            }
            ProgressLine {
                id: progress
                x: parent.width - width
                anchors.verticalCenter: parent.verticalCenter
                value: root.stage.progress || 0
                barWidth: Theme.px(80)
                fillColor: root.accent
                trackColor: Theme.trackOnDark
                textColor: Theme.inkMuted
            }
        }
    }
    MouseArea {
        id: mouse
        anchors.fill: parent
        hoverEnabled: true
        cursorShape: Qt.PointingHandCursor
        onClicked: root.openPlace(root.place)
    }
    FocusFrame {}
}
