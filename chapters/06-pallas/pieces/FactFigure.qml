import QtQuick
import TpuCourse.Ui

// One chip figure beside the limit: its name, its value and its badge; the
// badge's card gives the figure's source and, for an assumption, why.
Row {
    id: root
    property string label: ""
    property var fact: ({})          // simqml::fact: {text, source, note, assumption}
    property string chip: ""
    spacing: Theme.gap
    height: Math.max(caption.implicitHeight, badge.implicitHeight) + Theme.gap

    Text {
        id: caption
        anchors.verticalCenter: parent.verticalCenter
        text: root.label
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
    }
    MonoText {
        objectName: root.objectName + "Value"
        anchors.verticalCenter: parent.verticalCenter
        text: root.fact.text || ""
        color: Theme.inkText
    }
    ProvenanceBadge {
        id: badge
        anchors.verticalCenter: parent.verticalCenter
        kind: "predicted"
        details: "predicted · " + root.chip + "\n" + root.label + ": " + (root.fact.text || "")
                 + "\nsource: " + (root.fact.source || "")
                 + (root.fact.note ? "\n" + (root.fact.assumption ? "assumes: " : "") + root.fact.note : "")
    }
}
