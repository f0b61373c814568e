import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

// Ctrl+F on a chapter: find words in its text as it stands (live numbers
// for the chosen chip included). The words are marked wherever they stand,
// as a search's are; Enter brings the next block holding them all to the
// top of the view, Shift+Enter the one before, from wherever the reader
// is. Escape closes it and takes the marks away; Ctrl+F again finds the
// same words once more, marked and counted, ready to be typed over.
Rectangle {
    id: root
    objectName: "findInPage"
    // The chapter page: its built blocks (blockItems), its view (contentY,
    // contentItem, maximumY) and the words it marks (mark).
    property var page: null
    property var hits: []      // indices of the blocks holding every word, in order
    property int at: -1        // which of them the view was last brought to
    // The words found instead of those typed, when a typed word the course
    // never holds was put right (Reader.putRight); else empty.
    property string searched: ""

    visible: false
    width: Theme.px(420)
    radius: Theme.radius
    color: Theme.card
    border.color: Theme.cardBorder

    function open() {
        if (!page)
            return
        visible = true
        // The course's words read while the first letters are typed: a
        // mistyped word is put right from them (find()).
        Reader.readAheadForSearch()
        field.forceActiveFocus()
        field.selectAll()
        if (field.text !== "")
            find()
    }
    function close() {
        visible = false
        hits = []
        at = -1
        searched = ""
        if (page) {
            page.mark = ""
            page.forceActiveFocus()
        }
    }
    onPageChanged: if (!page) close()

    BlockWords { id: words; page: root.page }
    function blocksHolding(text) {
        const typed = words.termsOf(text)
        const found = []
        for (let i = 0; typed.length > 0 && i < page.blockItems.length; ++i)
            if (words.holds(i, typed))
                found.push(i)
        return found
    }
    function find() {
        let found = blocksHolding(field.text)
        let marked = field.text
        searched = ""
        // Nothing here as typed: perhaps a mistyped word, looked for as
        // the word the course holds nearest to it.
        if (found.length === 0) {
            const fixed = Reader.putRight(field.text)
            const there = fixed !== "" ? blocksHolding(fixed) : []
            if (there.length > 0) {
                found = there
                marked = fixed
                searched = fixed
            }
        }
        page.mark = marked
        hits = found
    }
    function topOf(i) { return page.blockItems[i].mapToItem(page.contentItem, 0, 0).y - Theme.gapL }
    // The next hit below the top of the view (step 1) or above it (step -1),
    // round to the first or last at the end of the page.
    function go(step) {
        find()
        if (hits.length === 0) {
            at = -1
            return
        }
        const now = page.contentY
        let next = -1
        if (step > 0) {
            next = hits.findIndex(i => topOf(i) > now + 1)
            if (next < 0) next = 0
        } else {
            for (let k = hits.length - 1; k >= 0 && next < 0; --k)
                if (topOf(hits[k]) < now - 1) next = k
            if (next < 0) next = hits.length - 1
        }
        at = next
        page.contentY = Math.max(0, Math.min(page.maximumY, topOf(hits[next])))
    }

    height: row.height + 2 * Theme.gap + (putRightLine.visible ? putRightLine.height + Theme.gap / 2 : 0)
    MonoText {
        id: putRightLine
        objectName: "findInPageSearched"
        visible: root.searched !== ""
        x: Theme.gap
        y: row.y + row.height + Theme.gap / 2
        width: root.width - 2 * Theme.gap
        wrapMode: Text.Wrap
        text: visible ? "not here as typed · found “" + root.searched + "”" : ""
        color: Theme.accent
        font.pixelSize: Theme.tinySize
    }
    Row {
        id: row
        x: Theme.gap
        y: Theme.gap
        spacing: Theme.gap
        ThemedField {
            id: field
            objectName: "findInPageField"
            // Escape is this field's: it closes the find, not the page.
            readonly property bool keepsEscape: true
            width: root.width - 2 * Theme.gap - row.spacing - count.width
            placeholderText: "find in this chapter"
            onTextEdited: { root.at = -1; root.find() }
            Keys.onReturnPressed: event => root.go(event.modifiers & Qt.ShiftModifier ? -1 : 1)
            Keys.onEnterPressed: event => root.go(event.modifiers & Qt.ShiftModifier ? -1 : 1)
            Keys.onEscapePressed: root.close()
        }
        MonoText {
            id: count
            objectName: "findInPageCount"
            anchors.verticalCenter: parent.verticalCenter
            width: Theme.px(136)
            horizontalAlignment: Text.AlignRight
            font.pixelSize: Theme.smallSize
            color: field.text !== "" && root.hits.length === 0 ? Theme.failed : Theme.inkMuted
            text: field.text === "" ? "Enter: next"
                : root.hits.length === 0 ? "not here"
                : (root.at >= 0 ? (root.at + 1) + " of " : "") + root.hits.length + (root.hits.length === 1 ? " block" : " blocks")
        }
    }
}
