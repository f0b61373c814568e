import QtQuick
import TpuCourse.Ui

// Useful cells per cycle over the whole run, as a fraction of the array:
// a bar per bucket, the phase boundaries as ticks, the cursor as a line.
// Click or drag to move the cursor.
Canvas {
    id: root
    property var activity: []
    property real cycles: 0
    property real cycle: 0
    property var marks: []      // [{at, label}]
    signal picked(real cycle)

    implicitHeight: Theme.px(72)
    renderStrategy: Canvas.Cooperative
    onActivityChanged: requestPaint()
    onCycleChanged: requestPaint()
    onMarksChanged: requestPaint()
    onWidthChanged: requestPaint()
    onHeightChanged: requestPaint()
    Accessible.role: Accessible.Graphic
    Accessible.name: "useful cells per cycle over the run; click to move the cycle"

    function xOf(c) { return cycles > 0 ? c / cycles * width : 0 }

    onPaint: {
        const ctx = getContext("2d")
        ctx.reset()
        ctx.fillStyle = Theme.chartPlot
        ctx.fillRect(0, 0, width, height)
        const n = activity.length
        if (n === 0 || cycles <= 0)
            return
        const bar = width / n
        ctx.fillStyle = Theme.seriesColors[0]
        for (let i = 0; i < n; ++i) {
            const h = Math.max(0, Math.min(1, activity[i])) * (height - Theme.focusWidth)
            if (h > 0)
                ctx.fillRect(i * bar, height - h, Math.max(Theme.hairline, bar), h)
        }
        ctx.strokeStyle = Theme.chartGrid
        ctx.lineWidth = Theme.hairline
        for (const m of marks) {
            const x = Math.round(xOf(m.at)) + 0.5
            ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, height); ctx.stroke()
        }
        ctx.strokeStyle = Theme.accent
        ctx.lineWidth = Theme.focusWidth
        const cx = xOf(cycle + 0.5)
        ctx.beginPath(); ctx.moveTo(cx, 0); ctx.lineTo(cx, height); ctx.stroke()
    }

    MouseArea {
        anchors.fill: parent
        function pick(mx) { root.picked(Math.max(0, Math.min(root.cycles - 1, Math.floor(mx / Math.max(1, root.width) * root.cycles)))) }
        onPressed: mouse => pick(mouse.x)
        onPositionChanged: mouse => { if (pressed) pick(mouse.x) }
    }
}
