pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

// A collective matmul's two schedules on the course's chip, to one time
// scale: the gather and then the whole matmul; and the chunked form, the
// MXU's steps above the link's transfers, the part of a transfer that
// outlasts its step's matmul marked exposed.
Rectangle {
    id: timeline
    required property var modelData
    property var card: null
    readonly property string base: modelData.figure.replace(/:.*$/, ": ")
    function fig(field) { return Reader.liveFigure(base + field, Course.chip) }
    readonly property var tc: fig("step_compute")
    readonly property var tx: fig("step_transfer")
    readonly property var total: fig("time")
    readonly property var computeOnly: fig("compute_only")
    readonly property var gatherFirst: fig("gather_then_matmul")
    readonly property var exposed: fig("exposed")
    readonly property int devices: { const m = /devices=(\d+)/.exec(modelData.figure); return m ? parseInt(m[1]) : 4 }
    readonly property real span: Math.max(gatherFirst.number || 0, total.number || 0, 1e-12)
    readonly property real step: Math.max(tc.number || 0, tx.number || 0)
    readonly property real labelWidth: Theme.px(150)
    readonly property real track: width - 2 * Theme.gapM - labelWidth - Theme.gap
    function px(t) { return track * t / span }
    implicitHeight: timelineColumn.implicitHeight + 2 * Theme.gapM
    radius: Theme.radius
    color: Theme.pageCode
    border.color: Theme.pageRule

    Column {
        id: timelineColumn
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gap / 2
        Text {
            width: parent.width
            text: timeline.modelData.title + " · predicted on " + Course.chip
            wrapMode: Text.WordWrap
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
            color: Theme.pageInk
        }
        Lane {
            line: timeline
            label: "gather, then multiply"
            Span {
                line: timeline
                from: 0; length: (timeline.gatherFirst.number || 0) - (timeline.computeOnly.number || 0)
                color: Theme.pageAccent; label: "all-gather"; value: timeline.gatherFirst
            }
            Span {
                line: timeline
                from: (timeline.gatherFirst.number || 0) - (timeline.computeOnly.number || 0); length: timeline.computeOnly.number || 0
                color: Theme.pageInk; label: "matmul"; value: timeline.computeOnly
            }
        }
        Lane {
            line: timeline
            label: "chunked: the MXU"
            Repeater {
                model: timeline.devices
                delegate: Span {
                    required property int index
                    line: timeline
                    from: index * timeline.step; length: timeline.tc.number || 0
                    color: Theme.pageInk; label: "chunk " + index; value: timeline.tc
                }
            }
        }
        Lane {
            line: timeline
            label: "chunked: the link"
            Repeater {
                model: timeline.devices - 1
                delegate: Span {
                    required property int index
                    line: timeline
                    from: index * timeline.step; length: timeline.tx.number || 0
                    color: Theme.pageAccent; label: "→ " + (index + 1); value: timeline.tx
                }
            }
            Repeater {
                model: (timeline.tx.number || 0) > (timeline.tc.number || 0) ? timeline.devices - 1 : 0
                delegate: Span {
                    required property int index
                    line: timeline
                    from: index * timeline.step + (timeline.tc.number || 0); length: (timeline.tx.number || 0) - (timeline.tc.number || 0)
                    color: Theme.pageFailed; label: "exposed"; value: timeline.exposed
                }
            }
        }
        Text {
            width: parent.width
            textFormat: Text.RichText
            wrapMode: Text.WordWrap
            readonly property string amber: "<span style='color:" + Theme.pagePredicted + "'><b>"
            text: "gather, then multiply " + amber + timeline.gatherFirst.text + "</b></span> · chunked " + amber + timeline.total.text
                  + "</b></span> against " + amber + timeline.computeOnly.text + "</b></span> of compute alone · each step's matmul "
                  + amber + timeline.tc.text + "</b></span>, its transfer " + amber + timeline.tx.text + "</b></span>"
            font.family: Theme.sans; font.pixelSize: Theme.tinySize
            color: Theme.pageInk
        }
        Text {
            width: parent.width
            visible: text !== ""
            text: timeline.modelData.note
            wrapMode: Text.WordWrap
            font.family: Theme.sans; font.pixelSize: Theme.tinySize
            color: Theme.pageMuted
        }
    }

    // A row of the timeline: its label, then its spans on the time scale.
    component Lane:     Item {
        id: lane
        property var line: null     // the timeline, for its scale
        property string label: ""
        default property alias bars: track.data
        width: parent ? parent.width : 0
        height: Theme.gapL + Theme.gap
        Text {
            width: lane.line ? lane.line.labelWidth : 0
            anchors.verticalCenter: parent.verticalCenter
            text: lane.label
            elide: Text.ElideRight
            font.family: Theme.sans; font.pixelSize: Theme.tinySize
            color: Theme.pageInk
        }
        Item { id: track; x: (lane.line ? lane.line.labelWidth : 0) + Theme.gap; width: lane.line ? lane.line.track : 0; height: parent.height }
    }

    // One span of a lane: a step's matmul, a transfer, the exposed rest.
    component Span:     Rectangle {
        id: span
        property var line: null     // the timeline, for its scale
        property real from: 0
        property real length: 0
        property string label: ""
        property var value: ({})
        x: span.line ? span.line.px(from) : 0; y: Theme.px(3)
        width: span.line ? Math.max(1, span.line.px(length) - 1) : 0; height: parent.height - Theme.px(6)
        radius: 2
        Text {
            anchors.centerIn: parent
            width: parent.width - Theme.gap
            horizontalAlignment: Text.AlignHCenter
            visible: width > Theme.px(40)
            text: span.label
            elide: Text.ElideRight
            font.family: Theme.mono; font.pixelSize: Theme.tinySize
            color: Theme.page
        }
        HoverHandler {
            onHoveredChanged: {
                const card = span.line ? span.line.card : null
                if (!card) return
                if (hovered) card.showFor(span, span.value.details)
                else card.hideFor(span)
            }
        }
    }
}
