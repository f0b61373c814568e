import QtQuick
import TpuCourse.Ui

// A table of the text.
// Loaded by a ReaderBlock, its `host`.
ReaderTable {
    id: root
    // The block drawn, which loads this: its text, widths and inputs.
    readonly property ReaderBlock host: parent as ReaderBlock
    width: Math.min(root.host.wide, naturalWidth)
    available: root.host.wide
    columns: root.host.block.columns || 1
    cells: root.host.html
    leftParts: root.host.block.left || []
    rightParts: root.host.block.right || []
    numeric: root.host.block.numeric || []
    details: root.host.details
    owner: root.host
    card: root.host.card
}
