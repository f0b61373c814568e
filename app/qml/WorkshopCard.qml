import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One workshop piece: its id and chapter, its name, what you do with it, progress.
Rectangle {
    id: root
    property var piece: ({})
    signal openPlace(string place)

    implicitHeight: content.implicitHeight + Theme.gapM * 2
    radius: Theme.radius
    color: mouse.containsMouse ? Theme.cardHover : Theme.card
    border.color: Theme.cardBorder
    activeFocusOnTab: true
    Accessible.role: Accessible.Button
    Accessible.name: piece.displayId + ", " + piece.name + ", chapter " + piece.chapter
    Keys.onReturnPressed: openPlace(piece.id)
    Keys.onEnterPressed: openPlace(piece.id)
    Keys.onSpacePressed: openPlace(piece.id)

    ColumnLayout {
        id: content
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gap / 2
        PieceTag { pieceId: root.piece.displayId; chapter: root.piece.chapter }
        Text {
            Layout.fillWidth: true
            text: root.piece.name
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        Text {
            Layout.fillWidth: true
            text: root.piece.does
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        ProgressLine {
            Layout.topMargin: Theme.gap / 2
            value: root.piece.progress || 0
            barWidth: Theme.px(100)
            fillColor: Theme.amber
            trackColor: Theme.trackOnDark
            textColor: Theme.inkFaint
        }
    }
    MouseArea {
        id: mouse
        anchors.fill: parent
        hoverEnabled: true
        cursorShape: Qt.PointingHandCursor
        onClicked: root.openPlace(root.piece.id)
    }
    FocusFrame {}
}
