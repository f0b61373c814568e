import QtQuick
import TpuCourse.Ui

// One workshop piece: its id and chapter, its name, what you do with it,
// progress. A piece not built yet says so, and opens its chapter instead.
Rectangle {
    id: root
    property var piece: ({})
    signal openPlace(string place)
    readonly property bool built: piece.hasPage === true || piece.kind === "lab"

    implicitHeight: content.implicitHeight + Theme.gapM * 2
    radius: Theme.radius
    color: mouse.containsMouse ? Theme.cardHover : Theme.card
    border.color: Theme.cardBorder
    activeFocusOnTab: true
    Accessible.role: Accessible.Button
    Accessible.name: piece.displayId + ", " + piece.name + ", chapter " + piece.chapter + (built ? "" : ", not built yet")
    Keys.onReturnPressed: openPlace(piece.id)
    Keys.onEnterPressed: openPlace(piece.id)
    Keys.onSpacePressed: openPlace(piece.id)

    Column {
        id: content
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gap / 2
        opacity: root.built ? 1 : 0.6
        PieceTag { pieceId: root.piece.displayId; chapter: root.piece.chapter }
        Text {
            width: parent.width
            textFormat: Text.PlainText
            text: root.piece.name
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        Text {
            width: parent.width
            textFormat: Text.PlainText
            text: root.piece.does
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        MonoText {
            objectName: "notBuilt_" + (root.piece.id || "")
            visible: !root.built
            topPadding: Theme.gap / 2
            // Empty when hidden: a hidden text is still laid out.
            text: root.built ? "" : "not built yet · opens chapter " + root.piece.chapter
            color: Theme.inkFaint
            font.pixelSize: Theme.tinySize
        }
        ProgressLine {
            visible: root.built
            topPadding: Theme.gap / 2
            value: root.piece.progress || 0
            barWidth: Theme.px(100)
            fillColor: Theme.accent
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
