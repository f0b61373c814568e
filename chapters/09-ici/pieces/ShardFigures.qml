import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The plan in numbers, each libtpusim's prediction: one block's step, its
// matmuls, the transfer time no matmul covers, the rows each device
// multiplies against the rows the data axes need to hide their transfers,
// and the weights each device keeps. Then the verdict in words, and the
// PartitionSpecs that ask XLA for this plan.
ColumnLayout {
    id: root
    property var plan: ({})   // LayerShardingModel.plan
    property bool busy: false // a large slice being priced: the figures are the last plan's
    readonly property var provenance: plan.provenance || ({})
    spacing: Theme.gap / 2

    component Figure: RowLayout {
        id: figure
        property alias name: nameText.text
        property alias value: valueText.text
        property string valueName: ""
        property bool large: false
        property var provenance: null   // a badge when given
        property bool stale: false
        Layout.fillWidth: true
        spacing: Theme.gap
        Caption { id: nameText; Layout.preferredWidth: Theme.px(150) }
        MonoText {
            id: valueText
            objectName: figure.valueName
            Layout.fillWidth: !figure.provenance
            wrapMode: Text.WordWrap
            font.pixelSize: figure.large ? Theme.subheadingSize : Theme.bodySize
            color: figure.stale ? Theme.inkFaint : Theme.inkText
        }
        ProvenanceBadge {
            visible: !!figure.provenance
            kind: figure.provenance ? figure.provenance.kind || "predicted" : "predicted"
            details: figure.provenance ? figure.provenance.details || "" : ""
        }
        Item { visible: !!figure.provenance; Layout.fillWidth: true }
    }

    Figure {
        name: "one block's step"; valueName: "ex14Step"; large: true
        provenance: root.provenance
        stale: root.busy
        value: root.plan.step || ""
    }
    Figure { name: "matmuls"; valueName: "ex14Compute"; value: root.plan.compute || "" }
    Figure {
        name: "not covered"; valueName: "ex14Exposed"
        value: root.plan.exposed === undefined ? ""
               : root.plan.exposedS > 0 ? root.plan.exposed + "  (" + (100 * root.plan.exposedShare).toFixed(root.plan.exposedShare < 0.1 ? 1 : 0) + " % of the step)"
               : "nothing: every transfer hides"
    }
    Figure {
        name: "rows per device"; valueName: "ex14Rows"
        value: root.plan.rowsPerDevice === undefined ? ""
               : root.plan.rowsPerDevice.toLocaleString(Qt.locale("en_US"), "f", 0)
                 + (root.plan.dataThreshold > 0 ? "  (the data axes hide above " + Math.round(root.plan.dataThreshold).toLocaleString(Qt.locale("en_US"), "f", 0) + ")" : "")
    }
    Figure {
        name: "F per model device"; valueName: "ex14FPerModel"
        visible: root.plan.modelThreshold > 0
        value: root.plan.fPerModel === undefined ? ""
               : root.plan.fPerModel.toLocaleString(Qt.locale("en_US"), "f", 0) + "  (TP can hide above " + Math.round(root.plan.modelThreshold).toLocaleString(Qt.locale("en_US"), "f", 0) + ")"
    }
    Figure {
        name: "weights per device"; valueName: "ex14Weights"
        value: (root.plan.weightBytes || "") + (root.plan.gatheredBytes ? ", one gathered at a time: " + root.plan.gatheredBytes : "")
    }
    Text {
        objectName: "ex14Verdict"
        Layout.fillWidth: true
        Layout.topMargin: Theme.gap
        text: root.plan.verdict || ""
        font.family: Theme.sans; font.pixelSize: Theme.bodySize
        lineHeight: 1.2
        color: Theme.inkText
        wrapMode: Text.WordWrap
    }
    Rectangle {
        Layout.fillWidth: true
        Layout.topMargin: Theme.gap
        implicitHeight: specs.implicitHeight + 2 * Theme.gap
        color: Theme.chartPlot
        radius: Theme.radius
        MonoText {
            id: specs
            objectName: "ex14Specs"
            x: Theme.gap; y: Theme.gap
            width: parent.width - 2 * Theme.gap
            wrapMode: Text.WrapAnywhere
            color: Theme.codeColorsOnDark.plain
            text: {
                const axes = root.plan.axes || []
                if (!axes.length) return ""
                return "mesh = jax.make_mesh((" + axes.map(a => a.size).join(", ") + (axes.length === 1 ? "," : "") + "), ("
                       + axes.map(a => "\"" + a.name + "\"").join(", ") + (axes.length === 1 ? "," : "") + "))\n"
                       + "x     = NamedSharding(mesh, " + root.plan.xSpec + ")\n"
                       + "W_in  = NamedSharding(mesh, " + root.plan.wInSpec + ")\n"
                       + "W_out = NamedSharding(mesh, " + root.plan.wOutSpec + ")"
            }
        }
    }
}
