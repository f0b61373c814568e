import QtQuick
import TpuCourse.Ui

// A figure of the text, with its caption.
// Loaded by a ReaderBlock, its `host`.
ReaderFigure {
    id: root
    // The block drawn, which loads this: its text, widths and inputs.
    readonly property ReaderBlock host: parent as ReaderBlock
    available: root.host.wide
    source: root.host.block.source || ""
    path: root.host.block.path || ""
    caption: root.host.block.caption || ""
}
