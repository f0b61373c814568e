import QtQuick

// Names a block of a chapter's text by the heading above it and its place
// after that heading ("the-pipeline/3"; "top/1" before the first heading),
// so a learner's mark stays with its paragraph, and finds the block again.
QtObject {
    property var headingBlocks: []   // indices of the heading blocks, in order
    property var headingAnchors: []  // their anchors

    function keyOf(index) {
        let at = -1, anchor = "top"
        for (let k = 0; k < headingBlocks.length && headingBlocks[k] <= index; ++k) {
            at = headingBlocks[k]
            anchor = headingAnchors[k]
        }
        return anchor + "/" + (index - at)
    }
    // The block's index, or -1 when the key names no block of this text.
    function indexOf(key) {
        const cut = key.lastIndexOf("/")
        const anchor = key.slice(0, cut), n = parseInt(key.slice(cut + 1))
        if (cut < 0 || !(n > 0))
            return -1
        if (anchor === "top")
            return n - 1
        const k = headingAnchors.indexOf(anchor)
        return k < 0 ? -1 : headingBlocks[k] + n
    }
}
