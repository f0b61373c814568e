import QtQuick
import TpuCourse.Ui

// A number's cell of a ReaderTable: its two halves meet at the column's
// decimal point, right-aligned in the cell. Each half's natural width is
// reported to the table, which lines the column up from them.
Item {
    id: root
    required property ReaderTable table
    required property Item cell        // the table's cell this fills: its width
    required property int at           // the cell's place in the table's cells
    required property int column
    required property bool header
    // Held as they were once the table is gone (TableCellWhole says why).
    readonly property bool tableGone: table === null || cell === null
    width: tableGone ? width : cell.width
    height: Math.max(left.height, right.height)
    ReaderText {
        id: left
        x: root.tableGone ? x : root.cell.width - root.table.pad - (root.table.rightWidths[root.column] || 0) - width
        width: root.tableGone ? width : root.table.leftWidths[root.column] || implicitWidth
        pixelSize: Theme.bodySize
        wrapMode: Text.NoWrap
        horizontalAlignment: Text.AlignRight
        text: root.tableGone ? text : root.table.leftParts[root.at] || ""
        details: root.tableGone ? [] : root.table.details
        owner: root.tableGone ? null : root.table.owner
        card: root.tableGone ? null : root.table.card
        onImplicitWidthChanged: if (!root.tableGone) root.table.note("l", root.at, implicitWidth)
        Component.onCompleted: root.table.note("l", root.at, implicitWidth)
    }
    ReaderText {
        id: right
        x: left.x + left.width
        width: root.tableGone ? width : root.table.rightWidths[root.column] || implicitWidth
        pixelSize: Theme.bodySize
        wrapMode: Text.NoWrap
        text: root.tableGone ? text : root.table.rightParts[root.at] || ""
        details: root.tableGone ? [] : root.table.details
        owner: root.tableGone ? null : root.table.owner
        card: root.tableGone ? null : root.table.card
        onImplicitWidthChanged: if (!root.tableGone) root.table.note("r", root.at, implicitWidth)
        Component.onCompleted: root.table.note("r", root.at, implicitWidth)
    }
}
