import QtQuick
import TpuCourse.Ui

// A cell of a ReaderTable drawn whole: words, or a header. Its natural
// width is reported to the table, which sizes the columns from them.
ReaderText {
    id: root
    objectName: "readerTableCell"
    required property ReaderTable table
    required property Item cell        // the table's cell this fills: its width
    required property int at           // the cell's place in the table's cells
    required property int column
    required property bool header
    // Its words and size held as they were once the table is gone: a table
    // is taken down before its cells, and a cell that then fell back to its
    // own size would lay itself out again inside items being deleted (a
    // crash in Qt 6.4's compiled bindings).
    readonly property bool tableGone: table === null || cell === null
    x: tableGone ? x : table.pad
    width: tableGone ? width : cell.width - 2 * table.pad
    pixelSize: Theme.bodySize
    text: tableGone ? text : table.cells[at] || ""
    details: tableGone ? [] : table.details
    owner: tableGone ? null : table.owner
    card: tableGone ? null : table.card
    font.weight: header ? Font.DemiBold : Font.Normal
    horizontalAlignment: tableGone ? horizontalAlignment : table.numeric[column] ? Text.AlignRight : Text.AlignLeft
    onImplicitWidthChanged: if (!tableGone) table.note("n", at, implicitWidth)
    Component.onCompleted: table.note("n", at, implicitWidth)
}
