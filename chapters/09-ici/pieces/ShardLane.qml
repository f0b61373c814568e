import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One lane of ShardTimeline: its name, then bars placed by start and
// length on a step of `stepS` seconds. A hatched lane draws stretches of
// waiting instead of work. Pointing at a bar says so through `pointAt`.
Item {
    id: lane
    property string name: ""
    property var bars: []          // [{startS, timeS, label, ...}]
    property color fill: Theme.accent
    property bool hatched: false
    property string barPrefix: ""
    property real stepS: 0
    property real labelWidth: Theme.px(92)
    property var pointed: null     // the bar pointed at anywhere on the timeline
    signal pointAt(var bar)        // null when the pointer leaves a bar
    Layout.fillWidth: true
    implicitHeight: Theme.px(26)

    // Each bar in pixels, a pixel short so bars that follow each other read as two.
    readonly property var placed: bars.map((b, i) => ({
        name: lane.barPrefix + i,
        x: lane.stepS > 0 ? track.width * b.startS / lane.stepS : 0,
        width: Math.max(1, lane.stepS > 0 ? track.width * b.timeS / lane.stepS - 1 : 0),
        height: track.height - Theme.px(6),
        label: lane.hatched ? "" : b.label || "",
        hatched: lane.hatched,
        colour: lane.hatched ? "transparent" : lane.fill
    }))
    // Where the pointed bar is, when it is on this lane: outlined, so the
    // bars themselves stay put while the pointer moves.
    readonly property var pointedPlace: {
        const i = bars.indexOf(pointed)
        return i >= 0 ? placed[i] : null
    }
    function barAt(x) {
        for (const p of placed)
            if (x >= p.x && x <= p.x + p.width + 1)
                return bars[placed.indexOf(p)]
        return null
    }

    Caption {
        width: lane.labelWidth - Theme.gap
        anchors.verticalCenter: parent.verticalCenter
        text: lane.name
        elide: Text.ElideRight
    }
    Item {
        id: track
        x: lane.labelWidth
        width: parent.width - lane.labelWidth
        height: parent.height
        Rectangle { anchors.fill: parent; color: Theme.chartPlot; radius: Theme.radius / 2 }
        Repeater {
            model: lane.placed
            Rectangle {
                id: bar
                required property var modelData
                objectName: modelData.name
                x: modelData.x
                width: modelData.width
                y: Theme.px(3)
                height: modelData.height
                radius: Theme.px(3)
                color: modelData.colour
                border.width: modelData.hatched ? 1 : 0
                border.color: Theme.gapHatch
                Item {   // thin diagonal strokes: the MXU has nothing to do
                    anchors.fill: parent
                    anchors.margins: 1
                    visible: bar.modelData.hatched
                    clip: true
                    Repeater {
                        model: bar.modelData.hatched ? Math.ceil((bar.width + bar.height) / Theme.px(6)) : 0
                        Rectangle {
                            required property int index
                            x: index * Theme.px(6) - parent.height
                            y: -parent.height / 2
                            width: 1
                            height: parent.height * 2
                            rotation: 45
                            color: Theme.gapHatch
                        }
                    }
                }
                Text {
                    anchors.centerIn: parent
                    visible: implicitWidth + Theme.px(6) < bar.width
                    text: bar.modelData.label
                    font.family: Theme.sans; font.pixelSize: Theme.tinySize
                    color: Theme.ink
                }
            }
        }
        Rectangle {
            visible: lane.pointedPlace !== null
            x: lane.pointedPlace ? lane.pointedPlace.x - Theme.px(2) : 0
            width: lane.pointedPlace ? lane.pointedPlace.width + Theme.px(4) : 0
            y: Theme.px(1)
            height: track.height - Theme.px(2)
            radius: Theme.px(4)
            color: "transparent"
            border.width: Theme.focusWidth
            border.color: Theme.inkText
        }
        HoverHandler {
            onPointChanged: {
                const bar = hovered ? lane.barAt(point.position.x) : null
                if (bar !== lane.pointed && (bar !== null || lane.bars.indexOf(lane.pointed) >= 0))
                    lane.pointAt(bar)
            }
            onHoveredChanged: if (!hovered && lane.bars.indexOf(lane.pointed) >= 0) lane.pointAt(null)
        }
    }
}
