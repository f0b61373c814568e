pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Profile

// The honesty rule, extended to the models themselves: published timings
// of real TPU runs against what the simulator predicts for them, row by
// row, and how wrong each model is on the rows it was not fitted on.
ScrollPage {
    id: root
    signal back()
    signal openPlace(string place)

    // Read when the page is first shown, not when the window is built.
    property var table: ({})
    function loadTable() {
        if (visible && table.rows === undefined)
            table = Sim.validation()
    }
    onVisibleChanged: loadTable()
    Component.onCompleted: loadTable()
    readonly property var rows: table.rows || []
    readonly property var families: table.families || []
    readonly property var constants: table.constants || []
    readonly property var chips: [...new Set(rows.map(r => r.chip))]
    readonly property var sources: table.sources || []   // {text, rows}: each document once
    readonly property var timings: table.timings || []   // {text, rows}: each way of timing once
    readonly property int margin: Math.max(Theme.gapL, (availableWidth - Theme.contentWidth) / 2)

    // What each family's model is, in a sentence, for its summary card.
    readonly property var familyWhat: ({
        "matmul": "Pallas matmuls through the grid pipeline (each step the longest of its compute, its double-buffered copies and a fixed step time, and a launch per call); XLA's matmuls as one op at the attainable MXU and HBM rates.",
        "memory": "Copies, elementwise ops and fusions bound by HBM: their bytes at the attainable fraction of HBM's bandwidth, plus the least time of an op.",
        "host-link": "Copies between host memory and HBM: the bytes at the attainable fraction of the host link's bandwidth.",
        "collective": "The ring schedule of the collective model on the slice's torus, at the attainable fraction of the links' peak, plus the least time of a collective.",
        "attention-fwd": "Flash attention as its grid (blocks computed, causal blocks skipped, a head dim padded to 128, each step at least the grid-step overhead); XLA's attention as three ops.",
        "attention-bwd": "The backward pass as 2.5 times the forward's MXU work and twice its HBM traffic, over the same grid.",
        "attention-fwdbwd": "Forward and backward together, each as its own card describes."
    })

    function summaryOf(family) { return families.find(f => f.family === family) || ({}) }
    function rowsOf(family) { return rows.filter(r => r.family === family) }

    contentHeight: column.implicitHeight + Theme.gapXXL * 2

    Rectangle { width: root.width; height: Math.max(root.height, root.contentHeight); color: Theme.floor }

    ColumnLayout {
        id: column
        x: root.margin
        y: Theme.gapXL
        width: root.availableWidth - 2 * root.margin
        spacing: Theme.gapM

        PlainButton {
            text: "← back"; mono: true
            fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.inkMuted
            onClicked: root.back()
        }
        Text {
            Layout.fillWidth: true
            text: "How wrong the models are"
            font.family: Theme.sans; font.pixelSize: Theme.displaySize * 0.8; font.weight: Font.DemiBold
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        MonoText {
            Layout.fillWidth: true
            text: "published timings of real TPUs · " + root.chips.join(", ") + " · against the simulator's predictions"
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.px(860)
            text: "Every time the course predicts comes from these models, so each one is set against timings of real TPU runs that others have published, with their sources, family by family. A published time is a measurement on a real chip, but not yours: it never counts toward a gate. A few constants per chip (how much of each peak is attainable, the least time of a small op, Python's share of a call) are fitted on some rows; a third of every family, picked by a hash of the rows' ids, is kept out of every fit, and those held-out rows are the test. A row its own source contradicts is marked in doubt: no fit uses it, it is not among the held out, and its errors are shown on a line of their own. The error is predicted ÷ published − 1: below zero, the model predicts less time than the chip took."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }

        GridLayout {
            objectName: "validationFamilies"
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapM
            columns: width >= 2 * Theme.twoColumnMinimum + Theme.gapL ? 2 : 1
            columnSpacing: Theme.gapL
            rowSpacing: Theme.gapL
            Repeater {
                model: root.families
                delegate: ValidationModelCard {
                    required property var modelData
                    Layout.fillWidth: true
                    Layout.preferredWidth: 1
                    Layout.alignment: Qt.AlignTop
                    summary: modelData
                    what: root.familyWhat[modelData.family] || ""
                }
            }
        }

        // The learner's own profiles beside the families' summaries, before
        // the constants and the published rows: theirs is the measurement
        // that matters to them, and the rows run to hundreds.
        ProfileValidation {
            objectName: "validationProfiles"
            Layout.fillWidth: true
            onOpenAgain: path => { Profile.open(path); root.openPlace("profile") }
        }

        ValidationConstants {
            objectName: "validationConstants"
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapL
            constants: root.constants
        }

        Text {
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapXL
            text: "Every row"
            font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.px(860)
            text: "Hover a published badge for its source, how it was timed and the excerpt its number stands in, a predicted badge for the model's assumptions. A row timed on the device is compared with the predicted device time; a row timed from Python with the predicted call time, dispatch included."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }

        Repeater {
            model: root.families
            delegate: ColumnLayout {
                id: group
                required property var modelData
                Layout.fillWidth: true
                Layout.topMargin: Theme.gapL
                spacing: 0
                MonoText {
                    Layout.bottomMargin: Theme.gap
                    text: group.modelData.title + " · " + root.rowsOf(group.modelData.family).length + " rows"
                    color: Theme.accent
                }
                ValidationTableRow { Layout.fillWidth: true; header: true }
                Repeater {
                    model: root.rowsOf(group.modelData.family)
                    delegate: ValidationTableRow {
                        required property var modelData
                        objectName: "validationRow_" + modelData.id
                        Layout.fillWidth: true
                        row: modelData
                    }
                }
            }
        }

        Text {
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapXL
            text: root.sources.length === 1 ? "Source" : "Sources"
            font.family: Theme.sans; font.pixelSize: Theme.subheadingSize; font.weight: Font.DemiBold
            color: Theme.inkText
        }
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.px(860)
            text: "Each document once, with the rows taken from it; each row names its place in the document (its line, its key) in the table above."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        Repeater {
            model: root.sources
            delegate: CountedLine {
                objectName: "validationSource"
                mono: true
            }
        }
        Text {
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapXL
            text: "How they were timed"
            font.family: Theme.sans; font.pixelSize: Theme.subheadingSize; font.weight: Font.DemiBold
            color: Theme.inkText
        }
        Repeater {
            model: root.timings
            delegate: CountedLine {
                objectName: "validationTiming"
            }
        }
    }

    // A line of text and, after it, how many rows it stands for.
    component CountedLine: RowLayout {
        required property var modelData
        property bool mono: false
        Layout.fillWidth: true
        Layout.maximumWidth: Theme.px(1100)
        spacing: Theme.gapM
        Text {
            Layout.fillWidth: true
            text: parent.modelData.text
            font.family: parent.mono ? Theme.mono : Theme.sans
            font.pixelSize: parent.mono ? Theme.tinySize : Theme.smallSize
            lineHeight: 1.3
            color: Theme.inkMuted
            // Repository@commit paths have no spaces to break at.
            wrapMode: Text.WrapAtWordBoundaryOrAnywhere
        }
        MonoText {
            Layout.alignment: Qt.AlignTop
            text: parent.modelData.rows + (parent.modelData.rows === 1 ? " row" : " rows")
            color: Theme.inkFaint
            font.pixelSize: Theme.tinySize
        }
    }
}
