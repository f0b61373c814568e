import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// The same algorithm at a real layer's shape, priced by the attention
// model on the chosen chip: what the naive form writes to HBM and how long
// each form takes. Every figure here is a prediction.
Rectangle {
    id: root
    readonly property string chip: Course.chip   // the course's one chip
    property bool causal: false  // the piece's mask: tiles wholly above the diagonal are skipped
    property string pass: "forward"  // or "both": a training step's forward and backward
    readonly property int block: 512
    readonly property var costs: Attention.costs(chip, batch.value, heads.value, seq.value, headDim.value,
                                                 block, block, "bf16", causal, pass)
    readonly property var prov: costs.provenance || ({})

    color: Theme.card
    radius: Theme.radius
    border.color: Theme.cardBorder
    implicitHeight: col.implicitHeight + 2 * Theme.gapM

    ColumnLayout {
        id: col
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gap

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gapM
            MonoText { text: "AT A REAL SHAPE"; color: Theme.inkMuted; font.weight: Font.DemiBold }
            ScrubNumber { id: batch; objectName: "ex03Batch"; label: "batch"; value: 1; defaultValue: 1; from: 1; to: 64; logarithmic: true; powersOnly: true; minimumDigits: 2 }
            ScrubNumber { id: heads; objectName: "ex03Heads"; label: "heads"; value: 8; defaultValue: 8; from: 1; to: 128; logarithmic: true; powersOnly: true; minimumDigits: 3 }
            ScrubNumber { id: seq; objectName: "ex03Seq"; label: "seq"; value: 4096; defaultValue: 4096; from: 512; to: 65536; logarithmic: true; powersOnly: true; minimumDigits: 5 }
            ScrubNumber { id: headDim; objectName: "ex03HeadDim"; label: "head dim"; value: 128; defaultValue: 128; from: 64; to: 256; stepSize: 64; minimumDigits: 3 }
            MonoText { text: "bf16, f32 scores · blocks " + root.block + "×" + root.block + (root.causal ? " · causal" : ""); color: Theme.inkMuted }
            Item { Layout.fillWidth: true }
            ChoiceRow {
                namePrefix: "ex03Chip_"
                options: Array.from(Sim.chips).map(c => ({ id: c.id, label: c.id }))
                current: root.chip
                onChosen: id => Course.chip = id
            }
        }
        MonoText {
            visible: root.costs.error !== undefined
            text: root.costs.error || ""
            color: Theme.failed
        }
        RowLayout {
            spacing: Theme.gapM
            ChoiceRow {
                Layout.preferredWidth: Theme.px(220)
                namePrefix: "ex03Pass_"
                options: [{ id: "forward", label: "forward" }, { id: "both", label: "+ backward" }]
                current: root.pass
                onChosen: id => root.pass = id
            }
            MonoText { Layout.preferredWidth: Theme.px(110); horizontalAlignment: Text.AlignRight; text: "naive"; color: Theme.inkFaint; font.pixelSize: Theme.tinySize }
            MonoText { Layout.preferredWidth: Theme.px(110); horizontalAlignment: Text.AlignRight; text: "streaming"; color: Theme.inkFaint; font.pixelSize: Theme.tinySize }
        }
        CostFigure {
            Layout.fillWidth: true
            idName: "ex03Score"
            label: "score matrix S, if written to HBM"
            naive: root.costs.scoreBytesText || ""
            flash: "never"
            note: "naive writes S and P, then reads both back"
            provenance: root.prov
        }
        CostFigure {
            Layout.fillWidth: true
            idName: "ex03Bytes"
            label: "HBM bytes moved"
            naive: root.costs.naive ? root.costs.naive.hbmBytesText : ""
            flash: root.costs.flash ? root.costs.flash.hbmBytesText : ""
            note: "streaming reads Q once, K and V once per query block, writes O"
            provenance: root.prov
        }
        CostFigure {
            Layout.fillWidth: true
            idName: "ex03Time"
            label: "time on " + root.chip + (root.pass === "both" ? ", fwd + bwd" : "")
            naive: root.costs.naive ? root.costs.naive.time : ""
            flash: root.costs.flash ? root.costs.flash.time : ""
            note: root.costs.naive ? root.costs.comparisonText + " · naive " + root.costs.naive.boundText
                                     + ", streaming " + root.costs.flash.boundText : ""
            provenance: root.prov
        }
    }
}
