import QtQuick
import TpuCourse.Ui

// Where the chapter's margin may stand: a piece runs the full width, under
// the margin's column, so the margin takes the larger stretch of the view
// that no piece covers, and steps aside when that stretch is too short.
QtObject {
    required property Flickable page      // the page that scrolls: its contentY and height
    property real below: 0                // the margin never rises above this (the chapter's band)
    property var blocks: []               // the page's blocks, in order down the text
    property var pieceBlocks: []          // the indexes of those that are pieces
    property int made: 0                  // how many blocks are made
    property real origin: 0               // where the blocks' coordinates start in the page's content

    property real top: 0
    property real height: 0
    readonly property bool pieceUnder: height < Theme.px(160)

    function update() {
        let from = Math.max(below, page.contentY + Theme.gapL)
        let to = page.contentY + page.height - Theme.gapL
        for (let k = 0; k < pieceBlocks.length && pieceBlocks[k] < made; ++k) {
            const block = blocks[pieceBlocks[k]]
            if (!block)
                continue
            const pieceTop = block.y + origin
            const pieceBottom = pieceTop + block.height
            if (pieceBottom <= from || pieceTop >= to)
                continue
            if (pieceTop - from >= to - pieceBottom)
                to = pieceTop - Theme.gapL
            else
                from = pieceBottom + Theme.gapL
        }
        top = from
        height = Math.max(0, to - from)
    }
}
