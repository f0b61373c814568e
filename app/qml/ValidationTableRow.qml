import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One row of the validation table: what ran and where, the published time
// (someone else's measurement, its source on the badge's card), the
// prediction, the error and whether the row was fitted. With `header` set
// it draws the column titles at the same widths.
Rectangle {
    id: root
    property var row: ({})
    property bool header: false
    readonly property string rowId: row.id || ""

    // The columns after the first, which takes what is left.
    readonly property int chipWidth: Theme.px(80)
    readonly property int shapeWidth: Theme.px(170)
    readonly property int stepsWidth: Theme.px(90)
    readonly property int timeWidth: Theme.px(124)
    readonly property int errorWidth: Theme.px(96)
    readonly property int kindWidth: Theme.px(80)

    implicitHeight: cells.implicitHeight + (header ? Theme.gap : 2 * Theme.gapM)
    color: !header && hover.hovered ? Theme.cardHover : "transparent"
    HoverHandler { id: hover; enabled: !root.header }

    Rectangle {
        anchors.bottom: parent.bottom
        width: parent.width
        height: Theme.hairline
        color: Theme.cardBorder
    }

    RowLayout {
        id: cells
        x: Theme.gapM
        y: root.header ? 0 : Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gapM

        // What ran, and the row's id. It takes what the fixed columns
        // leave, rather than its text's unwrapped width.
        ColumnLayout {
            Layout.fillWidth: true
            Layout.preferredWidth: Theme.px(160)
            Layout.alignment: Qt.AlignTop
            spacing: 2
            Text {
                Layout.fillWidth: true
                text: root.header ? "what ran" : (root.row.what || "")
                font.family: Theme.sans
                font.pixelSize: Theme.smallSize
                color: root.header ? Theme.inkMuted : Theme.inkText
                wrapMode: Text.WordWrap
            }
            Text {
                objectName: "validationWhyNot_" + root.rowId
                Layout.fillWidth: true
                visible: !root.header && root.row.expressible === false
                text: "cannot be predicted yet: " + (root.row.notExpressible || "")
                font.family: Theme.sans
                font.pixelSize: Theme.tinySize
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }
            MonoText {
                Layout.fillWidth: true
                visible: !root.header
                text: root.rowId
                color: Theme.inkFaint
                font.pixelSize: Theme.tinySize
                wrapMode: Text.WrapAtWordBoundaryOrAnywhere
            }
        }
        ColumnLayout {
            Layout.preferredWidth: root.chipWidth
            Layout.minimumWidth: root.chipWidth
            Layout.maximumWidth: root.chipWidth
            Layout.alignment: Qt.AlignTop
            spacing: 2
            Caption { visible: root.header; text: "chip" }
            MonoText { visible: !root.header; text: root.row.chip || ""; color: Theme.inkText }
            MonoText { visible: !root.header; text: root.row.dtype || ""; color: Theme.inkMuted; font.pixelSize: Theme.tinySize }
        }
        ColumnLayout {
            Layout.preferredWidth: root.shapeWidth
            Layout.minimumWidth: root.shapeWidth
            Layout.maximumWidth: root.shapeWidth
            Layout.alignment: Qt.AlignTop
            spacing: 2
            Caption { visible: root.header; text: "shape" }
            MonoText {
                Layout.fillWidth: true
                visible: !root.header
                text: root.row.shape || ""
                color: Theme.inkText
                wrapMode: Text.WrapAtWordBoundaryOrAnywhere
            }
            MonoText {
                Layout.fillWidth: true
                visible: !root.header
                text: (root.row.blocks ? root.row.blocks + " · " : "") + (root.row.timedOnDevice ? "timed on device" : "timed from Python")
                wrapMode: Text.Wrap
                color: Theme.inkMuted
                font.pixelSize: Theme.tinySize
            }
        }
        Item {
            Layout.preferredWidth: root.stepsWidth
            Layout.minimumWidth: root.stepsWidth
            Layout.alignment: Qt.AlignTop
            implicitHeight: stepsText.implicitHeight
            Caption {
                visible: root.header
                width: parent.width
                horizontalAlignment: Text.AlignRight
                text: "grid steps"
            }
            MonoText {
                id: stepsText
                objectName: "validationSteps_" + root.rowId
                visible: !root.header
                width: parent.width
                horizontalAlignment: Text.AlignRight
                text: root.row.gridStepsText || ""
                color: Theme.inkText
            }
        }
        ColumnLayout {
            Layout.preferredWidth: root.timeWidth
            Layout.minimumWidth: root.timeWidth
            Layout.maximumWidth: root.timeWidth
            Layout.alignment: Qt.AlignTop
            spacing: Theme.gap / 2
            Caption { Layout.alignment: Qt.AlignRight; visible: root.header; text: "published" }
            MonoText {
                objectName: "validationPublished_" + root.rowId
                Layout.alignment: Qt.AlignRight
                visible: !root.header
                text: root.row.published || ""
                color: Theme.inkText
                font.pixelSize: Theme.bodySize
            }
            ProvenanceBadge {
                objectName: "validationPublishedBadge_" + root.rowId
                Layout.alignment: Qt.AlignRight
                visible: !root.header
                kind: "published"
                details: root.row.publishedDetails || ""
            }
        }
        ColumnLayout {
            Layout.preferredWidth: root.timeWidth
            Layout.minimumWidth: root.timeWidth
            Layout.maximumWidth: root.timeWidth
            Layout.alignment: Qt.AlignTop
            spacing: Theme.gap / 2
            Caption { Layout.alignment: Qt.AlignRight; visible: root.header; text: "predicted" }
            MonoText {
                objectName: "validationPredicted_" + root.rowId
                Layout.alignment: Qt.AlignRight
                visible: !root.header
                text: root.row.predicted || ""
                color: Theme.predicted
                font.pixelSize: Theme.bodySize
            }
            ProvenanceBadge {
                Layout.alignment: Qt.AlignRight
                visible: !root.header && root.row.expressible !== false
                kind: "predicted"
                details: root.row.predictedDetails || ""
            }
        }
        Item {
            Layout.preferredWidth: root.errorWidth
            Layout.minimumWidth: root.errorWidth
            Layout.alignment: Qt.AlignTop
            implicitHeight: errorText.implicitHeight
            Caption {
                visible: root.header
                width: parent.width
                horizontalAlignment: Text.AlignRight
                text: "error"
            }
            MonoText {
                id: errorText
                objectName: "validationError_" + root.rowId
                visible: !root.header
                width: parent.width
                horizontalAlignment: Text.AlignRight
                text: root.row.errorText || ""
                color: Theme.inkText
                font.pixelSize: Theme.bodySize
            }
        }
        Item {
            Layout.preferredWidth: root.kindWidth
            Layout.minimumWidth: root.kindWidth
            Layout.alignment: Qt.AlignTop
            implicitHeight: kindText.implicitHeight
            Caption { visible: root.header; text: "row" }
            MonoText {
                id: kindText
                objectName: "validationKind_" + root.rowId
                visible: !root.header
                width: parent.width
                text: root.row.expressible === false ? "—" : root.row.doubt ? "in doubt" : root.row.fitted ? "fitted" : root.row.heldOut ? "held out" : "tested"
                color: root.row.fitted ? Theme.inkMuted : Theme.inkText
            }
        }
    }
}
