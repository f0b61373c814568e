import QtQuick
import "blockorder.js" as BlockOrder

// Keeps the line being read where it was when the text reflows: a larger
// or smaller type (Ctrl+= and Ctrl+-) or a wider or narrower window makes
// every block above the view taller or shorter, and the same scroll offset
// would then show another part of the chapter. The block at the view's top
// and how far into it the view starts are noted as the reader scrolls;
// while the text settles after such a change, the view is put back there.
// At the chapter's very top the view stays at the top.
Item {
    id: keeper
    // The page that scrolls: its contentY, contentHeight and height.
    required property Flickable page
    property var blocks: []         // the page's blocks, in order down the text
    property int count: 0           // how many there are (one not made yet is null)
    property real origin: 0         // where the blocks' coordinates start in the page's content
    property bool active: true      // false while the page places itself (opening at a heading)

    // What the reader was reading: a block and the share of it above the view.
    property int index: -1
    property real into: 0
    property bool atTop: true
    property bool placing: false

    function note() {
        if (settle.running)
            return
        atTop = page.contentY <= 0
        const top = page.contentY - origin
        const first = BlockOrder.firstReaching(blocks, count, top)
        index = first < count ? first : -1
        const block = index >= 0 ? blocks[index] : null
        into = block && block.height > 0 ? Math.max(0, (top - block.y) / block.height) : 0
    }
    function restore() {
        const block = active && !atTop && index >= 0 && index < count ? blocks[index] : null
        if (!block)
            return
        placing = true
        page.contentY = Math.max(0, Math.min(page.contentHeight - page.height, origin + block.y + into * block.height))
        placing = false
    }
    // The text settles over a few passes (the type, then the wrapping, then
    // the pieces' heights): the view is put back after each, until the
    // page has kept its height for a moment.
    readonly property bool settling: settle.running
    function reflowed() {
        if (!active)
            return
        // A move not yet noted (a scroll just made) is where the reader is.
        if (noteSoon.running) {
            noteSoon.stop()
            note()
        }
        settle.restart()
        restore()
    }
    Timer { id: settle; interval: 250 }
    // Noted once the view has rested a moment: a move made while blocks are
    // still being placed (a piece above grown, the view moved by as much)
    // would be read against their old places.
    Timer { id: noteSoon; interval: 60; onTriggered: keeper.note() }
    // A scroll of the reader's own while the text settles is where they are now.
    function readerMoved() {
        settle.stop()
        noteSoon.restart()
    }

    Connections {
        target: keeper.page
        function onContentYChanged() { if (!keeper.placing && !keeper.settling) noteSoon.restart() }
        function onContentHeightChanged() {
            if (!keeper.settling)
                return
            settle.restart()
            keeper.restore()
        }
    }
    onOriginChanged: if (settle.running) restore()
    onActiveChanged: if (active) noteSoon.restart()
}
