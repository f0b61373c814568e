import QtQuick
import TpuCourse.Ui
import TpuCourse.Reading

// A paragraph the learner can mark. Pointing at it shows, left of the
// column, a bookmark and a note button; a bookmarked paragraph keeps its
// star there, and its note shows under it, edited in place (Ctrl+Enter or
// leaving the field keeps it, Escape puts it back). Both live in the
// progress store (Marks), so they are there after a restart.
Item {
    id: root
    property int chapter: 0
    property string markKey: ""
    property string html: ""         // the paragraph as set, for its excerpt when marked
    // Its first words, made only when a mark is kept, not on every re-fill
    // of the paragraph's numbers.
    function excerpt() { return html.replace(/<[^>]*>/g, "").replace(/&[#a-zA-Z0-9]+;/g, " ").slice(0, 120) }
    default property alias content: body.data
    readonly property var mark: { Marks.revision; return markKey !== "" ? Marks.markOf(chapter, markKey) : ({}) }
    readonly property bool bookmarked: mark.bookmarked === true
    readonly property string note: mark.note || ""
    property bool editing: false
    readonly property int gutter: Theme.px(44)
    // Left of the column when the margin leaves room there; right of it in a
    // window too narrow for a margin, where the left is the window's edge.
    property bool gutterOnLeft: true
    width: body.width
    implicitHeight: body.height + (root.editing ? editorLoader.height + Theme.gap
                                                : root.note !== "" ? noteText.height + Theme.gap : 0)
    height: implicitHeight

    function saveNote(text) {
        if (text.length > 10000) {
            tooLong.visible = true
            return
        }
        tooLong.visible = false
        editing = false
        if (text.trim() !== note)
            Marks.setNote(chapter, markKey, text, excerpt())
    }

    component GutterButton: Text {
        id: glyph
        signal clicked()
        property string name: ""
        property color idle: Theme.inkFaint
        font.pixelSize: Theme.bodySize
        color: area.containsMouse ? Theme.pageAccent : idle
        Accessible.role: Accessible.Button
        Accessible.name: name
        MouseArea {
            id: area
            anchors.fill: parent
            anchors.margins: -Theme.px(3)
            hoverEnabled: true
            cursorShape: Qt.PointingHandCursor
            onClicked: glyph.clicked()
        }
    }

    Column { id: body }

    // The pointer anywhere over the paragraph or, by the margin, its gutter.
    // On the block itself, under the text, so the text's own links still
    // take the pointer first.
    HoverHandler { id: hover; margin: root.gutter }

    Row {
        id: gutterRow
        objectName: "markGutter"
        // Against the column, inside the gap that keeps the margin's
        // contents apart from it.
        x: root.gutterOnLeft ? -gutterRow.width - Theme.gap : root.width + Theme.gap
        y: Theme.px(4)
        spacing: Theme.px(2)
        visible: root.markKey !== "" && (hover.hovered || root.bookmarked || root.editing)
        GutterButton {
            objectName: "markBookmark"
            text: root.bookmarked ? "★" : "☆"
            name: root.bookmarked ? "remove the bookmark" : "bookmark this paragraph"
            idle: root.bookmarked ? Theme.pagePredicted : Theme.inkFaint
            visible: hover.hovered || root.bookmarked
            onClicked: Marks.setBookmark(root.chapter, root.markKey, !root.bookmarked, root.excerpt())
        }
        GutterButton {
            objectName: "markNote"
            text: "✎"
            name: root.note !== "" ? "edit the note" : "add a note to this paragraph"
            visible: hover.hovered && !root.editing
            onClicked: root.editing = true
        }
    }

    // The note under the paragraph; a click edits it.
    Text {
        id: noteText
        objectName: "markNoteText"
        visible: !root.editing && root.note !== ""
        y: body.height + Theme.gap
        width: root.width
        leftPadding: Theme.gapM
        text: root.note
        wrapMode: Text.Wrap
        textFormat: Text.PlainText
        font.family: Theme.sans
        font.pixelSize: Theme.readerNoteSize
        font.italic: true
        color: Theme.pageAccent
        Rectangle { width: Theme.px(3); height: parent.height; color: Theme.pageAccent }
        MouseArea { anchors.fill: parent; cursorShape: Qt.IBeamCursor; onClicked: root.editing = true }
    }
    // The editor, made only while a note is being written.
    Loader {
        id: editorLoader
        active: root.editing
        y: body.height + Theme.gap
        width: root.width
        source: "NoteEditor.qml"
        onLoaded: {
            item.text = root.note
            item.kept.connect(text => root.saveNote(text))
            item.dropped.connect(() => { tooLong.visible = false; root.editing = false })
        }
    }
    Text {
        id: tooLong
        objectName: "markNoteTooLong"
        visible: false
        y: root.height
        text: "A note holds at most 10,000 characters: shorten it to keep it."
        color: Theme.pageFailed
        font.family: Theme.sans
        font.pixelSize: Theme.smallSize
    }
}
