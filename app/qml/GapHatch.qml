import QtQuick

// Diagonal hatching: the empty band between XLA and Pallas.
Canvas {
    id: root
    property color lineColor: "transparent"
    property int spacing: 18
    onWidthChanged: requestPaint()
    onHeightChanged: requestPaint()
    onPaint: {
        const ctx = getContext("2d")
        ctx.clearRect(0, 0, width, height)
        ctx.strokeStyle = lineColor
        ctx.lineWidth = 1
        ctx.beginPath()
        for (let x = -height; x < width; x += spacing) {
            ctx.moveTo(x, height)
            ctx.lineTo(x + height, 0)
        }
        ctx.stroke()
    }
}
