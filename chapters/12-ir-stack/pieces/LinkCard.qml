import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim

// What the active op is at every layer: its primitive, the Python line, the
// lines it occupies in each dump and, for a dot_general, its decoding (dims,
// output shape, FLOPs) with the predicted time of that one op on a chip.
Rectangle {
    id: root
    property var link: null          // one of IrXrayModel.links, or null
    property var dot: null           // one of a pane's dots, or null
    property string dotLayer: ""
    property string chip: ""
    property var kernel: null        // the HLO kernel the op runs in, or null
    property var kernelProvenance: ({})
    property string followed: ""     // "followed 3 of 8 ops"
    signal chipChosen(string id)
    readonly property var layerNames: ["jaxpr", "StableHLO", "HLO"]

    // [2,3,4,7] -> "2–4, 7"
    function ranges(lines) {
        const parts = []
        for (let i = 0; i < lines.length; ++i) {
            let j = i
            while (j + 1 < lines.length && lines[j + 1] === lines[j] + 1) ++j
            parts.push(j > i ? lines[i] + "–" + lines[j] : String(lines[i]))
            i = j
        }
        return parts.join(", ")
    }
    function where(link) {
        const parts = []
        for (let l = 0; l < 3; ++l) {
            const lines = link.lines[l] || []
            parts.push(layerNames[l] + " " + (lines.length ? ranges(lines) : "—"))
        }
        return parts.join("  ·  ")
    }

    color: Theme.card
    radius: Theme.radius
    border.color: Theme.cardBorder

    // The chip every prediction on the card is for: always at hand.
    ChoiceRow {
        id: chips
        anchors { top: parent.top; right: parent.right; margins: Theme.gapM }
        options: Sim.chips.map(c => ({ id: c.id, label: c.id }))
        current: root.chip
        namePrefix: "ex05chip_"
        onChosen: id => root.chipChosen(id)
    }

    Text {
        anchors { left: parent.left; top: parent.top; right: chips.left; bottom: parent.bottom; margins: Theme.gapM }
        visible: !root.link && !root.dot && !root.kernel
        text: "Hover over an op in any pane, or Tab into a pane and step with ↑ ↓: its counterparts light up in the other layers and in the Python. A dot_general is decoded here."
        color: Theme.inkFaint
        font.family: Theme.sans
        font.pixelSize: Theme.smallSize
        wrapMode: Text.WordWrap
    }

    implicitHeight: content.implicitHeight + 2 * Theme.gapM

    ColumnLayout {
        id: content
        anchors.fill: parent
        anchors.margins: Theme.gapM
        // An op of a dump with no other layers has only its kernel to show.
        opacity: root.link || root.dot || root.kernel ? 1 : 0
        spacing: Theme.gap / 2

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gapM
            MonoText {
                objectName: "ex05LinkName"
                text: root.link ? root.link.primitive : root.dot ? root.dot.op : ""
                color: Theme.accent
                font.pixelSize: Theme.bodySize
                font.weight: Font.DemiBold
            }
            MonoText {
                text: root.link && root.link.scope ? "inside jit(" + root.link.scope + ")" : ""
                color: Theme.inkMuted
            }
            MonoText {
                text: root.link && root.link.source ? "from " + root.link.source : ""
                color: Theme.inkMuted
            }
            Item { Layout.fillWidth: true }
            MonoText {
                objectName: "ex05Followed"
                text: root.followed
                color: Theme.inkFaint
                font.pixelSize: Theme.tinySize
            }
            Item { implicitWidth: chips.width }  // the chip choice sits here
        }
        MonoText {
            objectName: "ex05LinkWhere"
            Layout.fillWidth: true
            text: root.link ? root.where(root.link) : "this op is not linked to the other layers"
            color: Theme.inkText
            elide: Text.ElideRight
        }
        KernelLine {
            Layout.fillWidth: true
            kernel: root.kernel
            provenance: root.kernelProvenance
            chip: root.chip
        }
        Rectangle { Layout.fillWidth: true; height: Theme.hairline; color: Theme.cardBorder }
        DotDecode {
            Layout.fillWidth: true
            dot: root.dot; layerName: root.dotLayer; chip: root.chip
        }
        Item { Layout.fillHeight: true }
    }
}
