import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The page pool: every physical page a square, coloured by the sequence
// that owns it, free pages left open; a sequence's last page is filled
// only as far as its tokens reach. Pointing at a page lights every page of
// its sequence and prints that sequence's page table, the list the
// kernel's index maps read from SMEM.
ColumnLayout {
    id: root
    property var cache: ({})           // PagedCacheModel.cache
    property int pageSize: 16
    readonly property var pool: cache.pool || []
    readonly property var sequences: cache.sequences || []
    property int lit: -1               // the sequence pointed at, or -1
    spacing: Theme.gap

    // The sequence and logical page of pool slot `i`, for the hover caption;
    // looked up when pointed at, not kept for every slot.
    function where(i) {
        const owner = i >= 0 && i < pool.length ? pool[i] : -1
        return owner < 0 ? null : [owner, sequences[owner].pages.indexOf(i)]
    }
    property int hovered: -1           // the pool index under the pointer

    Caption {
        Layout.fillWidth: true
        text: root.pool.length + " pages in the pool, " + root.sequences.length + " sequences; point at a page"
    }
    Canvas {
        id: canvas
        objectName: "ex13Pool"
        Layout.fillWidth: true
        readonly property int cell: Math.max(Theme.px(5), Math.min(Theme.px(16), Math.floor(Math.sqrt(width * Theme.px(260) / Math.max(1, root.pool.length)))))
        readonly property int columns: Math.max(1, Math.floor(width / cell))
        Layout.preferredHeight: Math.ceil(root.pool.length / columns) * cell
        onPaint: {
            const ctx = getContext("2d")
            ctx.reset()
            const lastOf = {}
            for (let s = 0; s < root.sequences.length; ++s) {
                const pages = root.sequences[s].pages
                lastOf[pages[pages.length - 1]] = root.sequences[s].lastFill / root.pageSize
            }
            for (let i = 0; i < root.pool.length; ++i) {
                const owner = root.pool[i]
                const x = (i % columns) * cell, y = Math.floor(i / columns) * cell
                if (owner < 0) {
                    ctx.strokeStyle = Theme.cardBorder
                    ctx.strokeRect(x + 1.5, y + 1.5, cell - 3, cell - 3)
                    continue
                }
                const dim = root.lit >= 0 && owner !== root.lit
                ctx.globalAlpha = dim ? 0.25 : 1
                ctx.fillStyle = Theme.bandColor(owner)
                const fill = lastOf[i] !== undefined ? lastOf[i] : 1
                ctx.fillRect(x + 1, y + 1, (cell - 2) * fill, cell - 2)
                if (fill < 1) {
                    ctx.strokeStyle = Theme.bandColor(owner)
                    ctx.strokeRect(x + 1.5, y + 1.5, cell - 3, cell - 3)
                }
                ctx.globalAlpha = 1
            }
        }
        Connections {
            target: root
            function onCacheChanged() { canvas.requestPaint() }
            function onLitChanged() { canvas.requestPaint() }
        }
        onWidthChanged: requestPaint()
        HoverHandler {
            id: hover
            onPointChanged: {
                const p = point.position
                const i = Math.floor(p.y / canvas.cell) * canvas.columns + Math.floor(p.x / canvas.cell)
                root.hovered = i >= 0 && i < root.pool.length && p.x < canvas.columns * canvas.cell ? i : -1
                root.lit = root.where(root.hovered) ? root.where(root.hovered)[0] : -1
            }
            onHoveredChanged: if (!hovered) { root.hovered = -1; root.lit = -1 }
        }
    }
    MonoText {
        objectName: "ex13PageTable"
        Layout.fillWidth: true
        color: Theme.inkMuted
        font.pixelSize: Theme.tinySize
        wrapMode: Text.WordWrap
        readonly property int shown: root.lit >= 0 ? root.lit : 0
        readonly property var seq: root.sequences[shown] || ({ pages: [], length: 0, lastFill: 0 })
        text: {
            if (!seq.pages.length)
                return ""
            const at = root.where(root.hovered)
            const head = "sequence " + shown + " · " + seq.length + " tokens in " + seq.pages.length + " pages"
                         + (at ? " · this is its page " + at[1] + ", pool slot " + root.hovered : "")
            const first = seq.pages.slice(0, 24).join(", ")
            return head + "\npage table: [" + first + (seq.pages.length > 24 ? ", … " + (seq.pages.length - 24) + " more" : "") + "]"
                   + "\nlast page: " + seq.lastFill + " of " + root.pageSize + " slots hold tokens"
        }
    }
}
