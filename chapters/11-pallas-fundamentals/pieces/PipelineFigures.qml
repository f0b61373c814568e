pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The call's time and where it goes, each figure badged as the pipeline
// model's prediction: steps and what holds them, compute, the bubbles
// (step overhead and exposed DMA), the launch, prologue and epilogue, the
// traffic, VMEM and utilization, and a sentence on what to change.
ColumnLayout {
    id: root
    required property var model      // PipelineModel
    readonly property var run: model.run
    readonly property var provenance: run.provenance || ({})
    spacing: Theme.gap

    component Figure: RowLayout {
        id: fig
        property alias name: nameText.text
        property alias value: valueText.text
        property string valueName: ""
        // The card's text: the model's, or a figure's own with its working first.
        property string details: root.provenance.details || ""
        spacing: Theme.gap
        Caption { id: nameText; Layout.preferredWidth: Theme.px(220); wrapMode: Text.Wrap }
        MonoText {
            id: valueText
            objectName: fig.valueName
            font.pixelSize: Theme.subheadingSize
            color: Theme.inkText
            HoverHandler { id: valuePointed }
        }
        ProvenanceBadge {
            kind: root.provenance.kind || "predicted"
            details: fig.details
            figurePointed: valuePointed.hovered
        }
        Item { Layout.fillWidth: true }
    }

    Text {
        objectName: "ex08Verdict"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.bodySize
        color: Theme.inkText
        text: root.run.verdict || ""
    }
    Text {
        objectName: "ex08Wrong"
        Layout.fillWidth: true
        visible: root.run.revisits === true
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.failed
        text: "K is not the innermost axis: each output block is visited again after others, so its partial sums are written back every step and the result is wrong (worked example 3). The timing shows what that order costs."
    }
    Figure { name: "time of the call"; valueName: "ex08Time"; value: root.run.timeText || "—"; details: root.run.timeDetails || "" }
    Figure { name: "grid steps"; valueName: "ex08Steps"; value: root.run.stepsText || "—" }
    Text {
        objectName: "ex08Held"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.mono; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        text: root.run.heldText ? "steps held " + root.run.heldText + " (" + root.run.stepFloorText + " each at least)" : ""
    }
    Text {
        objectName: "ex08Cores"
        Layout.fillWidth: true
        visible: (root.run.cores || 1) > 1
        wrapMode: Text.WordWrap
        font.family: Theme.mono; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        text: !root.run.coreSteps ? "" : "split over " + root.run.cores + " TensorCores: " + root.run.coreSteps.join(" and ") + " steps"
              + (root.run.coreSteps[0] !== root.run.coreSteps[root.run.coreSteps.length - 1] ? "; uneven, the longer one sets the time" : "")
    }
    Figure { name: "MXU computing"; valueName: "ex08Compute"; value: root.run.computeText || "—" }
    Figure { name: "DMA time, under compute or not"; valueName: "ex08Dma"; value: root.run.dmaText || "—" }
    Figure { name: "bubbles: step overhead"; valueName: "ex08Overhead"; value: root.run.overheadText || "—" }
    Figure { name: "bubbles: exposed DMA in steps"; valueName: "ex08Exposed"; value: root.run.exposedText || "—" }
    Figure { name: "MXU idle, share of steps"; valueName: "ex08BubbleShare"; value: root.run.stepBubbleText || "—" }
    Figure { name: "launch · prologue · epilogue"; valueName: "ex08Fixed"; value: root.run.launchText ? root.run.launchText + " · " + root.run.prologueText + " · " + root.run.epilogueText : "—" }
    Figure { name: "HBM traffic"; valueName: "ex08Hbm"; value: root.run.hbmText || "—"; details: root.run.hbmDetails || "" }
    Figure { name: "VMEM, of the scoped limit"; valueName: "ex08Vmem"; value: root.run.vmemText ? root.run.vmemText + " of " + root.run.vmemLimitText : "—"; details: root.run.vmemDetails || "" }
    Figure { name: "MXU utilization"; valueName: "ex08Utilization"; value: root.run.utilizationText || "—" }
    Figure { name: "roofline floor"; valueName: "ex08Floor"; value: root.run.floorText || "—" }
    Text {
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkFaint
        text: "One model: the same numbers as `tpusim pipeline matmul` and the chapter's pipeline table. Predicted, never measured: lab L07 measures."
    }
}
