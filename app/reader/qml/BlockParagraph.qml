import QtQuick
import TpuCourse.Ui

// A paragraph of the text, with the learner's bookmark and note beside it.
// Loaded by a ReaderBlock, its `host`.
MarkedBlock {
    id: root
    // The block drawn, which loads this: its text, widths and inputs.
    readonly property ReaderBlock host: parent as ReaderBlock
    chapter: root.host.chapter
    markKey: root.host.markKey
    html: root.host.html[0] || ""
    gutterOnLeft: -root.host.fullOffset >= gutter
    ReaderText {
        objectName: "readerParagraph"
        width: root.host.measure
        text: root.host.html[0] || ""
        details: root.host.details
        owner: root.host
        card: root.host.card
    }
}
