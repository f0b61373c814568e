import QtQuick

// Makes a chapter's pieces ahead of the view while the reader rests on the
// text. Made as the view nears it, a piece costs the scroll a frame or two
// (10-30 ms to make it and draw it the first time); made while the reader
// reads, it is there when the view arrives, and kept as any piece made is.
// One piece at a time, the nearest below the view first (one above counts
// double: readers mostly go down); a move of the view waits out the rest
// again, so a scroll never shares its frames with a piece made ahead.
Timer {
    property var blocks: []             // the page's blocks, by index
    property var pieceBlocks: []        // the indices of its pieces
    property real viewTop: 0            // the view, in the blocks' coordinates
    // The page still making blocks, or a piece: nothing is begun ahead
    // until it is done.
    property var building: () => false
    // The page on screen: a page out of sight makes nothing ahead.
    property bool shown: true

    // The rest: longer than the gap between two steps of a wheel or a drag.
    interval: 400
    onViewTopChanged: restart()
    onShownChanged: if (shown) restart()

    // A piece block still to be made: placed, not made, and built in this
    // version of the course.
    function unmade(block) {
        const piece = block ? block.item : null
        return !!piece && !piece.made && piece.source.toString() !== ""
    }
    // Every piece placed and made (one this version does not build counts
    // as made): the page a reader finds after a rest.
    function allMade() {
        return pieceBlocks.every(i => !!blocks[i] && !!blocks[i].item && !unmade(blocks[i]))
    }
    function nearestUnmade() {
        let best = null, bestDistance = Infinity
        for (let k = 0; k < pieceBlocks.length; ++k) {
            const block = blocks[pieceBlocks[k]]
            if (!unmade(block) || block.ahead)
                continue
            const distance = block.y >= viewTop ? block.y - viewTop : 2 * (viewTop - block.y)
            if (distance < bestDistance) {
                best = block
                bestDistance = distance
            }
        }
        return best
    }
    onTriggered: {
        if (!shown)
            return
        if (building()) {
            restart()
            return
        }
        const next = nearestUnmade()
        if (next) {
            next.ahead = true
            restart()   // the next one once this one is made
        }
    }
}
