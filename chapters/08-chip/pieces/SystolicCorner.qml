pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The array's top-left 8x8 cells with the values in them at this cycle:
// the weight the cell holds (w), the row of x passing through it (x with
// its row number) and the partial sum it passes down (Σ). Rows of x enter
// at the left edge one cycle apart per array row, so a row of x lies along
// an anti-diagonal; the sums grow as they move down.
ColumnLayout {
    id: root
    property var frame: ({})
    readonly property int size: frame.cornerSize || 0
    readonly property var cells: frame.corner || []
    readonly property real cellSize: Math.floor(Math.min(Theme.px(76), (width - label.width - Theme.gap) / Math.max(1, size)))
    property int hovered: -1
    spacing: Theme.gap / 2

    // What a cell holds, in words, for the card beside the grid.
    function describe(i) {
        const c = cells[i]
        if (!c) return ""
        const r = Math.floor(i / size), col = i % size
        const what = ["idle", "loading its weight", "multiplying", "multiplying zero padding"][c.state] || ""
        let lines = ["cell (" + r + ", " + col + ") at cycle " + (frame.cycle || 0) + ": " + what]
        lines.push(c.hasWeight ? "holds the weight w = " + number(c.w) : "no weight loaded yet")
        if (c.hasRow) {
            lines.push("row " + c.row + " of x passes through it: x = " + number(c.a) + ", moving one cell right per cycle")
            lines.push("passes down Σ = " + number(c.s) + ": that row's products in rows 0 to " + r + " of this column")
        }
        return lines.join("\n")
    }

    function sub(n) {
        const digits = "₀₁₂₃₄₅₆₇₈₉"
        return String(n).split("").map(d => digits[Number(d)] || d).join("")
    }
    function number(v) { return (v < 0 ? "−" : "") + Math.abs(v) }
    // The theme's colours, typed, so their channels can be read.
    readonly property color busy: Theme.seriesColors[0]
    function ground(state) {
        if (state === 2) return Qt.rgba(busy.r, busy.g, busy.b, 0.3)
        if (state === 3) return Theme.inkHover
        if (state === 1) return Qt.rgba(Theme.verified.r, Theme.verified.g, Theme.verified.b, 0.18)
        return Theme.card
    }

    RowLayout {
        spacing: Theme.gap
        Item { id: label; implicitWidth: Theme.px(20); implicitHeight: 1 }
        Caption { text: "columns 0–" + (root.size - 1) + " of the array →  (sums flow down)"; font.pixelSize: Theme.tinySize }
    }
    RowLayout {
        spacing: Theme.gap
        Caption {
            Layout.preferredWidth: label.width
            Layout.alignment: Qt.AlignTop
            text: "x\n→"
            horizontalAlignment: Text.AlignHCenter
            font.pixelSize: Theme.tinySize
        }
        Grid {
            id: grid
            objectName: "ex06Corner"
            columns: Math.max(1, root.size)
            spacing: Theme.hairline
            ExplainCard {
                objectName: "ex06CellCard"
                target: grid
                shown: root.hovered >= 0
                delay: 0
                beside: true
                text: root.describe(root.hovered)
                targetRect: root.hovered >= 0 ? Qt.rect(0, Math.floor(root.hovered / root.size) * (Math.round(root.cellSize * 0.78) + Theme.hairline), grid.width, root.cellSize)
                                              : Qt.rect(0, 0, 0, 0)
            }
            // A fixed count, so the cells stay put and only their values change as the cycle moves.
            Repeater {
                model: root.size * root.size
                delegate: Rectangle {
                    id: cell
                    required property int index
                    readonly property var modelData: root.cells[index] || ({})
                    objectName: "ex06Cell_" + Math.floor(index / root.size) + "_" + (index % root.size)
                    width: root.cellSize
                    height: Math.round(root.cellSize * 0.78)
                    color: root.ground(modelData.state)
                    border.color: root.hovered === index ? Theme.accent : Theme.cardBorder
                    border.width: 1
                    HoverHandler {
                        onHoveredChanged: {
                            if (hovered) root.hovered = cell.index
                            else if (root.hovered === cell.index) root.hovered = -1
                        }
                    }
                    Column {
                        anchors.fill: parent
                        anchors.margins: Theme.gap / 2
                        spacing: 0
                        MonoText {
                            font.pixelSize: Theme.tinySize
                            color: Theme.inkFaint
                            text: cell.modelData.hasWeight ? "w " + root.number(cell.modelData.w) : "w ·"
                        }
                        MonoText {
                            objectName: "ex06CellX"
                            font.pixelSize: Theme.tinySize
                            color: cell.modelData.hasRow ? Theme.inkText : Theme.inkFaint
                            text: cell.modelData.hasRow ? "x" + root.sub(cell.modelData.row) + " " + root.number(cell.modelData.a) : ""
                        }
                        MonoText {
                            objectName: "ex06CellSum"
                            font.pixelSize: Theme.tinySize
                            font.weight: Font.DemiBold
                            color: Theme.inkText
                            text: cell.modelData.hasRow ? "Σ " + root.number(cell.modelData.s) : ""
                        }
                    }
                }
            }
        }
    }
}
