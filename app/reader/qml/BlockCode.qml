import QtQuick
import TpuCourse.Ui

// A code block of the text, as wide as its longest line.
// Loaded by a ReaderBlock, its `host`.
ReaderCode {
    id: root
    // The block drawn, which loads this: its text, widths and inputs.
    readonly property ReaderBlock host: parent as ReaderBlock
    // As wide as its longest line, from the column's measure up to the figures' width.
    width: Math.min(root.host.wide, Math.max(root.host.measure, naturalWidth))
    code: root.host.block.code || ""
    styled: root.host.block.styled || []
    language: root.host.block.language || ""
    pins: root.host.pins
}
