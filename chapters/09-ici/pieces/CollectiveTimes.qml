pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The closed form of the scaling book against the hop-by-hop simulation,
// each with its badge, and libtpusim's words on why they agree or differ.
ColumnLayout {
    id: root
    property var result: ({})
    property bool busy: false
    readonly property var provenance: result.provenance || ({})
    spacing: Theme.gap

    component Figure: RowLayout {
        property alias name: nameText.text
        property alias value: valueText.text
        property string valueName: ""
        property var provenance: root.provenance
        spacing: Theme.gap
        Caption { id: nameText; Layout.preferredWidth: Theme.px(150) }
        MonoText {
            id: valueText
            objectName: parent.valueName
            font.pixelSize: Theme.subheadingSize
            color: root.busy ? Theme.inkFaint : Theme.inkText
        }
        ProvenanceBadge { kind: parent.provenance.kind || "predicted"; details: parent.provenance.details || "" }
    }

    Figure { name: "closed form"; valueName: "ex11ClosedForm"; value: root.result.analytic || "—" }
    Figure { name: "simulated, hop by hop"; valueName: "ex11Simulated"; value: root.result.simulated || "—" }
    MonoText {
        objectName: "ex11Difference"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.pixelSize: Theme.smallSize
        color: root.result.agrees ? Theme.verified : Theme.inkMuted
        text: root.busy ? "simulating…"
                        : root.result.error ? "" : (root.result.agrees ? "agree" : "differ") + " · simulated / closed form − 1 = " + (root.result.differenceText || "")
    }
    // The two above run the links at their peak; a real chip reaches less.
    Figure {
        name: "on a real chip, about"
        valueName: "ex11Attainable"
        value: root.result.attainable || "—"
        provenance: root.result.attainableProvenance || ({})
    }
    Text {
        objectName: "ex11AttainableWhy"
        Layout.fillWidth: true
        visible: !!root.result.attainable
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        text: "the simulation with the links at " + (root.result.attainableFraction || "") + " of their peak, the share long collectives reach on this chip in published timings, plus " + (root.result.collectiveFloor || "") + " that every collective pays to launch and synchronise (both fitted on the validation page)"
    }
    Text {
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        text: root.result.formula ? "closed form: " + root.result.formula : ""
    }
    Text {
        objectName: "ex11Explanation"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: root.result.error ? Theme.failed : (root.result.agrees ? Theme.inkMuted : Theme.inkText)
        text: root.result.error || root.result.explanation || ""
    }
    Text {
        objectName: "ex11Memory"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        visible: !root.result.error && !!root.result.memoryNote
        text: root.result.memoryNote || ""
    }
    Text {
        objectName: "ex11LinkLine"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkFaint
        visible: !root.result.error
        text: "link " + (root.result.linkBandwidth || "") + " one way · hop " + (root.result.hopLatency || "")
              + " · busiest link carried " + (root.result.busiestLinkBytes || "") + " · "
              + (root.result.chunkHops || 0) + " chunk hops on " + (root.result.linesSimulated || 0) + " of "
              + (root.result.linesTotal || 0) + " rings simulated (the rest run identically)"
    }
}
