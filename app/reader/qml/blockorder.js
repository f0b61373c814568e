.pragma library
// A chapter's blocks are laid out in order down the text, so the first one
// reaching a height is found by halving: what NearView draws and where
// PlaceKeeper notes the reader is, at every step of a scroll.

// The index of the first of the `count` blocks whose bottom is at or
// below `y`; `count` when none is. A block not made yet counts as reaching.
function firstReaching(blocks, count, y) {
    let lo = 0, hi = count
    while (lo < hi) {
        const mid = (lo + hi) >> 1
        const block = blocks[mid]
        if (block && block.y + block.height < y) lo = mid + 1
        else hi = mid
    }
    return lo
}
