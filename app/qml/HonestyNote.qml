import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The foot of the page: the provenance key, every kind the app shows and
// the same colours as everywhere (the honesty card at the top lists them too).
Rectangle {
    id: root
    objectName: "provenanceKey"
    color: Theme.floor
    implicitHeight: row.implicitHeight + Theme.gapXXL
    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)
    RowLayout {
        id: row
        x: root.margin
        width: root.width - 2 * root.margin
        spacing: Theme.gapM
        ProvenanceBadge { kind: "predicted"; details: "a roofline or simulator prediction: chip model, dtype, shapes and assumptions attached" }
        ProvenanceBadge { kind: "verified"; details: "correctness checked without a TPU, e.g. Pallas interpret mode on a CPU; never a speed" }
        ProvenanceBadge { kind: "measured"; details: "a run on a real chip, with chip, dtype, shapes and date" }
        ProvenanceBadge { kind: "published"; details: "measured by others and printed with its source: a paper, a kernel repository, a vendor's page" }
        ProvenanceBadge { kind: "assumed"; details: "the simulator's own figure where no source gives one, such as a hop's latency; marked wherever it is used" }
        ProvenanceBadge { kind: "failed"; details: "a gate attempt that did not pass; kept and reported, never hidden" }
        Item { Layout.fillWidth: true }
        MonoText { text: "Ctrl+K jump anywhere · Ctrl+E export report"; color: Theme.inkFaint }
    }
}
