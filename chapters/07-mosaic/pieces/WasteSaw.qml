import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The array's waste as one tiled dimension runs over four tiles' worth of
// sizes, the others fixed: a saw that drops to nothing at every tile
// boundary and jumps just past it. The current size is marked; drag along
// the saw (or focus it and use the arrows) to scrub the dimension itself.
ColumnLayout {
    id: root
    property var profile: ({})       // LayoutLensModel.lens.profile
    property int shapeRank: 2
    property string dtype: ""
    property var provenance: ({})    // the layout's
    signal axisChosen(int axis)
    signal picked(real value)
    spacing: Theme.gap

    readonly property var values: profile.values || []
    readonly property real from: profile.from || 1
    readonly property real to: profile.to || 1
    readonly property real current: profile.current || 1
    readonly property real tile: profile.tile || 1
    readonly property string axisName: profile.rows ? "rows" : "lanes"
    readonly property real currentWaste: current >= from && current <= to && values.length > current - from
                                         ? values[current - from] : 0

    function xOf(v, width) { return to > from ? (v - from + 0.5) / (to - from + 1) * width : 0 }
    function valueAt(x, width) { return Math.max(from, Math.min(to, Math.floor(from + x / width * (to - from + 1)))) }

    onProfileChanged: canvas.requestPaint()

    Caption {
        Layout.fillWidth: true
        text: "waste as the " + root.axisName + " change, the rest fixed: " + root.dtype + " tiles hold "
              + root.tile + " " + root.axisName + ", so it jumps just past every multiple of " + root.tile
        wrapMode: Text.Wrap
    }
    Canvas {
        id: canvas
        objectName: "ex12Saw"
        Layout.fillWidth: true
        Layout.preferredHeight: Theme.px(110)
        activeFocusOnTab: true
        Accessible.role: Accessible.Slider
        Accessible.name: root.axisName + " " + root.current + ", waste " + Math.round(100 * root.currentWaste) + " %"
        onWidthChanged: requestPaint()
        onHeightChanged: requestPaint()
        onPaint: {
            const ctx = getContext("2d")
            ctx.reset()
            const w = width, h = height, n = root.values.length
            if (n === 0)
                return
            ctx.fillStyle = Theme.chartPlot
            ctx.fillRect(0, 0, w, h)
            // Tile boundaries.
            ctx.strokeStyle = Theme.chartGrid
            ctx.lineWidth = 1
            ctx.beginPath()
            for (let b = Math.ceil(root.from / root.tile) * root.tile; b <= root.to; b += root.tile) {
                const bx = Math.round(root.xOf(b, w)) + 0.5
                ctx.moveTo(bx, 0); ctx.lineTo(bx, h)
            }
            ctx.stroke()
            // The saw: waste 0 at the bottom, 100 % at the top.
            const top = Theme.gap, span = h - 2 * Theme.gap
            ctx.strokeStyle = Theme.seriesColor(2)
            ctx.lineWidth = 2
            ctx.beginPath()
            for (let i = 0; i < n; ++i) {
                const x0 = i / n * w, x1 = (i + 1) / n * w
                const y = top + span * (1 - root.values[i])
                if (i === 0) ctx.moveTo(x0, y)
                else ctx.lineTo(x0, y)
                ctx.lineTo(x1, y)
            }
            ctx.stroke()
            // The current size.
            const cx = root.xOf(root.current, w)
            const cy = top + span * (1 - root.currentWaste)
            ctx.strokeStyle = Theme.accent
            ctx.lineWidth = 1
            ctx.beginPath()
            ctx.moveTo(Math.round(cx) + 0.5, 0); ctx.lineTo(Math.round(cx) + 0.5, h)
            ctx.stroke()
            ctx.fillStyle = Theme.accent
            ctx.beginPath()
            ctx.arc(cx, cy, Theme.px(4), 0, 2 * Math.PI)
            ctx.fill()
        }
        Keys.onPressed: event => {
            const step = event.modifiers & Qt.ShiftModifier ? root.tile : 1
            if (event.key === Qt.Key_Left || event.key === Qt.Key_Down) root.picked(Math.max(1, root.current - step))
            else if (event.key === Qt.Key_Right || event.key === Qt.Key_Up) root.picked(root.current + step)
            else return
            event.accepted = true
        }
        MouseArea {
            anchors.fill: parent
            preventStealing: true
            cursorShape: Qt.SizeHorCursor
            function pick(mouse) {
                const v = root.valueAt(mouse.x, width)
                if (v !== root.current) root.picked(v)
            }
            onPressed: mouse => { canvas.forceActiveFocus(); pick(mouse) }
            onPositionChanged: mouse => { if (pressed) pick(mouse) }
        }
        FocusFrame {}
    }
    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        MonoText { text: String(root.from); color: Theme.inkFaint; font.pixelSize: Theme.tinySize }
        Item { Layout.fillWidth: true }
        MonoText { text: String(root.to); color: Theme.inkFaint; font.pixelSize: Theme.tinySize }
    }
    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        // A plain Row, not layout items: the readout's text changes on every
        // scrub, and a positioner always gives it its full width, where a
        // layout's cached size could squeeze it for a frame.
        Row {
            Layout.minimumWidth: implicitWidth
            spacing: Theme.gap
            MonoText {
                objectName: "ex12SawReadout"
                anchors.verticalCenter: parent.verticalCenter
                text: root.axisName + " " + root.current + " · waste " + (100 * root.currentWaste).toFixed(1) + " %"
                color: Theme.inkText
                font.pixelSize: Theme.smallSize
            }
            ProvenanceBadge {
                anchors.verticalCenter: parent.verticalCenter
                kind: root.provenance.kind || "predicted"; details: root.provenance.details || ""
            }
        }
        Item { Layout.fillWidth: true }
        ChoiceRow {
            visible: root.shapeRank >= 2
            namePrefix: "ex12SawAxis_"
            options: [{id: "rows", label: "rows"}, {id: "lanes", label: "lanes"}]
            current: root.axisName
            onChosen: id => root.axisChosen(id === "rows" ? root.shapeRank - 2 : root.shapeRank - 1)
        }
    }
}
