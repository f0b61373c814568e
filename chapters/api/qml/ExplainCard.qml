pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import TpuCourse.Ui

// The one card that explains a thing on hover or focus: a live value, a
// badge, a scrub number, a cell of a map. It opens beside what it explains
// (below it, or above when the window has no room below) and is never
// empty: with no text it stays closed. A text in libtpusim's provenance
// form ("predicted · v5e · bf16", then one fact a line) gets its first
// line in the provenance colour and its assumptions set apart.
ToolTip {
    id: root
    // What it explains, and the part of it (in its coordinates) to sit beside.
    property Item target: parent
    property rect targetRect: Qt.rect(0, 0, target ? target.width : 0, target ? target.height : 0)
    property bool shown: false
    property string heading: ""
    // To the right of the target rather than below it: for a map, whose
    // neighbouring cells the learner is about to point at.
    property bool beside: false

    // A card shared by many items: opened beside `item` (the whole of it)
    // with `text`, and closed only by the item it is open for, so moving
    // from one item to the next never closes the next one's card.
    function showFor(item, text) {
        target = item
        heading = ""
        root.text = text || ""
        targetRect = Qt.rect(0, 0, item.width, item.height)
        shown = true
    }
    function hideFor(item) {
        if (target === item)
            shown = false
    }

    // Split only while shown: every badge and scrub number has a card, and
    // a card not shown should cost nothing (its lines make its Text items).
    readonly property var lines: shown ? text.split("\n").filter(l => l.trim() !== "") : []
    readonly property string kind: {
        const first = lines.length ? lines[0] : ""
        if (first.startsWith("predicted")) return "predicted"
        if (first.startsWith("verified")) return "verified"
        if (first.startsWith("measured")) return "measured"
        if (first.startsWith("published")) return "published"
        if (first.startsWith("assumed")) return "assumed"
        return ""
    }

    parent: target
    // Never for an item outside any window (a page being let go while the
    // pointer is over it): there is nowhere to open.
    visible: shown && (heading !== "" || lines.length > 0) && !!parent && !!parent.Window.window
    delay: 250
    timeout: -1
    margins: Theme.gap
    padding: Theme.gapM
    closePolicy: Popup.NoAutoClose

    // Below the target, unless that runs off the window; then above it.
    readonly property real windowHeight: target && target.Window.window ? target.Window.window.height : 0
    readonly property real belowY: targetRect.y + targetRect.height + Theme.gap
    readonly property bool fitsBelow: !target || target.mapToItem(null, 0, belowY).y + implicitHeight + Theme.gap <= windowHeight
    x: beside ? targetRect.x + targetRect.width + Theme.gap : targetRect.x
    y: beside ? targetRect.y : fitsBelow ? belowY : targetRect.y - implicitHeight - Theme.gap

    background: Rectangle {
        radius: Theme.radius
        color: Theme.card
        border.color: root.kind !== "" ? Theme.provenanceColor(root.kind) : Theme.fieldBorder
        border.width: 1
    }

    // Made with the card, not deferred to Qt Quick Controls: the ids its texts
    // measure by need it, and a style never replaces it.
    contentItem: Column { // qmllint disable deferred-property-id
        spacing: Theme.gap / 2
        Text {
            id: headingText
            visible: root.heading !== ""
            // The natural width, up to the card's: measured apart, since a
            // wrapping text's implicit width follows the width it is given.
            width: Math.min(Theme.explainWidth, Math.ceil(headingRoom.advanceWidth) + 1)
            TextMetrics { id: headingRoom; font: headingText.font; text: root.heading }
            text: root.heading
            wrapMode: Text.Wrap
            font.family: Theme.mono; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
            color: Theme.inkText
        }
        Repeater {
            model: root.lines
            Text {
                id: line
                required property string modelData
                required property int index
                readonly property bool provenanceLine: index === 0 && root.kind !== ""
                readonly property bool assumption: modelData.startsWith("assumes:")
                width: Math.min(Theme.explainWidth, Math.ceil(lineRoom.advanceWidth) + 1)
                TextMetrics { id: lineRoom; font: line.font; text: line.modelData }
                text: modelData
                wrapMode: Text.Wrap
                font.family: provenanceLine ? Theme.mono : Theme.sans
                font.pixelSize: provenanceLine ? Theme.smallSize : Theme.tinySize + 1
                color: provenanceLine ? Theme.provenanceColor(root.kind) : assumption ? Theme.inkMuted : Theme.inkText
            }
        }
    }
}
