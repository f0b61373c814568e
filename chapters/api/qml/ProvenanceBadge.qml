import QtQuick
import TpuCourse.Ui

// Says what a number is: predicted, verified off-chip or measured. The
// details (chip, dtype, shapes, model, assumptions, date) show on hover or focus.
Rectangle {
    id: root
    property string kind: "predicted"
    property string details: ""
    // The figure it marks is pointed at: its card opens as for the badge.
    property bool figurePointed: false

    implicitWidth: label.implicitWidth + Theme.gapM
    implicitHeight: label.implicitHeight + Theme.gap / 2
    radius: height / 2
    color: "transparent"
    border.color: Theme.provenanceColor(kind)
    border.width: 1
    activeFocusOnTab: details.length > 0
    Accessible.role: Accessible.StaticText
    Accessible.name: Provenance.label(kind) + (details ? ": " + details : "")

    MonoText {
        id: label
        anchors.centerIn: parent
        text: Provenance.label(root.kind)
        color: Theme.provenanceColor(root.kind)
        font.pixelSize: Theme.tinySize
    }
    HoverHandler { id: hover }
    // The card is made the first time it is wanted: a page shows many
    // badges and few are ever pointed at, and the stack's first screen
    // then loads without Qt Quick Controls.
    readonly property bool cardWanted: details.length > 0 && (hover.hovered || activeFocus || figurePointed)
    property bool cardMade: false
    onCardWantedChanged: if (cardWanted) cardMade = true
    Loader {
        active: root.cardMade
        source: "ExplainCard.qml"
        onLoaded: {
            item.target = root
            item.shown = Qt.binding(() => root.cardWanted)
            item.text = Qt.binding(() => root.details)
        }
    }
    FocusFrame {}
}
