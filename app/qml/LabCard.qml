import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend
import TpuCourse.Reading

// One lab on its chapter's page: the goal, the commands to run on a TPU VM,
// what the app checks, the imported runs with their badges and, for a gate's
// lab, every attempt with its verdict and reasons, failures included.
Rectangle {
    id: root
    objectName: "labCard_" + (lab.id || "")
    property var lab: ({})
    property bool showEveryRecordChecks: true
    signal imported()

    implicitHeight: body.implicitHeight + Theme.gapL * 2
    radius: Theme.radius
    color: Theme.ink
    property var lastImport: null

    RememberingFileDialog {
        id: picker
        kind: "records"
        purpose: "Import a run record for " + root.lab.id
        nameFilters: ["Run records (*.json)", "All files (*)"]
        onAccepted: LabRuns.importRun(String(selectedFile), root.lab.id)
    }
    Connections {
        target: LabRuns
        function onRunImported(tag, result) {
            if (tag !== root.lab.id)
                return
            root.lastImport = result
            root.imported()
        }
    }

    ColumnLayout {
        id: body
        x: Theme.gapL; y: Theme.gapL
        width: parent.width - 2 * Theme.gapL
        spacing: Theme.gap

        RowLayout {
            Layout.fillWidth: true
            MonoText { text: root.lab.id + " · lab" + (root.lab.gate ? " · gate " + root.lab.gate : ""); color: Theme.accent }
            Item { Layout.fillWidth: true }
            PlainButton {
                objectName: "importButton_" + root.lab.id
                text: "import a run record…"
                mono: true
                fillColor: Theme.accent; hoverColor: Theme.accentHover; textColor: Theme.ink
                onClicked: picker.openHere()
            }
        }
        Text {
            Layout.fillWidth: true
            text: root.lab.name || ""
            font.family: Theme.sans; font.pixelSize: Theme.subheadingSize; font.weight: Font.DemiBold
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: ProseMeasure.width(font.pixelSize, Theme.cardMeasure)
            text: root.lab.goal || ""
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        MonoText { text: "on a TPU VM, in the labs copied over (~/labs):"; color: Theme.inkFaint; Layout.topMargin: Theme.gap }
        Repeater {
            model: root.lab.commands || []
            delegate: ShellCommand {
                required property string modelData
                Layout.fillWidth: true
                command: modelData
            }
        }
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: ProseMeasure.width(font.pixelSize, Theme.cardMeasure)
            Layout.topMargin: Theme.gap
            text: "What the app checks: " + (root.lab.checks || "")
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        // What every import checks, said once on the Labs page and here on a chapter's cards.
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: ProseMeasure.width(font.pixelSize, Theme.cardMeasure)
            visible: root.showEveryRecordChecks && text !== ""
            text: root.lab.checksOnEveryRecord || ""
            font.family: Theme.sans; font.pixelSize: Theme.tinySize; lineHeight: 1.3
            color: Theme.inkFaint
            wrapMode: Text.WordWrap
        }

        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: ProseMeasure.width(font.pixelSize, Theme.cardMeasure)
            visible: root.lastImport !== null
            text: root.lastImport ? (root.lastImport.stored ? root.lastImport.summary
                                                            : "Not imported: " + root.lastImport.problems.join(" ")) : ""
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: root.lastImport && root.lastImport.stored ? Theme.measured : Theme.failed
            wrapMode: Text.WordWrap
        }

        MonoText {
            Layout.topMargin: Theme.gap
            text: (root.lab.runs || []).length === 0 ? "no runs imported yet" : "runs imported"
            color: Theme.inkFaint
        }
        Repeater {
            model: root.lab.runs || []
            delegate: RowLayout {
                id: run
                required property var modelData
                Layout.fillWidth: true
                spacing: Theme.gapM
                ProvenanceBadge {
                    kind: run.modelData.kind
                    details: run.modelData.chip + " · " + run.modelData.dtype + " · " + run.modelData.shapes + " · " + run.modelData.date
                             + (run.modelData.example ? "\nan example record shipped with the course: it never counts" : "")
                }
                MonoText {
                    Layout.fillWidth: true
                    text: "#" + run.modelData.id + " · " + run.modelData.chip + " · " + run.modelData.shapes
                          + (run.modelData.medianS !== undefined ? " · median " + (run.modelData.medianS * 1e6).toFixed(1) + " µs" : "")
                          + (run.modelData.baselineMedianS !== undefined ? " vs XLA " + (run.modelData.baselineMedianS * 1e6).toFixed(1) + " µs" : "")
                          + (run.modelData.correct ? " · correct" : " · NOT correct")
                          + (run.modelData.example ? " · example" : "")
                    color: run.modelData.example ? Theme.inkFaint : Theme.inkText
                    elide: Text.ElideRight
                }
            }
        }

        MonoText {
            Layout.topMargin: Theme.gap
            visible: !!root.lab.gate
            text: (root.lab.attempts || []).length === 0 ? "no attempt at " + root.lab.gate + " yet" : "attempts at " + root.lab.gate + ", all kept"
            color: Theme.inkFaint
        }
        Repeater {
            model: root.lab.attempts || []
            delegate: ColumnLayout {
                id: attempt
                required property var modelData
                Layout.fillWidth: true
                spacing: 2
                MonoText {
                    text: (attempt.modelData.passed ? "✓ passed" : "✗ not passed") + " · attempt " + attempt.modelData.id + " · " + attempt.modelData.judgedAt + " · record #" + attempt.modelData.record
                    color: attempt.modelData.passed ? Theme.measured : Theme.failed
                }
                Repeater {
                    model: attempt.modelData.reasons
                    delegate: Text {
                        required property string modelData
                        Layout.fillWidth: true
                        Layout.maximumWidth: ProseMeasure.width(font.pixelSize, Theme.cardMeasure)
                        leftPadding: Theme.gapM
                        text: "· " + modelData
                        font.family: Theme.sans; font.pixelSize: Theme.smallSize
                        color: Theme.inkMuted
                        wrapMode: Text.WordWrap
                    }
                }
            }
        }
    }
}
