pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim

// The schedule on a timeline (PipelineTimeline, one painted picture): per
// TensorCore the copies in, the MXU and the copies out, from the call's
// launch to its epilogue. Pointing at a lane, or picking a step with a
// click or ← →, opens the step's card: its DMA in, compute and DMA out.
// The buttons, + and −, or Ctrl+wheel zoom; a drag pans.
ColumnLayout {
    id: root
    required property var model       // PipelineModel
    signal pointed(var detail)        // the learner pointed at or picked this step
    // What each new run opens on: "whole" (the call), "first" or "last"
    // (twelve steps); a zoom or pan of the learner's is "custom", and a new run opens whole.
    property string viewMode: "whole"
    function showView(mode) {
        root.viewMode = mode
        if (mode === "first") lanes.showSteps(0, 12)
        else if (mode === "last") lanes.showSteps(Math.max(0, root.stepCount - 12), 12)
        else if (mode === "whole") lanes.showAll()
    }
    // The mode as it is when the call comes, not as it was when it was queued.
    function reapplyView() {
        if (root.viewMode === "first" || root.viewMode === "last")
            root.showView(root.viewMode)
    }
    Connections {
        target: root.model
        // After the timeline has opened the new run whole.
        function onRunChanged() {
            // Qt.callLater is a method; qmllint 6.4 reads it as a property.
            if (root.viewMode === "first" || root.viewMode === "last")
                Qt.callLater(root.reapplyView) // qmllint disable type
            else
                root.viewMode = "whole"
        }
    }
    readonly property var run: model.run
    readonly property int stepCount: run.coreSteps ? run.coreSteps[0] : 0
    readonly property int coreCount: run.cores || 1
    readonly property real laneHeight: Theme.px(26)
    spacing: Theme.gap

    // The step the card explains: the one under the pointer, else the picked one.
    readonly property int shownStep: lanes.hoveredStep >= 0 ? lanes.hoveredStep
                                   : lanes.activeFocus ? lanes.pickedStep : -1
    readonly property var detail: shownStep >= 0 ? model.stepDetail(shownStep) : ({})
    onDetailChanged: if (shownStep >= 0) root.pointed(detail)

    function pick(index) {
        const n = root.model.coreSpan(0)
        if (n.end === undefined) return
        const i = Math.max(0, Math.min(n.end - 1, index))
        lanes.pickedStep = i
        const d = root.model.stepDetail(i)
        // Keep the picked step in view.
        if (d.startS < lanes.viewStart || d.endS > lanes.viewEnd) {
            root.viewMode = "custom"
            lanes.showSteps(Math.max(0, d.step - 4), 16)
        }
    }

    component Key: RowLayout {
        property color swatch
        property alias text: keyText.text
        spacing: Theme.gap / 2
        Rectangle { implicitWidth: Theme.px(12); implicitHeight: Theme.px(12); color: parent.swatch; border.color: Theme.cardBorder; border.width: 1 }
        Caption { id: keyText; font.pixelSize: Theme.tinySize }
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        Caption {
            Layout.fillWidth: true
            wrapMode: Text.Wrap
            text: "the call, " + (root.run.timeText || "—") + ": " + (root.run.stepsText || "0") + " steps of grid "
                  + (root.run.grid || "") + (root.run.cores > 1 ? " split over " + root.run.cores + " TensorCores" : "")
        }
        MonoText {
            objectName: "ex08Busy"
            visible: root.model.busy
            text: "computing…"
            color: Theme.inkFaint
            font.pixelSize: Theme.tinySize
        }
        SnugButton { objectName: "ex08ViewAll"; text: "whole call"; mono: true; onClicked: root.showView("whole") }
        SnugButton { objectName: "ex08ViewFirst"; text: "first steps"; mono: true; onClicked: root.showView("first") }
        SnugButton { objectName: "ex08ViewLast"; text: "last steps"; mono: true; onClicked: root.showView("last") }
        SnugButton { objectName: "ex08ZoomIn"; text: "+"; mono: true; onClicked: { root.viewMode = "custom"; lanes.zoomAt(0.5, 2) } }
        SnugButton { objectName: "ex08ZoomOut"; text: "−"; mono: true; onClicked: { root.viewMode = "custom"; lanes.zoomAt(0.5, 0.5) } }
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        Column {
            id: labels
            Layout.alignment: Qt.AlignTop
            Repeater {
                model: root.coreCount * 3
                Item {
                    id: laneLabel
                    required property int index
                    width: Theme.px(96)
                    height: root.laneHeight + (index % 3 === 2 ? Theme.gap : 0)
                    Caption {
                        height: root.laneHeight
                        verticalAlignment: Text.AlignVCenter
                        font.pixelSize: Theme.tinySize
                        text: (laneLabel.index % 3 === 0 ? "DMA in" : laneLabel.index % 3 === 1 ? "MXU" : "DMA out")
                              + (root.coreCount > 1 && laneLabel.index % 3 === 1 ? " · core " + Math.floor(laneLabel.index / 3) : "")
                    }
                }
            }
        }
        PipelineTimeline {
            id: lanes
            objectName: "ex08Timeline"
            Layout.fillWidth: true
            Layout.preferredHeight: root.coreCount * (3 * root.laneHeight + Theme.gap) - Theme.gap
            model: root.model
            laneHeight: root.laneHeight
            coreGap: Theme.gap
            computeColor: Theme.seriesColors[0]
            overheadColor: Theme.seriesColors[2]
            exposedColor: Theme.failed
            dmaInColor: Theme.verified
            dmaOutColor: Theme.seriesColors[1]
            fixedColor: Theme.fieldBorder
            laneColor: Theme.chartPlot
            lineColor: Theme.floor
            pickColor: Theme.inkText
            pickWidth: Theme.focusWidth
            Accessible.role: Accessible.Graphic
            Accessible.name: "the grid's steps over time: copies in, MXU and copies out"
            Keys.onPressed: event => {
                if (event.key === Qt.Key_Right) root.pick(lanes.pickedStep + 1)
                else if (event.key === Qt.Key_Left) root.pick(lanes.pickedStep - 1)
                else if (event.key === Qt.Key_Home) root.pick(0)
                else if (event.key === Qt.Key_End) root.pick(root.stepCount - 1)
                else if (event.key === Qt.Key_Plus || event.key === Qt.Key_Equal) { root.viewMode = "custom"; lanes.zoomAt(0.5, 2) }
                else if (event.key === Qt.Key_Minus) { root.viewMode = "custom"; lanes.zoomAt(0.5, 0.5) }
                else return
                event.accepted = true
            }
            FocusFrame {}

            ExplainCard {
                id: card
                objectName: "ex08StepCard"
                target: lanes
                readonly property real atX: lanes.hoveredStep >= 0 ? lanes.hoveredX
                                          : root.detail.startS !== undefined ? lanes.xOf((root.detail.startS + root.detail.endS) / 2) : 0
                targetRect: Qt.rect(Math.max(0, Math.min(lanes.width - 1, atX)), 0, 1, lanes.height)
                shown: root.shownStep >= 0
                heading: root.detail.heading || ""
                text: root.detail.text || ""
            }
        }
    }
    RowLayout {
        Layout.fillWidth: true
        Layout.leftMargin: labels.width + Theme.gap
        MonoText {
            objectName: "ex08ViewStart"
            font.pixelSize: Theme.tinySize; color: Theme.inkFaint
            text: root.timeLabel(lanes.viewStart)
        }
        Item { Layout.fillWidth: true }
        MonoText {
            objectName: "ex08ViewEnd"
            font.pixelSize: Theme.tinySize; color: Theme.inkFaint
            text: root.timeLabel(lanes.viewEnd)
        }
    }
    function timeLabel(s) {
        if (!(s > 0)) return "0"
        if (s >= 1e-3) return (s * 1e3).toFixed(s >= 1e-2 ? 1 : 2) + " ms"
        return (s * 1e6).toFixed(s >= 1e-5 ? 1 : 2) + " µs"
    }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        Key { swatch: Theme.verified; text: "copies in (the next step's blocks)" }
        Key { swatch: Theme.seriesColors[0]; text: "MXU computing" }
        Key { swatch: Theme.seriesColors[2]; text: "bubble: the step's fixed time" }
        Key { swatch: Theme.failed; text: "bubble: waiting on copies (exposed DMA)" }
        Key { swatch: Theme.seriesColors[1]; text: "copies out (the block finished before)" }
        Key { swatch: Theme.fieldBorder; text: "launch" }
    }
    Caption {
        Layout.fillWidth: true
        wrapMode: Text.Wrap
        font.pixelSize: Theme.tinySize
        text: "each pixel column is a slice of time; a lane fills by the share of the slice it is busy. Point at a lane for a step's times; click a step, then ← → to walk the grid; + and − (or Ctrl+wheel) zoom, a drag pans."
    }
}
