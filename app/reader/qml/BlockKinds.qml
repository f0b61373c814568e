pragma Singleton
import QtQuick

// The component of each kind of block, made once for all of a chapter's
// blocks. Each kind lives in a file of its own because a component written
// inside ReaderBlock could not be loaded once that file's components are
// bound to it (Qt 6.4's Loader refuses them); made from its file for every
// block instead, a chapter took a tenth longer to open.
QtObject {
    readonly property var byKind: ({
        "heading": Qt.createComponent("BlockHeading.qml"),
        "paragraph": Qt.createComponent("BlockParagraph.qml"),
        "list": Qt.createComponent("BlockList.qml"),
        "quote": Qt.createComponent("BlockQuote.qml"),
        "code": Qt.createComponent("BlockCode.qml"),
        "table": Qt.createComponent("BlockTable.qml"),
        "piece": Qt.createComponent("BlockPiece.qml"),
        "rule": Qt.createComponent("BlockRule.qml"),
        "figure": Qt.createComponent("BlockFigure.qml")
    })
}
