import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One plane of an array's last two dimensions as the tiles Mosaic lays it
// on: each box one tile of 8 sublanes by 128 lanes of 32-bit words, its
// sublanes ruled (and, for a packed dtype, the rows that share each one),
// the data filled, the padding hatched. A plane of many tiles shows its
// first ones and its last, where the padding is, with a break between.
// Hover a tile, or focus the map and use the arrows, to read it.
ColumnLayout {
    id: root
    property var layout: ({})        // a layout of LayoutLensModel.lens
    property string title: ""
    property string problem: ""
    readonly property var grid: layout.grid || null
    readonly property bool drawn: grid !== null && problem === ""
    spacing: Theme.gap

    // Indices of the tiles drawn along one side: all of them, or the first
    // ones, a break (-1) and the last.
    function pick(total, most) {
        const out = []
        if (total <= most) {
            for (let i = 0; i < total; ++i) out.push(i)
            return out
        }
        for (let i = 0; i < most - 2; ++i) out.push(i)
        out.push(-1)
        out.push(total - 1)
        return out
    }
    readonly property int mostCols: Math.max(3, Math.floor(frame.width / Theme.px(34)))
    readonly property var cols: drawn ? pick(grid.tileCols, Math.min(12, mostCols)) : []
    readonly property var rows: drawn ? pick(grid.tileRows, 6) : []
    // A break takes half a tile.
    readonly property real colUnits: cols.reduce((n, c) => n + (c < 0 ? 0.5 : 1), 0)
    readonly property real rowUnits: rows.reduce((n, r) => n + (r < 0 ? 0.5 : 1), 0)
    readonly property real tileW: colUnits > 0 ? Math.min(Theme.px(280), (frame.width - stackDepth) / colUnits) : 0
    readonly property real tileH: rowUnits > 0 ? Math.min(tileW / 2, Theme.px(300) / rowUnits) : 0
    function offsets(list, size, base) {
        const out = []
        let at = base
        for (const i of list) { out.push(at); at += i < 0 ? size / 2 : size }
        return out
    }
    // Planes after the first are drawn as edges behind it, up and to the right.
    readonly property real stackStep: Theme.px(6)
    readonly property real stackDepth: drawn && grid.planes > 1 ? 2 * stackStep : 0
    readonly property var colX: offsets(cols, tileW, 0)
    readonly property var rowY: offsets(rows, tileH, stackDepth)
    readonly property real planeW: colX.length ? colX[colX.length - 1] + tileW : 0
    readonly property real planeH: rowY.length ? rowY[rowY.length - 1] + (rows[rows.length - 1] < 0 ? tileH / 2 : tileH) - stackDepth : 0

    // The tile under the pointer or the keyboard, as [row slot, column slot].
    property var cursor: null
    readonly property var current: cursor && rows[cursor[0]] >= 0 && cols[cursor[1]] >= 0
                                   ? ({row: rows[cursor[0]], col: cols[cursor[1]]}) : null
    function describe(t) {
        if (!t || !grid) return ""
        const rpt = grid.rowsPerTile, lpt = grid.lanesPerTile
        const dataRows = t.row === grid.tileRows - 1 ? grid.edgeRows : rpt
        const dataLanes = t.col === grid.tileCols - 1 ? grid.edgeCols : lpt
        const padded = rpt * lpt - dataRows * dataLanes
        return "tile (" + t.row + ", " + t.col + "): rows " + (t.row * rpt) + "–" + (t.row * rpt + rpt - 1)
               + ", lanes " + (t.col * lpt) + "–" + (t.col * lpt + lpt - 1) + "\n"
               + "data " + dataRows + " of " + rpt + " rows × " + dataLanes + " of " + lpt + " lanes"
               + (padded > 0 ? "; " + Math.round(100 * padded / (rpt * lpt)) + " % of it padding" : "; no padding")
    }

    onLayoutChanged: canvas.requestPaint()
    onProblemChanged: canvas.requestPaint()

    Caption {
        Layout.fillWidth: true
        visible: root.title !== ""
        text: root.title
        wrapMode: Text.Wrap
    }
    Text {
        objectName: root.objectName + "Problem"
        Layout.fillWidth: true
        visible: root.problem !== ""
        text: root.problem
        wrapMode: Text.Wrap
        font.family: Theme.sans; font.pixelSize: Theme.bodySize
        color: Theme.failed
    }
    Item {
        id: frame
        Layout.fillWidth: true
        visible: root.drawn
        implicitHeight: root.planeH > 0 ? root.planeH + root.stackDepth : 0

        Canvas {
            id: canvas
            objectName: root.objectName + "Canvas"
            width: root.planeW > 0 ? root.planeW + root.stackDepth : 0
            height: frame.implicitHeight
            activeFocusOnTab: root.drawn
            Accessible.role: Accessible.Table
            Accessible.name: "tiles: " + root.describe(root.current)
            onWidthChanged: requestPaint()
            onHeightChanged: requestPaint()
            onPaint: {
                const ctx = getContext("2d")
                ctx.reset()
                if (!root.drawn)
                    return
                const g = root.grid, w = root.tileW, h = root.tileH
                const data = Theme.seriesColor(0)
                for (let k = root.stackDepth > 0 ? 2 : 0; k >= 1; --k) {
                    const sx = k * root.stackStep, sy = root.stackDepth - k * root.stackStep
                    ctx.fillStyle = Theme.floor
                    ctx.fillRect(sx, sy, root.planeW, root.planeH)
                    ctx.strokeStyle = Theme.fieldBorder
                    ctx.lineWidth = 1
                    ctx.strokeRect(sx + 0.5, sy + 0.5, root.planeW - 1, root.planeH - 1)
                }
                if (root.stackDepth > 0) {
                    ctx.fillStyle = Theme.floor
                    ctx.fillRect(0, root.stackDepth, root.planeW, root.planeH)
                }
                for (let ri = 0; ri < root.rows.length; ++ri) {
                    for (let ci = 0; ci < root.cols.length; ++ci) {
                        const r = root.rows[ri], c = root.cols[ci]
                        const x = root.colX[ci], y = root.rowY[ri]
                        if (r < 0 || c < 0) {
                            ctx.fillStyle = Theme.inkMuted
                            ctx.font = Theme.smallSize + "px '" + Theme.mono + "'"
                            ctx.textAlign = "center"
                            ctx.textBaseline = "middle"
                            ctx.fillText(r < 0 && c < 0 ? "⋱" : r < 0 ? "⋮" : "⋯",
                                         x + (c < 0 ? w / 4 : w / 2), y + (r < 0 ? h / 4 : h / 2))
                            continue
                        }
                        // The tile: padding hatched on the card's ground.
                        ctx.save()
                        ctx.beginPath()
                        ctx.rect(x + 1, y + 1, w - 2, h - 2)
                        ctx.clip()
                        ctx.fillStyle = Theme.card
                        ctx.fillRect(x, y, w, h)
                        ctx.strokeStyle = Theme.gapHatch
                        ctx.lineWidth = 1
                        ctx.beginPath()
                        const step = Math.max(4, Theme.px(6))
                        for (let d = -h; d < w; d += step) {
                            ctx.moveTo(x + d, y + h)
                            ctx.lineTo(x + d + h, y)
                        }
                        ctx.stroke()
                        // The data, from the tile's top left.
                        const dataRows = r === g.tileRows - 1 ? g.edgeRows : g.rowsPerTile
                        const dataLanes = c === g.tileCols - 1 ? g.edgeCols : g.lanesPerTile
                        ctx.fillStyle = data
                        ctx.fillRect(x + 1, y + 1, Math.max(2, (w - 2) * dataLanes / g.lanesPerTile),
                                     Math.max(2, (h - 2) * dataRows / g.rowsPerTile))
                        // Sublanes ruled; the rows packed into each, fainter.
                        const rowH = (h - 2) / g.rowsPerTile
                        if (rowH * g.packing >= 3) {
                            ctx.strokeStyle = Theme.floor
                            ctx.globalAlpha = 0.8
                            ctx.lineWidth = rowH * g.packing >= 8 ? 2 : 1
                            ctx.beginPath()
                            for (let s = 1; s < 8; ++s) {
                                const sy = Math.round(y + 1 + s * g.packing * rowH) + 0.5
                                ctx.moveTo(x, sy); ctx.lineTo(x + w, sy)
                            }
                            ctx.stroke()
                            if (g.packing > 1 && rowH >= 3) {
                                ctx.globalAlpha = 0.3
                                ctx.lineWidth = 1
                                ctx.beginPath()
                                for (let k = 1; k < g.rowsPerTile; ++k) {
                                    if (k % g.packing === 0) continue
                                    const ky = Math.round(y + 1 + k * rowH) + 0.5
                                    ctx.moveTo(x, ky); ctx.lineTo(x + w, ky)
                                }
                                ctx.stroke()
                            }
                            ctx.globalAlpha = 1
                        }
                        ctx.restore()
                        ctx.strokeStyle = Theme.fieldBorder
                        ctx.lineWidth = 1
                        ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1)
                    }
                }
                if (root.cursor && root.current) {
                    ctx.strokeStyle = Theme.focus
                    ctx.lineWidth = 2
                    ctx.strokeRect(root.colX[root.cursor[1]] + 1, root.rowY[root.cursor[0]] + 1, w - 2, h - 2)
                }
            }
            Keys.onPressed: event => {
                const c = root.cursor || [0, 0]
                let r = c[0], k = c[1]
                if (event.key === Qt.Key_Left) k = Math.max(0, k - 1)
                else if (event.key === Qt.Key_Right) k = Math.min(root.cols.length - 1, k + 1)
                else if (event.key === Qt.Key_Up) r = Math.max(0, r - 1)
                else if (event.key === Qt.Key_Down) r = Math.min(root.rows.length - 1, r + 1)
                else return
                root.cursor = [r, k]
                canvas.requestPaint()
                event.accepted = true
            }
            onActiveFocusChanged: if (activeFocus && !root.cursor) { root.cursor = [0, 0]; requestPaint() }
            MouseArea {
                anchors.fill: parent
                hoverEnabled: true
                function slot(offsets, v) {
                    let found = -1
                    for (let i = 0; i < offsets.length; ++i)
                        if (v >= offsets[i]) found = i
                    return found
                }
                function pick(mouse) {
                    const r = slot(root.rowY, mouse.y), c = slot(root.colX, mouse.x)
                    root.cursor = r >= 0 && c >= 0 ? [r, c] : null
                    canvas.requestPaint()
                }
                onPositionChanged: mouse => pick(mouse)
                onExited: { if (!canvas.activeFocus) { root.cursor = null; canvas.requestPaint() } }
                onPressed: mouse => { canvas.forceActiveFocus(); pick(mouse) }
            }
            FocusFrame {}
            ExplainCard {
                objectName: root.objectName + "Card"
                shown: root.current !== null
                delay: 0
                beside: true
                text: root.describe(root.current)
                targetRect: root.cursor ? Qt.rect(0, root.rowY[root.cursor[0]], canvas.width, root.tileH)
                                        : Qt.rect(0, 0, 0, 0)
            }
        }
    }
    Text {
        objectName: root.objectName + "Caption"
        Layout.fillWidth: true
        visible: root.drawn
        text: !root.grid ? "" :
              root.grid.tileRows + " × " + root.grid.tileCols + " tiles of " + root.layout.tileText + " a plane"
              + (root.grid.planes > 1 ? ", " + root.grid.planes.toLocaleString(Qt.locale("C"), "f", 0) + " planes" : "")
              + " · rows " + root.grid.rows + " padded to " + root.grid.tileRows * root.grid.rowsPerTile
              + " · lanes " + root.grid.cols + " padded to " + root.grid.tileCols * root.grid.lanesPerTile
        wrapMode: Text.Wrap
        font.family: Theme.mono; font.pixelSize: Theme.tinySize
        color: Theme.inkMuted
    }
    RowLayout {
        Layout.fillWidth: true
        visible: root.drawn
        spacing: Theme.gap
        Rectangle { implicitWidth: Theme.gapM; implicitHeight: Theme.gapM; color: Theme.seriesColor(0) }
        Caption { text: "data" }
        Rectangle {
            implicitWidth: Theme.gapM; implicitHeight: Theme.gapM
            color: Theme.card; border.color: Theme.gapHatch; border.width: 2
        }
        Caption { text: "padding" }
        Item { Layout.fillWidth: true }
    }
    Caption {
        Layout.fillWidth: true
        visible: root.drawn
        text: root.grid && root.grid.packing > 1
              ? "ruled: 8 sublanes, " + root.grid.packing + " " + root.layout.dtype + " rows in each 32-bit word"
              : "ruled: 8 sublanes of 32-bit words"
        wrapMode: Text.Wrap
    }
}
