import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One of the chapter's pieces in the list at its end: its id, kind, name and
// what it does; a click opens its page when it has one.
Rectangle {
    id: root
    property var piece: ({})          // an entry of Course.chapterPage(n).pieces
    property bool highlighted: false  // the piece the chapter was opened for
    readonly property string pieceId: piece.id || ""   // what ChapterPage.anchorOf looks for
    readonly property bool hasPage: piece.hasPage === true
    signal openPlace(string place)

    implicitHeight: pieceText.implicitHeight + Theme.gapM * 2
    radius: Theme.radius
    color: highlighted ? Theme.accentSoft : "transparent"
    border.color: highlighted ? Theme.pageAccent : Theme.pageRule
    MouseArea {
        anchors.fill: parent
        enabled: root.hasPage
        cursorShape: enabled ? Qt.PointingHandCursor : Qt.ArrowCursor
        onClicked: root.openPlace(root.pieceId)
    }
    ColumnLayout {
        id: pieceText
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: 2
        MonoText { text: root.piece.displayId + " · " + root.piece.kind; color: Theme.pageAccent }
        Text {
            text: root.piece.name
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
            color: Theme.pageInk
        }
        Text {
            Layout.fillWidth: true
            text: root.piece.does + (root.piece.kind === "lab" ? "  ·  its lab card is above"
                                     : root.hasPage ? "" : "  ·  not built yet")
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.pageMuted
            wrapMode: Text.WordWrap
        }
    }
}
