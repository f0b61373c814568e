import QtQuick
import QtCharts
import TpuCourse.Ui
import TpuCourse.Sim

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
    ThemedChartView {
        id: chart
        anchors.left: parent.left; anchors.leftMargin: yTitle.height + Theme.gap
        anchors.right: parent.right
        anchors.top: parent.top
        anchors.bottom: xTitle.top
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

    // In-place labels for the roofs and the ridge: the chart has no legend.
    RoofLabel {
        visible: !!root.mxuCurve.peakText
        readonly property point at: root.place(root.xMax, root.mxuCurve.peakFlops || 1)
        x: at.x - width - Theme.gap; y: at.y + Theme.gap / 2
        text: "MXU peak " + (root.mxuCurve.peakText || "") + " · " + root.dtype
    }
    RoofLabel {
        visible: !!root.vpuCurve.peakText
        readonly property point at: root.place(root.xMax, root.vpuCurve.peakFlops || 1)
        x: at.x - width - Theme.gap; y: at.y + Theme.gap / 2
        text: "VPU peak " + (root.vpuCurve.peakText || "") + " (elementwise)"
        muted: true
    }
    RoofLabel {
        visible: !!root.mxuCurve.bandwidthText
        readonly property point at: root.place(1, root.mxuCurve.bandwidth || 1)
        x: at.x + Theme.gap; y: at.y + Theme.gap / 2
        text: "HBM " + (root.mxuCurve.bandwidthText || "")
    }
    RoofLabel {
        objectName: "ridgeLabel"
        visible: !!root.mxuCurve.ridgeText
        readonly property point at: root.place(root.mxuCurve.ridge || 1, yAxis.min * root.tera)
        x: at.x + Theme.gap / 2; y: at.y - height - Theme.gap / 2
        text: "ridge " + (root.mxuCurve.ridgeText || "")
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

    Repeater {
        model: root.ops
        OpDot {
            required property var modelData
            readonly property var result: modelData.card.result
            readonly property point at: root.place(result.intensity || 1, result.attained || 1)
            objectName: "dot_" + modelData.id
            visible: !result.error && at.x >= root.plotLeft - 1
            x: at.x - width / 2; y: at.y - height / 2
            z: selected ? 2 : 1
            label: modelData.title
            swatch: modelData.swatch
            selected: root.selectedId === modelData.id
            frame: root
            onPressed: { root.picked(modelData.id); root.dragStarted(modelData.id) }
            onMoved: (fromX, toX) => root.dragMoved(modelData.id, root.intensityAt(toX) / root.intensityAt(fromX))
        }
    }
}
