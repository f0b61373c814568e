import QtQuick
import QtQuick.Controls
import TpuCourse.Ui

// Says what a number is: predicted, verified off-chip or measured. The
// details (chip, dtype, shapes, model, assumptions, date) show on hover or focus.
Rectangle {
    id: root
    property string kind: "predicted"
    property string details: ""

    implicitWidth: label.implicitWidth + Theme.gapM
    implicitHeight: label.implicitHeight + Theme.gap / 2
    radius: height / 2
    color: "transparent"
    border.color: Theme.provenanceColor(kind)
    border.width: 1
    activeFocusOnTab: details.length > 0
    Accessible.role: Accessible.StaticText
    Accessible.name: Theme.provenanceLabel(kind) + (details ? ": " + details : "")

    MonoText {
        id: label
        anchors.centerIn: parent
        text: Theme.provenanceLabel(root.kind)
        color: Theme.provenanceColor(root.kind)
        font.pixelSize: Theme.tinySize
    }
    HoverHandler { id: hover }
    ExplainCard {
        target: root
        shown: hover.hovered || root.activeFocus
        text: root.details
    }
    FocusFrame {}
}
