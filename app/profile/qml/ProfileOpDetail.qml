import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One op, whole: what it is, what the device measured, what the simulator
// predicts and on what assumptions, and the way to its HLO.
Rectangle {
    id: root
    property var detail: ({})
    readonly property bool chosen: detail.name !== undefined
    signal openInXray()
    implicitHeight: body.implicitHeight + 2 * Theme.gapL
    radius: Theme.radius
    color: Theme.card
    border.color: Theme.cardBorder

    ColumnLayout {
        id: body
        x: Theme.gapL
        y: Theme.gapL
        width: root.width - 2 * Theme.gapL
        spacing: Theme.gap
        Text {
            Layout.fillWidth: true
            text: root.chosen ? root.detail.name : "Pick an op"
            font.family: root.chosen ? Theme.mono : Theme.sans
            font.pixelSize: Theme.subheadingSize; font.weight: Font.DemiBold
            color: Theme.inkText
            wrapMode: Text.WrapAtWordBoundaryOrAnywhere
        }
        Text {
            Layout.fillWidth: true
            visible: !root.chosen
            text: "Click a row of the table, a bar of the op line or a dot on the roofline: its measured time, its prediction and the reasons for the difference show here."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        MonoText {
            Layout.fillWidth: true
            visible: root.chosen
            text: (root.detail.kind || "") + (root.detail.kernel ? " · kernel " + root.detail.kernel : "")
            color: Theme.inkMuted
            font.pixelSize: Theme.tinySize
            wrapMode: Text.WrapAtWordBoundaryOrAnywhere
        }
        Row {
            visible: root.chosen
            spacing: Theme.gap
            ProvenanceBadge { kind: "measured" }
            Text {
                width: body.width - x - Theme.gapXL
                text: root.detail.measured || ""
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: Theme.measured
                wrapMode: Text.WordWrap
            }
        }
        Text {
            Layout.fillWidth: true
            visible: root.chosen && ((root.detail.cost || "") !== "" || (root.detail.transfer || "") !== "")
            text: [root.detail.cost, root.detail.transfer].filter(s => s).join(". ")
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        Row {
            visible: root.chosen
            spacing: Theme.gap
            ProvenanceBadge { kind: "predicted"; visible: root.detail.predictedKnown === true }
            Text {
                width: body.width - x - Theme.gapXL
                text: root.detail.predictedKnown
                      ? root.detail.predicted + " a run, " + root.detail.bound + "-bound: " + root.detail.model
                        + (root.detail.error !== undefined ? " (" + root.detail.errorText + " against the measurement)" : "")
                      : "Not predicted: " + (root.detail.reason || "")
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: root.detail.predictedKnown ? Theme.predicted : Theme.inkMuted
                wrapMode: Text.WordWrap
            }
        }
        Repeater {
            model: root.chosen ? root.detail.assumptions || [] : []
            delegate: Text {
                required property string modelData
                Layout.fillWidth: true
                text: "· " + modelData
                font.family: Theme.sans; font.pixelSize: Theme.tinySize; lineHeight: 1.2
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }
        }
        Text {
            Layout.fillWidth: true
            visible: root.chosen && (root.detail.hloCost || "") !== ""
            text: root.detail.hloCost || ""
            font.family: Theme.sans; font.pixelSize: Theme.tinySize; lineHeight: 1.2
            color: Theme.predicted
            wrapMode: Text.WordWrap
        }
        MonoText {
            Layout.fillWidth: true
            visible: root.chosen && (root.detail.tfOp || "") !== ""
            text: "from " + (root.detail.tfOp || "") + ((root.detail.source || "") !== "" ? "\n   at " + root.detail.source : "")
            color: Theme.inkMuted
            font.pixelSize: Theme.tinySize
            wrapMode: Text.WrapAtWordBoundaryOrAnywhere
        }
        Rectangle {
            Layout.fillWidth: true
            visible: root.chosen && (root.detail.hlo || "") !== ""
            implicitHeight: hlo.implicitHeight + 2 * Theme.gap
            radius: Theme.radius
            color: Theme.floor
            MonoText {
                id: hlo
                x: Theme.gap
                y: Theme.gap
                width: parent.width - 2 * Theme.gap
                text: root.detail.hlo || ""
                color: Theme.inkText
                font.pixelSize: Theme.tinySize
                wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                maximumLineCount: 6
                elide: Text.ElideRight
            }
        }
        PlainButton {
            objectName: "profileOpenXray"
            visible: root.chosen && root.detail.hasHlo === true
            text: "see it in the IR x-ray →"
            onClicked: root.openInXray()
        }
    }
}
