import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One op of the playground: its name and colour, its shape controls, and its
// predicted time. Focus anywhere inside (or a click) selects it.
FocusScope {
    id: root
    property string opId: ""
    property string title: ""
    property string note: ""
    property color swatch: Theme.seriesColor(0)
    property var result: ({})
    property bool selected: false
    default property alias controls: controlFlow.data
    signal picked()

    implicitHeight: column.implicitHeight + Theme.gapM * 2
    onActiveFocusChanged: if (activeFocus) picked()

    Rectangle {
        anchors.fill: parent
        radius: Theme.radius
        color: root.selected ? Theme.cardHover : Theme.card
        border.color: root.selected ? root.swatch : Theme.cardBorder
        border.width: root.selected ? 2 : 1
        MouseArea { anchors.fill: parent; onClicked: root.picked() }
    }

    ColumnLayout {
        id: column
        anchors.left: parent.left; anchors.right: parent.right
        anchors.top: parent.top
        anchors.margins: Theme.gapM
        spacing: Theme.gap

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gap
            Rectangle {
                width: Theme.gapM * 3 / 4; height: width; radius: width / 2
                color: root.swatch
            }
            Text {
                text: root.title
                font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
                color: Theme.inkText
            }
            Text {
                Layout.fillWidth: true
                text: root.note
                wrapMode: Text.Wrap
                font.family: Theme.sans; font.pixelSize: Theme.tinySize
                color: Theme.inkFaint
            }
            MonoText {
                objectName: root.opId + "Time"
                // A time the model could not compute is not a prediction: no badge.
                text: root.result.time || "not computed"
                color: root.result.time ? Theme.inkText : Theme.inkFaint
            }
            MonoText {
                text: root.result.resource || ""
                color: root.result.bound === "compute" ? Theme.inkText : Theme.inkMuted
                font.pixelSize: Theme.tinySize
            }
            ProvenanceBadge {
                opacity: root.result.time ? 1 : 0
                kind: root.result.provenance ? root.result.provenance.kind : "predicted"
                details: root.result.provenance ? root.result.provenance.details : ""
            }
        }
        Flow {
            id: controlFlow
            Layout.fillWidth: true
            spacing: Theme.gapM
        }
        Text {
            visible: !!root.result.error
            Layout.fillWidth: true
            text: root.result.error || ""
            wrapMode: Text.Wrap
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.failed
        }
    }
}
