import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One family's errors against the published timings: the rows kept out of
// every fit (the test) apart from the rows the constants were fitted on,
// and apart again the rows their own sources contradict.
Rectangle {
    id: root
    property var summary: ({})
    property string what: ""
    readonly property string model: summary.family || ""
    readonly property var chips: summary.chips || []
    readonly property int inDoubt: summary.inDoubt || 0

    implicitHeight: body.implicitHeight + 2 * Theme.gapL
    radius: Theme.radius
    color: Theme.card
    border.color: Theme.cardBorder

    ColumnLayout {
        id: body
        x: Theme.gapL; y: Theme.gapL
        width: parent.width - 2 * Theme.gapL
        spacing: Theme.gapM

        MonoText {
            Layout.fillWidth: true
            text: (root.summary.title || "") + " · " + root.chips.join(", ")
            color: Theme.accent
            font.pixelSize: Theme.bodySize
            wrapMode: Text.Wrap
        }
        Text {
            Layout.fillWidth: true
            text: root.what
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.25
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        ColumnLayout {
            Layout.fillWidth: true
            spacing: Theme.gap

            RowLayout {
                spacing: Theme.gapM
                Item { Layout.fillWidth: true; Layout.minimumWidth: Theme.px(72); implicitHeight: 1 }
                Caption { Layout.preferredWidth: Theme.px(48); horizontalAlignment: Text.AlignRight; text: "rows" }
                Caption { Layout.preferredWidth: Theme.px(120); horizontalAlignment: Text.AlignRight; text: "median |error|" }
                Caption { Layout.preferredWidth: Theme.px(120); horizontalAlignment: Text.AlignRight; text: "worst |error|" }
            }
            ErrorLine {
                model: root.model
                strong: true
                label: "held out"
                names: ["validationHeldOut_", "validationMedian_", "validationWorst_"]
                values: [String(root.summary.heldOut || 0), root.summary.heldOutMedianText || "", root.summary.heldOutWorstText || ""]
            }
            ErrorLine {
                model: root.model
                label: "fitted"
                names: ["validationFitted_", "validationFittedMedian_", "validationFittedWorst_"]
                values: [String(root.summary.fitted || 0), root.summary.fittedMedianText || "", root.summary.fittedWorstText || ""]
            }
            ErrorLine {
                model: root.model
                visible: root.inDoubt > 0
                label: "in doubt"
                names: ["validationInDoubt_", "validationInDoubtMedian_", "validationInDoubtWorst_"]
                values: [String(root.inDoubt), root.summary.inDoubtMedianText || "", root.summary.inDoubtWorstText || ""]
            }
        }
        Text {
            objectName: "validationInDoubtNote_" + root.model
            Layout.fillWidth: true
            visible: root.inDoubt > 0
            text: root.inDoubt + (root.inDoubt === 1 ? " row is" : " rows are")
                  + " in doubt, their own sources contradicting them: no fit uses them, they are not counted with the held out, and each says why."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.25
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        Text {
            Layout.fillWidth: true
            visible: (root.summary.expressible || 0) < (root.summary.rows || 0)
            text: ((root.summary.rows || 0) - (root.summary.expressible || 0)) + " of " + (root.summary.rows || 0)
                  + " rows are runs the models cannot express yet; each says why."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.25
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
    }

    // One line of the summary: its label, then its rows, median and worst
    // under the captions; `names` are the three figures' object names.
    component ErrorLine: RowLayout {
        id: line
        property string label: ""
        property bool strong: false
        property var names: []
        property var values: []
        property string model: ""
        Layout.fillWidth: true
        spacing: Theme.gapM
        Text {
            Layout.fillWidth: true
            text: line.label
            font.family: Theme.sans; font.pixelSize: Theme.bodySize
            font.weight: line.strong ? Font.DemiBold : Font.Normal
            color: line.strong ? Theme.inkText : Theme.inkMuted
        }
        Figure { objectName: line.names[0] + line.model; Layout.preferredWidth: Theme.px(48); strong: line.strong; text: line.values[0] }
        Figure { objectName: line.names[1] + line.model; strong: line.strong; text: line.values[1] }
        Figure { objectName: line.names[2] + line.model; strong: line.strong; text: line.values[2] }
    }

    component Figure: MonoText {
        property bool strong: false
        Layout.preferredWidth: Theme.px(120)
        horizontalAlignment: Text.AlignRight
        color: strong ? Theme.inkText : Theme.inkMuted
        font.pixelSize: strong ? Theme.subheadingSize : Theme.bodySize
    }
}
