import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The predicted time of the schedule, and the off-chip check: run it on
// the host with real arithmetic and compare with a reference matmul. The
// check's badge belongs to the inputs it ran; any edit clears it.
ColumnLayout {
    id: root
    required property var model      // BlockSpecModel
    readonly property var prediction: model.prediction
    readonly property var verification: model.verification
    readonly property bool checked: verification.passed !== undefined
    spacing: Theme.gap

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        Caption { text: "time" }
        MonoText {
            objectName: "ex09Time"
            text: root.prediction.time || "—"
            color: Theme.inkText
            font.pixelSize: Theme.headingSize
            HoverHandler { id: timePointed }
        }
        ProvenanceBadge {
            objectName: "ex09TimeBadge"
            figurePointed: timePointed.hovered
            visible: !!root.prediction.provenance
            kind: root.prediction.provenance ? root.prediction.provenance.kind : "predicted"
            details: root.prediction.provenance ? root.prediction.provenance.details : ""
        }
        Item { Layout.fillWidth: true }
    }
    Text {
        objectName: "ex09TimeDetail"
        Layout.fillWidth: true
        text: root.prediction.error ? root.prediction.error
              : root.prediction.time ? "a call from Python: " + root.prediction.launch + " launch + " + root.prediction.device
                                       + " on the device · " + root.prediction.utilizationText + " of peak · " + root.prediction.hbm
                                       + " through HBM · roofline floor " + root.prediction.floor + " · "
                                       + root.prediction.steps + " steps on " + root.prediction.cores
                                       + (root.prediction.cores === 1 ? " core" : " cores") : ""
        wrapMode: Text.Wrap
        font.family: Theme.sans
        font.pixelSize: Theme.smallSize
        color: root.prediction.error ? Theme.failed : Theme.inkMuted
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        PlainButton {
            objectName: "ex09Verify"
            text: root.model.verifying ? "running on the host…" : "verify off-chip"
            mono: true
            fillColor: Theme.inkHover
            textColor: Theme.inkText
            onClicked: root.model.verify()
        }
        ProvenanceBadge {
            objectName: "ex09VerifiedBadge"
            visible: root.checked
            kind: root.verification.passed ? "verified" : "failed"
            details: root.verification.provenance ? root.verification.provenance.details : ""
        }
        Item { Layout.fillWidth: true }
    }
    Text {
        objectName: "ex09VerifyResult"
        Layout.fillWidth: true
        visible: text !== ""
        text: root.verification.error ? root.verification.error
              : root.checked ? (root.verification.passed ? "✓ " : "✗ ") + root.verification.reason
              : ""
        wrapMode: Text.Wrap
        font.family: Theme.sans
        font.pixelSize: Theme.smallSize
        color: root.checked && root.verification.passed ? Theme.verified : Theme.failed
    }
    Text {
        objectName: "ex09VerifyCaveat"
        Layout.fillWidth: true
        // The host runs the grid in order on one core, so a race cannot show there.
        visible: root.checked && root.verification.passed && !root.model.sound
        text: "The host ran the steps one after another; the problems the map shows still stand on a chip that splits parallel axes across cores."
        wrapMode: Text.Wrap
        font.family: Theme.sans
        font.pixelSize: Theme.smallSize
        color: Theme.failed
    }
    Text {
        objectName: "ex09VerifyRan"
        Layout.fillWidth: true
        visible: root.checked
        text: root.checked ? "ran " + root.verification.ran + (root.verification.shrunk
                  ? ": the same grid, semantics and index maps with the blocks shrunk, so the host run stays quick; it checks correctness, never speed"
                  : "; it checks correctness, never speed") : ""
        wrapMode: Text.Wrap
        font.family: Theme.sans
        font.pixelSize: Theme.tinySize
        color: Theme.inkFaint
    }
}
