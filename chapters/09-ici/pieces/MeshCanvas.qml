import QtQuick
import TpuCourse.Ui

// One plane of the slice: chips as squares, each directed link as a line
// beside its partner (the + direction above or left of the - one), coloured
// by the bytes it carried in the whole collective. Wraparound links leave
// one edge and enter the opposite one. Chunks in flight at `time` are dots
// part-way along their link.
Canvas {
    id: root
    property var view: ({})
    property real time: 0
    readonly property int rows: view.rows || 1
    readonly property int cols: view.cols || 1
    // Room at the edges for the wraparound stubs.
    readonly property real margin: Theme.gapL
    readonly property real cell: Math.max(4, Math.min((width - 2 * margin) / cols, (height - 2 * margin) / rows))
    readonly property real originX: (width - cell * cols) / 2
    readonly property real originY: (height - cell * rows) / 2

    implicitHeight: Theme.px(320)
    renderStrategy: Canvas.Cooperative
    onViewChanged: requestPaint()
    onTimeChanged: requestPaint()
    onWidthChanged: requestPaint()
    onHeightChanged: requestPaint()

    function centre(r, c) { return [originX + (c + 0.5) * cell, originY + (r + 0.5) * cell] }
    // The two directions of a link run side by side, a quarter chip apart.
    function offset(link) {
        const side = link.direction > 0 ? -1 : 1
        const o = side * cell * 0.12
        return link.r0 === link.r1 ? [0, o] : [o, 0]
    }
    // A wrap link as two stubs: out past one edge, in from the other.
    function segments(link) {
        const a = centre(link.r0, link.c0), b = centre(link.r1, link.c1)
        if (!link.wrap)
            return [[a, b]]
        const dx = Math.sign(link.c1 - link.c0) * -1, dy = Math.sign(link.r1 - link.r0) * -1
        const reach = cell * 0.5 + margin * 0.7
        return [[a, [a[0] + dx * reach, a[1] + dy * reach]], [[b[0] - dx * reach, b[1] - dy * reach], b]]
    }
    function loadColour(fraction) {
        if (fraction <= 0)
            return Theme.cardBorder
        return Qt.rgba(Theme.accent.r, Theme.accent.g, Theme.accent.b, 0.25 + 0.75 * fraction)
    }

    onPaint: {
        const ctx = getContext("2d")
        ctx.reset()
        const links = view.links || []
        const maxBytes = view.maxBytes || 0
        ctx.lineCap = "round"
        ctx.lineWidth = Math.max(1, Math.min(4, cell * 0.08))
        // Idle links first, so loaded ones draw on top.
        for (let pass = 0; pass < 2; ++pass) {
            for (const l of links) {
                if ((l.bytes > 0) !== (pass === 1)) continue
                const o = offset(l)
                ctx.strokeStyle = loadColour(maxBytes > 0 ? l.bytes / maxBytes : 0)
                for (const s of segments(l)) {
                    ctx.beginPath()
                    ctx.moveTo(s[0][0] + o[0], s[0][1] + o[1])
                    ctx.lineTo(s[1][0] + o[0], s[1][1] + o[1])
                    ctx.stroke()
                }
            }
        }
        const chip = cell * 0.42
        ctx.fillStyle = Theme.card
        ctx.strokeStyle = Theme.inkFaint
        ctx.lineWidth = 1
        for (let r = 0; r < rows; ++r)
            for (let c = 0; c < cols; ++c) {
                const p = centre(r, c)
                ctx.fillRect(p[0] - chip / 2, p[1] - chip / 2, chip, chip)
                ctx.strokeRect(p[0] - chip / 2, p[1] - chip / 2, chip, chip)
            }
        // Chunks on the wire at this instant.
        ctx.fillStyle = Theme.seriesColors[0]
        const dot = Math.max(2, Math.min(6, cell * 0.1))
        // One simulated line may stand for every line of the plane.
        const copies = view.repeatHops === "rows" ? rows : view.repeatHops === "cols" ? cols : 1
        for (const hop of view.hops || []) {
            if (hop.startS > time || hop.startS + hop.durationS <= time) continue
            const f = (time - hop.startS) / hop.durationS
            for (let k = 0; k < copies; ++k) {
                const h = copies === 1 ? hop
                        : view.repeatHops === "rows" ? Object.assign({}, hop, { r0: k, r1: k })
                                                     : Object.assign({}, hop, { c0: k, c1: k })
                const o = offset(h)
                const s = segments(h)
                // Along a wrap, the first half is the out stub, the second the in stub.
                const seg = s.length === 1 ? s[0] : s[f < 0.5 ? 0 : 1]
                const g = s.length === 1 ? f : (f < 0.5 ? f * 2 : f * 2 - 1)
                ctx.beginPath()
                ctx.arc(seg[0][0] + (seg[1][0] - seg[0][0]) * g + o[0], seg[0][1] + (seg[1][1] - seg[0][1]) * g + o[1], dot, 0, 2 * Math.PI)
                ctx.fill()
            }
        }
    }
}
