import QtQuick
import "searchwords.js" as SearchWords

// The words of a chapter's built blocks, to find those holding a search's
// words: Ctrl+F's hits, and the block a palette hit opens the page at. The
// words looked for are the ones marked (searchwords.js), so a block found
// shows them.
QtObject {
    // The chapter page: its built blocks (blockItems) and where its
    // headings are (headingBlocks).
    property var page: null

    // A block's words as shown, tags and the few entities the filler writes taken out.
    function textOf(block) {
        if (!block)
            return ""
        return [block.title || "", (block.html || []).join(" "), block.code || "", (block.details || []).join(" ")].join(" ")
            .replace(/<[^>]*>/g, " ").replace(/&nbsp;/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
            .replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&amp;/g, "&").toLowerCase()
    }
    // The words of `text` to look for: the ones its marks show.
    function termsOf(text) { return SearchWords.terms(text) }
    // Whether built block `i` (a piece never does) holds every word.
    function holds(i, words) {
        const item = page ? page.blockItems[i] : null
        if (!item || item.kind === "piece" || words.length === 0)
            return false
        const text = textOf(item.block)
        return words.every(w => text.indexOf(w) >= 0)
    }
    // The first block from `from` to the next heading holding every word
    // (`markable`: code aside), or -1 when none built yet does.
    function firstInSection(from, words, markable) {
        const next = page.headingBlocks.find(h => h > from)
        const end = next === undefined ? page.blockItems.length : next
        for (let i = Math.max(0, from); i < end; ++i)
            if (holds(i, words) && !(markable && page.blockItems[i].kind === "code"))
                return i
        return -1
    }
    // The block to open the page at for a search's words (`mark`): the
    // first from `heading` to the next heading that holds them all, one
    // that can show them marked (prose, a table) before code, which
    // cannot; else the heading itself. Only the words marked are looked
    // for: three letters or more, the commonest left out (searchwords.js).
    function markedFrom(heading, mark) {
        if (!heading || mark === "")
            return heading
        const from = page.blockItems.indexOf(heading)
        const words = termsOf(mark)
        const shown = firstInSection(from, words, true)
        const hit = shown >= 0 ? shown : firstInSection(from, words, false)
        return hit >= 0 ? page.blockItems[hit] : heading
    }
}
