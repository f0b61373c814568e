import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One priced figure: what it is, the naive and streaming values side by
// side (or one value), and its provenance badge.
RowLayout {
    id: root
    property string label: ""
    property string naive: ""
    property string flash: ""
    property string single: ""      // one value instead of the pair
    property string note: ""
    property var provenance: ({})
    property string idName: ""      // objectName stem for the value texts
    spacing: Theme.gapM

    Text {
        Layout.preferredWidth: Theme.px(220)
        text: root.label
        font.family: Theme.sans
        font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        elide: Text.ElideRight
    }
    MonoText {
        objectName: root.idName + (root.single ? "" : "Naive")
        Layout.preferredWidth: Theme.px(110)
        horizontalAlignment: Text.AlignRight
        text: root.single || root.naive
        color: root.single ? Theme.predicted : Theme.inkText
        font.pixelSize: Theme.bodySize
    }
    MonoText {
        objectName: root.idName + "Flash"
        visible: !root.single
        Layout.preferredWidth: Theme.px(110)
        horizontalAlignment: Text.AlignRight
        text: root.flash
        color: Theme.predicted
        font.pixelSize: Theme.bodySize
    }
    ProvenanceBadge { kind: root.provenance.kind || "predicted"; details: root.provenance.details || "" }
    Text {
        Layout.fillWidth: true
        text: root.note
        font.family: Theme.sans
        font.pixelSize: Theme.tinySize
        color: Theme.inkFaint
        elide: Text.ElideRight
    }
}
