import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

// The fonts and colours the course's text is set in (a chapter's, an
// exhibit's), taken from the theme shown. When the theme changes, the open
// chapter is set again in the new colours (Reader's textStyleRevision
// grows), and each of its blocks fills itself again in place, its pieces
// and the scroll kept.
QtObject {
    // The chapter open, or 0 when none (an exhibit sets itself through its
    // own binding on `textStyle`).
    property int chapter: 0
    readonly property var textStyle: ({
        "font": Theme.sans, "mono": Theme.mono, "predicted": Theme.pagePredicted, "fact": Theme.pageInk,
        "assumed": Theme.pageAssumed, "problem": Theme.pageFailed, "input": Theme.pageAccent,
        "codeInk": Theme.pageInk, "code": Theme.pageCodeColors })
    onTextStyleChanged: {
        if (chapter <= 0)
            return
        Reader.chapterDocument(chapter, textStyle)
    }
}
