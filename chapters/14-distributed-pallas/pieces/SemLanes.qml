pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui

// One lane per device: its program (compute, waits, barrier) on top and its
// DMAs below, drawn up to the current time. A copy still travelling is an
// outline (in flight); a landed one is filled. A race is marked where it
// happened; a device stuck in a deadlock, or left with a nonzero semaphore,
// gets a red lane and says why.
Item {
    id: root
    property var spans: []
    property var events: []
    property int eventIndex: 0
    property int devices: 4
    property real endS: 1
    property string endText: ""    // the right edge of the lanes, as the model formats it
    property real nowS: 0
    property var deadlock: []        // the run's waiters
    property var races: []           // [{device, timeS, kind, buffer}]
    property var nonzero: []         // semaphores left nonzero at exit: [{device, semaphore, value}]
    property bool atEnd: false
    readonly property real labelWidth: Theme.px(78)
    readonly property real laneHeight: Theme.px(46)
    readonly property real plotWidth: width - labelWidth - Theme.gap

    implicitHeight: devices * (laneHeight + Theme.gap) + legend.implicitHeight

    function xOf(t) { return labelWidth + Theme.gap + plotWidth * Math.min(1, t / Math.max(endS, 1e-12)) }
    function waiter(d) { return deadlock.find(w => w.device === d) }
    function leftNonzero(d) { return nonzero.filter(n => n.device === d) }
    // What the lane's badge says at the end of a broken run, or "".
    function problemAt(d) {
        const w = waiter(d)
        if (w)
            return "stuck: waits on " + w.semaphore + " (" + w.value + " of " + w.needed + ")"
        const left = leftNonzero(d)
        return left.length ? "exits with " + left.map(n => n.semaphore + " = " + n.value).join(", ") : ""
    }
    function spanColor(s) {
        if (s.category === "dma") return s.track === "DMA local" ? Theme.seriesColor(1) : Theme.seriesColor(0)
        if (s.category === "wait") return Theme.inkFaint
        if (s.category === "barrier") return Theme.seriesColor(2)
        return Theme.seriesColor(3)
    }

    Repeater {
        model: root.devices
        Item {
            id: lane
            required property int index
            readonly property string problem: root.atEnd ? root.problemAt(index) : ""
            readonly property bool stuck: problem.length > 0
            y: index * (root.laneHeight + Theme.gap)
            width: root.width
            height: root.laneHeight
            Rectangle {
                anchors.fill: parent
                radius: Theme.radius
                color: Theme.card
                border.color: lane.stuck ? Theme.failed : Theme.cardBorder
                border.width: lane.stuck ? 2 : 1
            }
            MonoText {
                objectName: "ex10LaneLabel_" + lane.index
                x: Theme.gap
                anchors.verticalCenter: parent.verticalCenter
                text: "device " + lane.index
                color: lane.stuck ? Theme.failed : Theme.inkMuted
                font.pixelSize: Theme.tinySize
            }
            // The lane's spans and ticks are made once a run and shown as the
            // scrub reaches them: filtered by the time, each step of the
            // scrub made the lane's bars all over again.
            Repeater {
                model: root.spans.filter(s => s.device === lane.index)
                Rectangle {
                    required property var modelData
                    visible: modelData.startS <= root.nowS
                    readonly property bool dma: modelData.category === "dma"
                    readonly property bool landed: modelData.endS <= root.nowS
                    x: root.xOf(modelData.startS)
                    // A hairline short of its end, so back-to-back copies stay two bars.
                    width: Math.max(Theme.px(2), root.xOf(Math.min(modelData.endS, root.nowS)) - x - 1)
                    y: dma ? lane.height / 2 + Theme.px(3) : Theme.px(5)
                    height: lane.height / 2 - Theme.px(8)
                    radius: Theme.px(2)
                    color: dma && !landed ? "transparent" : root.spanColor(modelData)
                    border.color: root.spanColor(modelData)
                    border.width: 1
                    opacity: modelData.category === "wait" ? 0.5 : 1
                    MonoText {
                        anchors.centerIn: parent
                        visible: parent.dma && implicitWidth < parent.width - Theme.px(4)
                        text: parent.modelData.name + (parent.landed ? "" : " · in flight")
                        color: parent.landed ? Theme.ink : Theme.inkText
                        font.pixelSize: Theme.tinySize
                    }
                }
            }
            // Signals and landings up to now, as ticks on the program row.
            Repeater {
                model: root.events.map((e, at) => ({ event: e, at: at }))
                        .filter(t => t.event.device === lane.index && (t.event.kind === "signal" || t.event.kind === "dma-land"))
                Rectangle {
                    required property var modelData
                    visible: modelData.at <= root.eventIndex
                    x: root.xOf(modelData.event.timeS) - width / 2
                    y: Theme.px(2)
                    width: Theme.px(2)
                    height: lane.height - Theme.px(4)
                    color: modelData.event.kind === "signal" ? Theme.accent : Theme.verified
                }
            }
            // Races up to now, where they happened: a red bar across the lane.
            Repeater {
                model: root.races.filter(r => r.device === lane.index && r.timeS <= root.nowS)
                Rectangle {
                    required property var modelData
                    required property int index
                    objectName: "ex10Race_" + lane.index + "_" + index
                    x: root.xOf(modelData.timeS) - width / 2
                    width: Theme.px(4)
                    height: lane.height
                    color: Theme.failed
                    MonoText {
                        x: parent.width + Theme.px(2)
                        y: Theme.px(2)
                        text: "race: " + parent.modelData.buffer
                        color: Theme.failed
                        font.pixelSize: Theme.tinySize
                    }
                }
            }
            // On its own ground, so it reads over the bars.
            Rectangle {
                visible: !!lane.stuck
                anchors.right: parent.right
                anchors.rightMargin: Theme.gap
                y: Theme.px(3)
                width: stuckText.implicitWidth + Theme.gap
                height: stuckText.implicitHeight + Theme.px(2)
                radius: Theme.px(3)
                color: Theme.problemGround
                border.color: Theme.failed
                MonoText {
                    id: stuckText
                    objectName: "ex10Stuck_" + lane.index
                    anchors.centerIn: parent
                    text: lane.problem
                    color: Theme.failed
                    font.pixelSize: Theme.tinySize
                }
            }
        }
    }
    // Now.
    Rectangle {
        x: root.xOf(root.nowS)
        y: 0
        width: 2
        height: root.devices * (root.laneHeight + Theme.gap) - Theme.gap
        color: Theme.accent
    }
    MonoText {
        objectName: "ex10AxisEnd"
        anchors.right: parent.right
        y: root.devices * (root.laneHeight + Theme.gap)
        text: root.endText
        color: Theme.inkMuted
        font.pixelSize: Theme.tinySize
    }
    Flow {
        id: legend
        y: root.devices * (root.laneHeight + Theme.gap)
        x: root.labelWidth + Theme.gap
        width: root.plotWidth - Theme.px(90)
        spacing: Theme.gapM
        Repeater {
            model: [["compute", Theme.seriesColor(3)], ["wait", Theme.inkFaint], ["barrier", Theme.seriesColor(2)],
                    ["local copy", Theme.seriesColor(1)], ["remote copy", Theme.seriesColor(0)], ["signal", Theme.accent], ["lands", Theme.verified],
                    ["race", Theme.failed]]
            Row {
                id: entry
                required property var modelData
                height: Theme.px(20)
                spacing: Theme.px(4)
                Rectangle { width: Theme.px(10); height: width; color: entry.modelData[1]; anchors.verticalCenter: parent.verticalCenter }
                MonoText { text: entry.modelData[0]; color: Theme.inkMuted; font.pixelSize: Theme.tinySize }
            }
        }
    }
}
