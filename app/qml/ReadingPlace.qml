import QtQml
import TpuCourse.Reading

// Where a chapter was left, for the chapter page: the heading it opens at
// when no place is named, and the heading it keeps. A heading the reader
// moved the page to themselves is kept at once; one the page opened or
// revealed (a search hit, an entry of the contents) once the reader has
// stayed on it for `dwell` ms, so that a chapter glanced at in passing does
// not take the place of the one being read.
QtObject {
    id: root
    property bool readerScrolled: false
    property int dwell: 3000
    // The page is on show: a place hidden before its dwell is not kept.
    property bool shown: true
    onShownChanged: if (!shown) stay.stop()

    // The heading chapter `number` was left at, if `headings()` (called only
    // then) still holds it and it is not the first, which the chapter's top
    // shows; "" otherwise.
    function resumeAt(number, headings) {
        const left = Reading.placeIn(number)
        if (!left)
            return ""
        const all = headings()
        return all.length > 0 && all[0].anchor !== left && all.some(h => h.anchor === left) ? left : ""
    }
    // The reader is at heading `anchor` of chapter `number`.
    function reached(number, anchor, headings) {
        stay.stop()
        if (!number || !anchor)
            return
        const heading = headings.find(h => h.anchor === anchor)
        stay.number = number
        stay.anchor = anchor
        stay.title = heading ? heading.title : ""
        if (readerScrolled)
            stay.keep()
        else if (shown)
            stay.restart()
    }

    readonly property Timer stay: Timer {
        property int number: 0
        property string anchor: ""
        property string title: ""
        interval: root.dwell
        onTriggered: keep()
        function keep() { Reading.keep(number, anchor, title) }
    }
}
