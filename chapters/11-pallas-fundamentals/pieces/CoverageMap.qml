import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim

// The output's blocks as a grid of cells, each coloured by how many grid
// steps write it: never written (a gap) and written by steps that differ on
// a parallel axis (a race) in the failure colour, revisited after another
// block (a lost partial sum) outlined in it. Hover a cell, or focus the map
// and move with the arrows, to read which steps write it.
ColumnLayout {
    id: root
    property var coverage: ({})      // BlockSpecModel.coverage
    property BlockSpecModel model: null   // its cells, read one at a time
    property int cursor: -1          // the cell under the pointer or the keyboard
    readonly property int rows: coverage.shownRows || 0
    readonly property int cols: coverage.shownCols || 0
    // The cell under the cursor, read again with each report (coverage is new then).
    readonly property var current: {
        const c = coverage && model && cursor >= 0 && cursor < rows * cols ? model.coverageCell(cursor) : null
        return c && c.row !== undefined ? c : null
    }
    spacing: Theme.gap

    function describe(c) {
        if (!c) return ""
        const where = "block (" + c.row + ", " + c.col + ")"
        if (c.missing) return where + ": never written, a gap in the output"
        const steps = c.writes === 1 ? "step " + c.firstStep + " " + c.first
                                     : "steps " + c.firstStep + " " + c.first + " … " + c.lastStep + " " + c.last
        return where + ": " + c.writes + (c.writes === 1 ? " write, " : " writes, ") + steps
               + (c.race ? "; a race: the steps differ on a parallel axis" : "")
               + (c.scattered ? "; revisited after other blocks: its partial sum was lost" : "")
    }

    Item {
        id: frame
        Layout.fillWidth: true
        // One height whatever the grid: the panels below stay put while a
        // block is scrubbed and the map gains or loses a row.
        readonly property real box: Theme.px(240)
        implicitHeight: box
        readonly property real cell: root.cols > 0 ? Math.min(width / root.cols, box / root.rows, Theme.px(48)) : 0

        CoverageView {
            id: map
            objectName: "ex09CoverageCanvas"
            width: frame.cell * root.cols
            height: frame.cell * root.rows
            Accessible.role: Accessible.Table
            Accessible.name: "output blocks: " + root.describe(root.current)
            source: root.model
            cell: frame.cell
            current: root.cursor
            missingColor: Theme.problemGround
            raceColor: Theme.failed
            writeColor: Theme.seriesColor(0)
            outlineColor: Theme.failed
            textColor: Theme.ink
            raceTextColor: Theme.inkText
            focusColor: Theme.focus
            textMinCell: Theme.px(22)
            fontFamily: Theme.mono
            fontPixelSize: Theme.tinySize
            Keys.onPressed: event => {
                const r = root.current ? root.current.row : 0, c = root.current ? root.current.col : 0
                let nr = r, nc = c
                if (event.key === Qt.Key_Left) nc = Math.max(0, c - 1)
                else if (event.key === Qt.Key_Right) nc = Math.min(root.cols - 1, c + 1)
                else if (event.key === Qt.Key_Up) nr = Math.max(0, r - 1)
                else if (event.key === Qt.Key_Down) nr = Math.min(root.rows - 1, r + 1)
                else return
                root.cursor = nr * root.cols + nc
                event.accepted = true
            }
            onActiveFocusChanged: if (activeFocus && root.cursor < 0) root.cursor = 0
            MouseArea {
                anchors.fill: parent
                hoverEnabled: true
                function pick(mouse) {
                    const col = Math.floor(mouse.x / frame.cell), row = Math.floor(mouse.y / frame.cell)
                    root.cursor = row >= 0 && row < root.rows && col >= 0 && col < root.cols ? row * root.cols + col : -1
                }
                onPositionChanged: mouse => pick(mouse)
                onExited: if (!map.activeFocus) root.cursor = -1
                // A click keeps the cell and hands the arrows to the map.
                onPressed: mouse => { map.forceActiveFocus(); pick(mouse) }
            }
            FocusFrame {}
            // The same account, in the card that explains things, beside the block itself.
            ExplainCard {
                objectName: "ex09CellCard"
                shown: root.current !== null
                delay: 0
                beside: true
                text: root.describe(root.current)
                // Level with the block's row, to the right of the whole map.
                targetRect: root.current ? Qt.rect(0, root.current.row * frame.cell, map.width, frame.cell)
                                         : Qt.rect(0, 0, 0, 0)
            }
        }
    }
    Text {
        objectName: "ex09CellInfo"
        Layout.fillWidth: true
        text: root.current ? root.describe(root.current)
                           : (root.coverage.capped ? "showing the first " + root.rows + " × " + root.cols + " of "
                                                     + root.coverage.rows + " × " + root.coverage.cols + " blocks; "
                                                   : "") + "hover a block, or focus the map and use the arrows"
        wrapMode: Text.Wrap
        font.family: Theme.sans
        font.pixelSize: Theme.smallSize
        color: root.current && (root.current.missing || root.current.race || root.current.scattered) ? Theme.failed : Theme.inkMuted
    }
    CoverageLegend { Layout.fillWidth: true }
}
