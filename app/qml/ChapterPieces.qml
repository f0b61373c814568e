pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui

// A chapter's pieces, at the end of its page: a heading and a row each,
// the one the chapter was opened for marked. Its children carry the
// pieces' ids (pieceId), for ChapterPage.anchorOf.
Column {
    id: root
    property var pieces: []
    property string highlightPiece: ""
    signal openPlace(string place)
    visible: pieces.length > 0

    Text {
        topPadding: Theme.gapL
        text: "Pieces in this chapter"
        font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
        color: Theme.pageInk
    }
    Repeater {
        model: root.pieces
        delegate: ChapterPieceRow {
            required property var modelData
            width: root.width
            piece: modelData
            highlighted: modelData.id === root.highlightPiece
            onOpenPlace: place => root.openPlace(place)
        }
    }
}
