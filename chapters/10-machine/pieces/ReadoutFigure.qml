import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One figure of the selected op: what it is, its value, and its badge. A
// figure the model could not compute says so and wears no badge (its room
// is kept, so the row does not jump).
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
    readonly property bool computed: root.value !== ""
    MonoText {
        objectName: root.valueName
        text: root.computed ? root.value : "not computed"
        color: root.computed ? root.valueColor : Theme.inkFaint
        font.pixelSize: root.computed ? Theme.subheadingSize : Theme.smallSize
        Layout.preferredHeight: valueRoom.height
        verticalAlignment: Text.AlignVCenter
        FontMetrics { id: valueRoom; font.family: Theme.mono; font.pixelSize: Theme.subheadingSize }
    }
    ProvenanceBadge {
        opacity: root.computed ? 1 : 0
        kind: root.provenance ? (root.provenance.kind || "predicted") : "predicted"
        details: root.provenance ? (root.provenance.details || "") : ""
    }
}
