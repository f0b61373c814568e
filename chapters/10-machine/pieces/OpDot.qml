import QtQuick
import QtQuick.Controls
import TpuCourse.Ui

// An op's point on the roofline chart, placed by the chart. Drag it sideways:
// the chart turns the pointer's travel into a ratio of intensities, and the
// op's card changes its driving size by that ratio.
Rectangle {
    id: root
    property string label: ""
    property color swatch: Theme.seriesColor(0)
    property bool selected: false
    property Item frame: null       // the item whose coordinates drags are reported in
    property point labelOffset: Qt.point(width, -labelText.height)  // top-left of the label, from the dot's centre
    readonly property real labelWidth: labelText.implicitWidth
    readonly property real labelHeight: labelText.implicitHeight
    signal pressed()
    signal moved(real fromX, real toX)  // pointer x in chart coordinates
    signal released()

    width: selected ? Theme.gapM + Theme.gap / 2 : Theme.gapM
    height: width
    radius: width / 2
    color: swatch
    border.color: selected ? Theme.inkText : Theme.chartPlot
    border.width: 2

    Text {
        id: labelText
        objectName: "dotLabel"
        x: root.width / 2 + root.labelOffset.x
        y: root.height / 2 + root.labelOffset.y
        text: root.label
        font.family: Theme.sans; font.pixelSize: Theme.tinySize
        font.weight: root.selected ? Font.DemiBold : Font.Normal
        color: root.selected ? Theme.inkText : Theme.inkMuted
    }
    MouseArea {
        id: mouse
        anchors.fill: parent
        anchors.margins: -Theme.gap   // a bigger target than the dot
        hoverEnabled: true
        preventStealing: true
        cursorShape: Qt.SizeHorCursor
        property real startX: 0
        onPressed: mouseEvent => {
            startX = mapToItem(root.frame, mouseEvent.x, mouseEvent.y).x
            root.pressed()
        }
        onPositionChanged: mouseEvent => {
            if (pressed)
                root.moved(startX, mapToItem(root.frame, mouseEvent.x, mouseEvent.y).x)
        }
        onReleased: root.released()
    }
    ExplainCard {
        shown: mouse.containsMouse && !mouse.pressed
        delay: 400
        text: "drag sideways to move " + root.label + " along the roofline"
    }
}
