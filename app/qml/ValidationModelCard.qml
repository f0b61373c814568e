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
        GridLayout {
            Layout.fillWidth: true
            columns: 4
            columnSpacing: Theme.gapM
            rowSpacing: Theme.gap

            Item { Layout.fillWidth: true; Layout.minimumWidth: Theme.px(72); implicitHeight: 1 }
            Caption { Layout.preferredWidth: Theme.px(48); horizontalAlignment: Text.AlignRight; text: "rows" }
            Caption { Layout.preferredWidth: Theme.px(120); horizontalAlignment: Text.AlignRight; text: "median |error|" }
            Caption { Layout.preferredWidth: Theme.px(120); horizontalAlignment: Text.AlignRight; text: "worst |error|" }

            Text {
                Layout.fillWidth: true
                text: "held out"
                font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
                color: Theme.inkText
            }
            MonoText {
                objectName: "validationHeldOut_" + root.model
                Layout.preferredWidth: Theme.px(48)
                horizontalAlignment: Text.AlignRight
                text: String(root.summary.heldOut || 0)
                color: Theme.inkText
                font.pixelSize: Theme.subheadingSize
            }
            MonoText {
                objectName: "validationMedian_" + root.model
                Layout.preferredWidth: Theme.px(120)
                horizontalAlignment: Text.AlignRight
                text: root.summary.heldOutMedianText || ""
                color: Theme.inkText
                font.pixelSize: Theme.subheadingSize
            }
            MonoText {
                objectName: "validationWorst_" + root.model
                Layout.preferredWidth: Theme.px(120)
                horizontalAlignment: Text.AlignRight
                text: root.summary.heldOutWorstText || ""
                color: Theme.inkText
                font.pixelSize: Theme.subheadingSize
            }

            Text {
                Layout.fillWidth: true
                text: "fitted"
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                color: Theme.inkMuted
            }
            MonoText {
                objectName: "validationFitted_" + root.model
                Layout.preferredWidth: Theme.px(48)
                horizontalAlignment: Text.AlignRight
                text: String(root.summary.fitted || 0)
                color: Theme.inkMuted
                font.pixelSize: Theme.bodySize
            }
            MonoText {
                objectName: "validationFittedMedian_" + root.model
                Layout.preferredWidth: Theme.px(120)
                horizontalAlignment: Text.AlignRight
                text: root.summary.fittedMedianText || ""
                color: Theme.inkMuted
                font.pixelSize: Theme.bodySize
            }
            MonoText {
                objectName: "validationFittedWorst_" + root.model
                Layout.preferredWidth: Theme.px(120)
                horizontalAlignment: Text.AlignRight
                text: root.summary.fittedWorstText || ""
                color: Theme.inkMuted
                font.pixelSize: Theme.bodySize
            }

            Text {
                Layout.fillWidth: true
                visible: root.inDoubt > 0
                text: "in doubt"
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                color: Theme.inkMuted
            }
            MonoText {
                objectName: "validationInDoubt_" + root.model
                visible: root.inDoubt > 0
                Layout.preferredWidth: Theme.px(48)
                horizontalAlignment: Text.AlignRight
                text: String(root.inDoubt)
                color: Theme.inkMuted
                font.pixelSize: Theme.bodySize
            }
            MonoText {
                objectName: "validationInDoubtMedian_" + root.model
                visible: root.inDoubt > 0
                Layout.preferredWidth: Theme.px(120)
                horizontalAlignment: Text.AlignRight
                text: root.summary.inDoubtMedianText || ""
                color: Theme.inkMuted
                font.pixelSize: Theme.bodySize
            }
            MonoText {
                objectName: "validationInDoubtWorst_" + root.model
                visible: root.inDoubt > 0
                Layout.preferredWidth: Theme.px(120)
                horizontalAlignment: Text.AlignRight
                text: root.summary.inDoubtWorstText || ""
                color: Theme.inkMuted
                font.pixelSize: Theme.bodySize
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
}
