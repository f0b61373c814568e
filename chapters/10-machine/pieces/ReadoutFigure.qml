import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One figure of the selected op: what it is, its value, and its badge.
ColumnLayout {
    id: root
    property string label: ""
    property string value: ""
    property string valueName: ""   // objectName of the value, for tests
    property var provenance: ({})
    property color valueColor: Theme.inkText
    spacing: Theme.gap / 2

    Text {
        text: root.label
        font.family: Theme.sans; font.pixelSize: Theme.tinySize
        color: Theme.inkMuted
    }
    MonoText {
        objectName: root.valueName
        text: root.value || "—"
        color: root.valueColor
        font.pixelSize: Theme.subheadingSize
    }
    ProvenanceBadge {
        kind: root.provenance ? (root.provenance.kind || "predicted") : "predicted"
        details: root.provenance ? (root.provenance.details || "") : ""
    }
}
