import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// A pane's title line: the layer, where the dump came from, what was read
// from it, or the parser's sentence when it could not be read; and an op
// name that looks misspelt, with the one meant.
ColumnLayout {
    id: root
    property string title: ""
    property var dump: ({})
    property var price: ({})
    readonly property bool failed: (dump.error || "").length > 0
    readonly property var cost: price.cost || ({})
    spacing: Theme.gap / 2

    function count(n, noun) { return n + " " + noun + (n === 1 ? "" : "s") }

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        MonoText { text: root.title; color: Theme.accent; font.weight: Font.DemiBold }
        MonoText {
            Layout.fillWidth: true
            text: root.dump.present ? root.dump.origin : "no dump"
            color: Theme.inkFaint
            font.pixelSize: Theme.tinySize
            elide: Text.ElideMiddle
        }
        MonoText {
            objectName: "ex05Count_" + (root.dump.layer || "")
            visible: root.dump.present === true && !root.failed
            text: root.count(root.dump.opCount || 0, "op") + " · " + root.count(root.dump.dotCount || 0, "dot")
            color: Theme.inkFaint
            font.pixelSize: Theme.tinySize
        }
    }
    MonoText {  // an optimized HLO's kernels, as libtpusim costs them
        objectName: "ex05Cost_" + (root.dump.layer || "")
        opacity: root.cost.kernelCount !== undefined ? 1 : 0  // every pane keeps the row, so their lines align
        text: root.cost.kernelCount !== undefined ? root.count(root.cost.kernelCount, "kernel")
                                  + (root.cost.optimized ? " as XLA fused them: " : " (the dump looks unoptimized): ")
                                  + (root.cost.lowerBound ? "at least " : "")
                                  + root.cost.time + " predicted on " + root.cost.provenance.chip : ""
        color: Theme.predicted
        font.pixelSize: Theme.tinySize
    }
    Text {
        objectName: "ex05Note_" + (root.dump.layer || "")
        readonly property var notes: root.dump.notes || []
        Layout.fillWidth: true
        visible: !root.failed && notes.length > 0
        text: notes.length === 0 ? "" : notes[0] + (notes.length > 1 ? " (and " + (notes.length - 1) + " more)" : "")
        color: Theme.failed
        font.family: Theme.sans
        font.pixelSize: Theme.tinySize
        wrapMode: Text.Wrap
        maximumLineCount: 2
        elide: Text.ElideRight
    }
    Text {
        objectName: "ex05Error_" + (root.dump.layer || "")
        Layout.fillWidth: true
        visible: root.failed
        text: root.dump.error || ""
        color: Theme.failed
        font.family: Theme.sans
        font.pixelSize: Theme.tinySize
        wrapMode: Text.Wrap
        maximumLineCount: 3
        elide: Text.ElideRight
    }
}
