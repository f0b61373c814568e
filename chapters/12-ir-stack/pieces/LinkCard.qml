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
    property string uncalled: ""     // the computation the op lies in when nothing calls it
    property var kernelProvenance: ({})
    property var measured: ({})      // the kernel's device time in an imported profile, or empty
    property bool measuredLine: false // keep a line for it: a profile ran this program
    property string followed: ""     // "followed 3 of 8 ops"
    property var shardings: []       // the active line's sharding attributes, read out
    property bool shardingLine: false // keep room for them: the dumps carry some
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

    // Wide enough for the op and a dot's decoding side by side.
    readonly property bool wide: width >= Theme.px(1000)
    readonly property bool showing: !!(root.link || root.dot || root.kernel || root.uncalled || root.shardings.length > 0)

    implicitHeight: content.implicitHeight + 2 * Theme.gapM

    ColumnLayout {
        id: content
        anchors.fill: parent
        anchors.margins: Theme.gapM
        spacing: Theme.gap / 2

        // The op's names wrap beside the chip choice, which is always at
        // hand: every prediction on the card is for that chip. The names
        // and the hint share one place, as tall as the taller of them and
        // of two lines of names, so that hovering never moves the panes.
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gapM
            Item {
                Layout.fillWidth: true
                Layout.alignment: Qt.AlignTop
                implicitHeight: Math.max(hint.implicitHeight, names.implicitHeight, 2 * nameLine.implicitHeight + names.spacing)
                Flow {
                    id: names
                    width: parent.width
                    opacity: root.showing ? 1 : 0
                    spacing: Theme.gapM
                    MonoText {
                        id: nameLine
                        objectName: "ex05LinkName"
                        width: Math.min(implicitWidth, names.width)
                        text: root.link ? root.link.primitive : root.dot ? root.dot.op : ""
                        color: Theme.accent
                        font.pixelSize: Theme.bodySize
                        font.weight: Font.DemiBold
                        wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                    }
                    MonoText {
                        width: Math.min(implicitWidth, names.width)
                        text: root.link && root.link.scope ? "inside jit(" + root.link.scope + ")" : ""
                        color: Theme.inkMuted
                        wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                    }
                    MonoText {
                        width: Math.min(implicitWidth, names.width)
                        text: root.link && root.link.source ? "from " + root.link.source : ""
                        color: Theme.inkMuted
                        wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                    }
                }
                Text {
                    id: hint
                    width: parent.width
                    opacity: root.showing ? 0 : 1
                    text: "Hover over an op in any pane, or Tab into a pane and step with ↑ ↓: its counterparts light up in the other layers and in the Python. A dot_general is decoded here."
                    color: Theme.inkFaint
                    font.family: Theme.sans
                    font.pixelSize: Theme.smallSize
                    wrapMode: Text.WordWrap
                }
            }
            ChoiceRow {
                id: chips
                Layout.alignment: Qt.AlignTop
                options: Array.from(Sim.chips).map(c => ({ id: c.id, label: c.id }))
                current: root.chip
                namePrefix: "ex05chip_"
                onChosen: id => root.chipChosen(id)
            }
        }
        // The op, and a dot_general's decoding: side by side on a card as
        // wide as the window (a dump opened alone, with no Python beside
        // it), so the dumps below keep most of the height; else one above
        // the other.
        GridLayout {
            Layout.fillWidth: true
            columns: root.wide ? 2 : 1
            columnSpacing: Theme.gapXL
            rowSpacing: Theme.gap / 2
            ColumnLayout {
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                Layout.alignment: Qt.AlignTop
                spacing: Theme.gap / 2
                MonoText {
                    objectName: "ex05Followed"
                    Layout.fillWidth: true
                    // Nothing to follow in a dump of one's own: no line kept for it.
                    visible: root.followed !== ""
                    opacity: root.showing ? 1 : 0
                    text: root.followed
                    color: Theme.inkFaint
                    font.pixelSize: Theme.tinySize
                }
                MonoText {
                    objectName: "ex05LinkWhere"
                    Layout.fillWidth: true
                    opacity: root.showing ? 1 : 0
                    text: root.link ? root.where(root.link)
                          : root.uncalled ? "in %" + root.uncalled + ", which no op of this module calls: it never runs"
                          : "this op is not linked to the other layers"
                    color: Theme.inkText
                    elide: Text.ElideRight
                }
                KernelLine {
                    Layout.fillWidth: true
                    kernel: root.kernel
                    measured: root.measured
                    measuredLine: root.measuredLine
                    provenance: root.kernelProvenance
                    chip: root.chip
                }
                ShardingLine {
                    Layout.fillWidth: true
                    shardings: root.shardings
                    reserved: root.shardingLine
                }
            }
            ColumnLayout {
                Layout.fillWidth: true
                Layout.preferredWidth: 1
                Layout.alignment: Qt.AlignTop
                spacing: Theme.gap / 2
                Rectangle { Layout.fillWidth: true; height: Theme.hairline; color: Theme.cardBorder; visible: !root.wide }
                DotDecode {
                    Layout.fillWidth: true
                    dot: root.dot; layerName: root.dotLayer; chip: root.chip
                }
            }
        }
        Item { Layout.fillHeight: true }
    }
}
