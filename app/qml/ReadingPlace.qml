import QtQml
import TpuCourse.Reading

// Where a chapter was left, for the chapter page: the heading it opens at
// when no place is named, and the heading it keeps once the reader has
// moved the page themselves (not while the page opens or reveals a place).
QtObject {
    property bool readerScrolled: false

    // The heading chapter `number` was left at, if `headings()` (called only
    // then) still holds it; "" otherwise.
    function resumeAt(number, headings) {
        const left = Reading.placeIn(number)
        return left && headings().some(h => h.anchor === left) ? left : ""
    }
    // The reader is at heading `anchor` of chapter `number`.
    function reached(number, anchor, headings) {
        if (!readerScrolled || !number)
            return
        const heading = headings.find(h => h.anchor === anchor)
        Reading.keep(number, anchor, heading ? heading.title : "")
    }
}
