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
    x: table.pad
    width: cell.width - 2 * table.pad
    pixelSize: Theme.bodySize
    text: table.cells[at] || ""
    details: table.details
    owner: table.owner
    card: table.card
    font.weight: header ? Font.DemiBold : Font.Normal
    horizontalAlignment: table.numeric[column] ? Text.AlignRight : Text.AlignLeft
    onImplicitWidthChanged: table.note("n", at, implicitWidth)
    Component.onCompleted: table.note("n", at, implicitWidth)
}
