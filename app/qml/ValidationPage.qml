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

    // Read when the page is first shown, not when the window is built.
    property var table: ({})
    function loadTable() {
        if (visible && table.rows === undefined)
            table = Sim.validation()
    }
    onVisibleChanged: loadTable()
    Component.onCompleted: loadTable()
    readonly property var rows: table.rows || []
    readonly property var models: table.models || []
    readonly property var chips: [...new Set(rows.map(r => r.chip))]
    readonly property var sources: [...new Set(rows.map(r => r.source))]
    readonly property var timings: [...new Set(rows.map(r => r.timing))]
    readonly property int margin: Math.max(Theme.gapL, (availableWidth - Theme.contentWidth) / 2)

    // What each model is, in a sentence, for its summary card.
    readonly property var modelWhat: ({
        "pipeline": "Pallas kernels through the grid pipeline: each grid step takes the longest of its compute, its double-buffered copies and a fixed step time, and each call pays a fixed launch cost.",
        "roofline": "XLA's own matmul against the roofline: the larger of the time at the MXU's peak and the time HBM needs for the bytes. A floor with no launch or dispatch cost: where a call is short, that fixed cost is most of its time, and the floor falls far below it."
    })

    function summaryOf(model) { return models.find(m => m.model === model) || ({}) }
    function rowsOf(model) { return rows.filter(r => r.model === model) }

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
            text: "Every time the course predicts comes from these models, so each one is set against timings of real TPU runs that others have published, with their sources. A published time is a measurement on a real chip, but not yours: it never counts toward a gate. Some rows fixed one of the pipeline model's two constants (fitted); the rows kept out of the fit (held out) are the test. The error is predicted ÷ published − 1: below zero, the model predicts less time than the chip took."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }

        TwoColumns {
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapM
            Layout.preferredHeight: implicitHeight
            spacing: Theme.gapL
            ValidationModelCard { summary: root.summaryOf("pipeline"); what: root.modelWhat["pipeline"] }
            ValidationModelCard { summary: root.summaryOf("roofline"); what: root.modelWhat["roofline"] }
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
            text: "Hover a published badge for its source and how it was timed, a predicted badge for the model's assumptions. Every row times a call from Python, dispatch included."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }

        Repeater {
            model: root.models
            delegate: ColumnLayout {
                id: group
                required property var modelData
                Layout.fillWidth: true
                Layout.topMargin: Theme.gapL
                spacing: 0
                MonoText {
                    Layout.bottomMargin: Theme.gap
                    text: group.modelData.model + " · " + root.rowsOf(group.modelData.model).length + " rows"
                    color: Theme.accent
                }
                ValidationTableRow { Layout.fillWidth: true; header: true }
                Repeater {
                    model: root.rowsOf(group.modelData.model)
                    delegate: ValidationTableRow {
                        required property var modelData
                        objectName: "validationRow_" + modelData.id
                        Layout.fillWidth: true
                        row: modelData
                    }
                }
            }
        }

        ProfileValidation {
            objectName: "validationProfiles"
            Layout.fillWidth: true
        }

        Text {
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapXL
            text: root.sources.length === 1 ? "Source" : "Sources"
            font.family: Theme.sans; font.pixelSize: Theme.subheadingSize; font.weight: Font.DemiBold
            color: Theme.inkText
        }
        Repeater {
            model: root.sources
            delegate: MonoText {
                required property string modelData
                Layout.fillWidth: true
                text: modelData
                color: Theme.inkMuted
                font.pixelSize: Theme.tinySize
                // Repository@commit paths have no spaces to break at.
                wrapMode: Text.WrapAtWordBoundaryOrAnywhere
            }
        }
        Repeater {
            model: root.timings
            delegate: Text {
                required property string modelData
                Layout.fillWidth: true
                Layout.maximumWidth: Theme.px(860)
                text: "Timed as: " + modelData + "."
                font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }
        }
    }
}
