pragma ComponentBehavior: Bound
import QtQuick
import QtCharts
import TpuCourse.Ui
import TpuCourse.Sim
import "labelplacer.js" as LabelPlacer

// The log-log roofline of one chip and dtype, XProf-style: attainable FLOP/s
// against FLOPs per HBM byte. The MXU roof and the HBM slope meet at the
// ridge; the VPU's lower roof is dashed. Ops sit on it as draggable dots.
Item {
    id: root
    property string chip: Sim.defaultChip
    property string dtype: "bf16"
    property var ops: []          // [{id, title, swatch, card}]: card.result is the op's roofline
    property string selectedId: ""
    signal picked(string opId)
    signal dragStarted(string opId)
    signal dragMoved(string opId, real ratio)

    readonly property real xMin: 0.01
    readonly property real xMax: 100000
    readonly property var mxuCurve: Sim.rooflineCurve(chip, dtype, "mxu", xMin, xMax)
    // The VPU works in 32-bit lanes whatever the array's dtype.
    readonly property var vpuCurve: Sim.rooflineCurve(chip, "f32", "vpu", xMin, xMax)

    // Chart values are TFLOP/s so the log axis labels read as plain decades.
    readonly property real tera: 1e12
    function fill(series, curve) {
        series.clear()
        for (const p of (curve.points || []))
            series.append(p.x, p.y / tera)
    }
    function refresh() {
        fill(mxuRoof, mxuCurve)
        attainableRoof.clear()
        for (const p of (mxuCurve.attainablePoints || []))
            attainableRoof.append(p.x, p.y / tera)
        fill(vpuRoof, vpuCurve)
        ridgeLine.clear(); ridgeMark.clear()
        if (mxuCurve.ridge) {
            ridgeLine.append(mxuCurve.ridge, yAxis.min)
            ridgeLine.append(mxuCurve.ridge, mxuCurve.peakFlops / tera)
            ridgeMark.append(mxuCurve.ridge, mxuCurve.peakFlops / tera)
        }
    }
    // Where a value sits on screen; reads plotArea so it follows resizes.
    function place(x, yFlops) {
        chart.plotArea
        const p = chart.mapToPosition(Qt.point(x, yFlops / tera), mxuRoof)
        return Qt.point(p.x + chart.x, p.y + chart.y)
    }
    readonly property real plotLeft: chart.x + chart.plotArea.x
    // The intensity under a pointer x (in this item's coordinates).
    function intensityAt(px) {
        return chart.mapToValue(Qt.point(px - chart.x, chart.plotArea.y), mxuRoof).x
    }
    // The roofs as screen y at a screen x, for keeping labels off them. Both
    // axes are logarithmic, so a screen position is linear in log10 of its
    // value: worked out here rather than asking the chart for every sample.
    // The chart's geometry is read once, here, not at every sample: each
    // read of plotArea makes a script object.
    function roofLine(curve) {
        const area = chart.plotArea
        const left = chart.x + area.x, top = chart.y + area.y, width = area.width, height = area.height
        const lx0 = Math.log10(xAxis.min), lx1 = Math.log10(xAxis.max)
        const ly0 = Math.log10(yAxis.min), ly1 = Math.log10(yAxis.max)
        const peak = curve.peakFlops || 0, bandwidth = curve.bandwidth || 0
        return px => {
            const intensity = Math.pow(10, lx0 + (px - left) / width * (lx1 - lx0))
            const attained = Math.min(peak, intensity * bandwidth) / tera
            if (!(attained > 0))
                return -1
            return top + height * (1 - (Math.log10(attained) - ly0) / (ly1 - ly0))
        }
    }
    // Where each op's label goes. Placing them is a search over every dot
    // and roof, so it runs once for a moment's changes (a chart being made
    // moves every dot many times over), not once for each change.
    property var labelOffsets: []
    // Everything the placement reads; a change of any of it re-places the labels.
    readonly property var labelInputs: {
        const seen = [chart.plotArea, root.mxuCurve, root.vpuCurve, dotRepeater.count]
        for (let i = 0; i < dotRepeater.count; ++i) {
            const dot = dotRepeater.itemAt(i)
            if (dot) seen.push(dot.visible, dot.x, dot.y, dot.labelWidth, dot.labelHeight)
        }
        for (const l of [mxuLabel, vpuLabel, hbmLabel, ridgeLabel])
            seen.push(l.visible, l.x, l.y, l.width, l.height)
        return seen
    }
    // Placed once per event-loop turn, however many inputs moved. A Timer
    // rather than Qt.callLater: it dies with the chart, so a chart torn
    // down in the same turn is never asked to place its labels.
    onLabelInputsChanged: placeSoon.restart()
    Timer { id: placeSoon; interval: 0; onTriggered: root.placeLabels() }
    function placeLabels() {
        const dots = []
        for (let i = 0; i < dotRepeater.count; ++i) {
            const dot = dotRepeater.itemAt(i)
            if (!dot || !dot.visible) continue
            dots.push({ x: dot.x + dot.width / 2, y: dot.y + dot.height / 2, r: dot.width / 2,
                        w: dot.labelWidth, h: dot.labelHeight, index: i })
        }
        const fixed = [mxuLabel, vpuLabel, hbmLabel, ridgeLabel].filter(l => l.visible)
                      .map(l => ({ x: l.x, y: l.y, w: l.width, h: l.height }))
        const mxu = root.mxuCurve, vpu = root.vpuCurve
        const lines = [root.roofLine(mxu), root.roofLine(vpu)]
        if (mxu.ridge) {
            const ridgeX = root.place(mxu.ridge, 1).x
            const ridgeTop = root.place(mxu.ridge, mxu.peakFlops || 1).y
            fixed.push({ x: ridgeX - 1, y: ridgeTop, w: 2, h: chart.y + chart.plotArea.y + chart.plotArea.height - ridgeTop })
        }
        const bounds = { x: root.plotLeft, y: chart.y + chart.plotArea.y, w: chart.plotArea.width, h: chart.plotArea.height }
        const placed = LabelPlacer.place(dots, lines, fixed, bounds, Theme.gap / 2)
        const byIndex = []
        dots.forEach((d, k) => byIndex[d.index] = Qt.point(placed[k].x, placed[k].y))
        labelOffsets = byIndex
    }
    onMxuCurveChanged: refresh()
    onVpuCurveChanged: refresh()
    Component.onCompleted: refresh()

    Text {
        id: yTitle
        text: "attainable TFLOP/s"
        rotation: -90
        transformOrigin: Item.Center
        x: -width / 2 + height / 2
        y: chart.y + chart.height / 2 - height / 2
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
    }
    // Qt Charts draws its whole chart into an image each time the chart
    // changes, some 10 ms at this size. A piece's layout settles over a
    // few frames as it is made (rows wrap and unwrap), so the chart takes
    // the room it is given only once that room has held through a whole
    // frame: one drawing at the settled size, not one a layout pass.
    readonly property real roomWidth: Math.max(0, width - (yTitle.height + Theme.gap))
    readonly property real roomHeight: Math.max(0, xTitle.y)
    readonly property bool roomTaken: chart.width === roomWidth && chart.height === roomHeight
    property int framesRoomHeld: 0
    function roomMoved() {
        framesRoomHeld = 0
        if (!roomTaken && Window.window) Window.window.update()
    }
    onRoomWidthChanged: roomMoved()
    onRoomHeightChanged: roomMoved()
    Connections {
        target: root.Window.window
        enabled: !root.roomTaken
        function onFrameSwapped() {
            // The frame in which the room last moved counts as the first.
            if (++root.framesRoomHeld < 2) {
                root.Window.window.update()
                return
            }
            chart.width = root.roomWidth
            chart.height = root.roomHeight
        }
    }
    // Dots and labels are placed from the chart's plot area: shown once it has one.
    readonly property bool drawn: chart.width > 0 && chart.height > 0

    // The chart's ground and its log-log paper are drawn beneath it (see
    // LogGrid); the chart itself draws only axes, labels and roofs.
    Rectangle {
        x: chart.x; y: chart.y
        width: chart.width; height: chart.height
        radius: Theme.radius
        color: Theme.card
    }
    LogGrid {
        objectName: "rooflinePaper"
        x: chart.x + chart.plotArea.x; y: chart.y + chart.plotArea.y
        width: chart.plotArea.width; height: chart.plotArea.height
        xMin: xAxis.min; xMax: xAxis.max
        yMin: yAxis.min; yMax: yAxis.max
        ground: Theme.chartPlot
        majorColor: Theme.chartGrid
        minorColor: Theme.chartMinorGrid
    }
    ThemedChartView {
        id: chart
        objectName: "rooflineChart"
        x: yTitle.height + Theme.gap
        width: 0
        height: 0
        backgroundColor: "transparent"
        plotAreaColor: "transparent"
        ThemedLogAxis { id: xAxis; min: root.xMin; max: root.xMax }
        ThemedLogAxis { id: yAxis; min: 0.001; max: 10000 }

        LineSeries {
            id: vpuRoof
            axisX: xAxis; axisY: yAxis
            color: Theme.inkFaint; width: 1.5; style: Qt.DashLine
        }
        LineSeries {
            id: ridgeLine
            axisX: xAxis; axisY: yAxis
            color: Theme.inkMuted; width: 1; style: Qt.DotLine
        }
        // What published runs attain on this chip: a little under the peak.
        LineSeries {
            id: attainableRoof
            objectName: "attainableRoof"
            axisX: xAxis; axisY: yAxis
            color: Theme.chartRoof; width: 1.5; style: Qt.DashLine
        }
        LineSeries {
            id: mxuRoof
            axisX: xAxis; axisY: yAxis
            color: Theme.chartRoof; width: 2.5
        }
        ScatterSeries {
            id: ridgeMark
            axisX: xAxis; axisY: yAxis
            color: Theme.chartRoof; borderColor: Theme.chartPlot
            markerSize: Theme.gapM * 3 / 4
        }
    }
    Text {
        id: xTitle
        anchors.bottom: parent.bottom
        anchors.horizontalCenter: chart.horizontalCenter
        text: "arithmetic intensity (FLOP per HBM byte)"
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
    }

    Text {
        anchors.centerIn: chart
        visible: !!root.mxuCurve.error
        width: chart.width * 0.6
        horizontalAlignment: Text.AlignHCenter
        wrapMode: Text.Wrap
        text: root.mxuCurve.error || ""
        font.family: Theme.sans; font.pixelSize: Theme.bodySize
        color: Theme.failed
    }

    // The roofs' labels and the ops' dots, over the chart.
    Item {
        anchors.fill: parent
        visible: root.drawn

        // In-place labels for the roofs and the ridge: the chart has no legend.
        RoofLabel {
            id: mxuLabel
            visible: !!root.mxuCurve.peakText
            readonly property point at: root.place(root.xMax, root.mxuCurve.peakFlops || 1)
            // Below the roof by more than a selected dot's radius: a matmul
            // sitting on the roof never covers the label's first line.
            x: at.x - width - Theme.gap; y: at.y + Theme.gapM * 0.75 + Theme.gap / 2
            text: "MXU peak " + (root.mxuCurve.peakText || "") + " · " + root.dtype
                  + (root.mxuCurve.attainablePeakText ? "\ndashed: attainable " + root.mxuCurve.attainablePeakText : "")
        }
        RoofLabel {
            id: vpuLabel
            visible: !!root.vpuCurve.peakText
            readonly property point at: root.place(root.xMax, root.vpuCurve.peakFlops || 1)
            x: at.x - width - Theme.gap; y: at.y + Theme.gap / 2
            text: "VPU peak " + (root.vpuCurve.peakText || "") + " (elementwise)"
            muted: true
        }
        RoofLabel {
            id: hbmLabel
            visible: !!root.mxuCurve.bandwidthText
            readonly property point at: root.place(1, root.mxuCurve.bandwidth || 1)
            x: at.x + Theme.gap; y: at.y + Theme.gap / 2
            text: "HBM " + (root.mxuCurve.bandwidthText || "")
                  + (root.mxuCurve.attainableBandwidthText ? " · attainable " + root.mxuCurve.attainableBandwidthText : "")
        }
        RoofLabel {
            id: ridgeLabel
            objectName: "ridgeLabel"
            visible: !!root.mxuCurve.ridgeText
            readonly property point at: root.place(root.mxuCurve.ridge || 1, yAxis.min * root.tera)
            x: at.x + Theme.gap / 2; y: at.y - height - Theme.gap / 2
            text: "ridge " + (root.mxuCurve.ridgeText || "")
        }
        Repeater {
            id: dotRepeater
            // By count: figures that change in a scrub update in place.
            model: root.ops.length
            OpDot {
                readonly property var modelData: root.ops[index] || ({})
                required property int index
                readonly property var result: (modelData.card || {}).result || ({})
                readonly property point at: root.place(result.intensity || 1, result.attained || 1)
                objectName: "dot_" + modelData.id
                visible: !result.error && at.x >= root.plotLeft - 1
                x: at.x - width / 2; y: at.y - height / 2
                z: selected ? 2 : 1
                label: modelData.title
                labelOffset: root.labelOffsets[index] || Qt.point(width, -labelHeight)
                swatch: modelData.swatch
                selected: root.selectedId === modelData.id
                frame: root
                onPressed: { root.picked(modelData.id); root.dragStarted(modelData.id) }
                onMoved: (fromX, toX) => root.dragMoved(modelData.id, root.intensityAt(toX) / root.intensityAt(fromX))
            }
        }
    }
}
