import QtQuick
import "blockorder.js" as BlockOrder

// Draws a chapter's text near the view only. A long chapter is thousands of
// items, and in every frame of a scroll the software renderer walks,
// transforms and clips each of them and the window hands the pointer's
// hover to them all; drawn or not, it costs the same. So the blocks more
// than a screen above or below the view are hidden, each keeping its place
// and height (ReaderBlock.far), and shown again as the view nears them. A
// block with anything to Tab to is never hidden, so the keyboard's order
// never skips it; with assistive technology attached, or for a layout
// report, every block is drawn (enabled false).
QtObject {
    property var blocks: []         // the page's blocks, in order down the text
    property int count: 0
    property real viewTop: 0        // the view, in the blocks' own coordinates
    property real viewHeight: 0
    property bool enabled: true
    // The blocks shown: [from, to); those of the count outside it are
    // hidden. A step of a scroll touches only the blocks that cross its ends.
    property int from: 0
    property int to: 0

    function firstReaching(y) { return BlockOrder.firstReaching(blocks, count, y) }
    function update() {
        let lo = 0, hi = count
        if (enabled) {
            lo = firstReaching(viewTop - viewHeight)
            hi = lo
            const bottom = viewTop + 2 * viewHeight
            while (hi < count && (!blocks[hi] || blocks[hi].y <= bottom))
                ++hi
        }
        for (let i = from; i < Math.min(to, count); ++i)
            if ((i < lo || i >= hi) && blocks[i])
                blocks[i].far = true
        for (let i = lo; i < hi; ++i)
            if ((i < from || i >= to) && blocks[i])
                blocks[i].far = false
        from = lo
        to = hi
    }
    // Once per event loop at most, after the blocks' places have moved (a
    // block made or grown) or a new text has filled them. (Qt.callLater is a
    // method; qmllint 6.4 reads it as a property.)
    function schedule() { Qt.callLater(update) } // qmllint disable type
    // A new text: its blocks are all shown until the first update.
    onCountChanged: { from = 0; to = count; schedule() }
    onViewTopChanged: update()
    onViewHeightChanged: update()
    // Turned on, every block may be shown; turned off, update shows them all.
    onEnabledChanged: { if (enabled) { from = 0; to = count } update() }
}
