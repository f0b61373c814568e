import QtQuick
import TpuCourse.Ui

// An instrument, drill or exhibit set into the text, made when near the view.
// Loaded by a ReaderBlock, its `host`.
ReaderPiece {
    id: root
    // The block drawn, which loads this: its text, widths and inputs.
    readonly property ReaderBlock host: parent as ReaderBlock
    x: root.host.fullOffset
    width: root.host.full
    pieceId: root.host.block.pieceId || ""
    args: root.host.block.args || ({})
    // An exhibit is built as soon as the text above it is placed, wherever
    // the view is: shown whole, it is far taller than a piece's placeholder,
    // and growing later would move every heading below it.
    near: root.host.wanted || root.host.ahead || root.host.settled && (isExhibit
                                          || root.host.y < root.host.viewBottom + Theme.inlinePieceHeight
                                             && root.host.y + Theme.inlinePieceHeight > root.host.viewTop - Theme.inlinePieceHeight)
    onOpenPlace: place => root.host.openPlace(place)
}
