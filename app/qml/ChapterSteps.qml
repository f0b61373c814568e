import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend

// The way on from a chapter: the one before it and the one after, by
// number. Compact in the chapter's header (numbers only, side by side);
// where the page ends, one line each with the chapter's title.
GridLayout {
    id: root
    property int number: 0
    property bool compact: false
    property color textColor: Theme.pageInk
    property color hoverColor: Theme.pageTrack
    signal openPlace(string place)
    columns: compact ? 2 : 1
    columnSpacing: Theme.gapM
    rowSpacing: Theme.gap

    readonly property var previous: Array.from(Course.chapters).find(c => c.number === root.number - 1) || null
    readonly property var next: Array.from(Course.chapters).find(c => c.number === root.number + 1) || null
    function place(n) { return "ch" + String(n).padStart(2, "0") }
    function label(c) { return "ch " + String(c.number).padStart(2, "0") + (root.compact ? "" : " · " + c.title) }

    PlainButton {
        objectName: root.compact ? "previousChapterShort" : "previousChapter"
        visible: root.previous !== null
        text: root.previous ? "← " + root.label(root.previous) : ""
        mono: true
        fillColor: "transparent"; hoverColor: root.hoverColor; textColor: root.textColor
        onClicked: root.openPlace(root.place(root.previous.number))
    }
    PlainButton {
        objectName: root.compact ? "nextChapterShort" : "nextChapter"
        visible: root.next !== null
        text: root.next ? (root.compact ? "" : "next: ") + root.label(root.next) + " →" : ""
        mono: true
        fillColor: "transparent"; hoverColor: root.hoverColor; textColor: root.textColor
        onClicked: root.openPlace(root.place(root.next.number))
    }
}
