import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The step in numbers, each libtpusim's prediction: the bytes one
// generated token costs this layer, the share of HBM's peak the step
// reaches (drawn as a bar, with the share long memory-bound ops attain
// marked), the kernel's time against XLA gathering the pages first, and
// what bounds it.
ColumnLayout {
    id: root
    property var figures: ({})       // PagedCacheModel.cache.figures
    property var provenance: ({})
    spacing: Theme.gap / 2

    component Figure: RowLayout {
        property alias name: nameText.text
        property alias value: valueText.text
        property string valueName: ""
        property bool large: false
        property bool badged: false
        property var provenance: ({})
        Layout.fillWidth: true
        spacing: Theme.gap
        Caption { id: nameText; Layout.preferredWidth: Theme.px(150) }
        MonoText {
            id: valueText
            objectName: parent.valueName
            font.pixelSize: parent.large ? Theme.subheadingSize : Theme.bodySize
            color: Theme.inkText
        }
        ProvenanceBadge {
            visible: parent.badged
            kind: parent.provenance.kind || "predicted"
            details: parent.provenance.details || ""
        }
        Item { Layout.fillWidth: true }
    }

    Figure {
        name: "per generated token"; valueName: "ex13BytesPerToken"; large: true; badged: true
        provenance: root.provenance
        value: root.figures.bytesPerToken || ""
    }
    Figure {
        name: "HBM peak reached"; valueName: "ex13Bandwidth"
        value: root.figures.bandwidthText || ""
    }
    Item {
        id: meter
        objectName: "ex13Meter"
        Layout.fillWidth: true
        Layout.preferredHeight: Theme.px(10)
        readonly property real share: Math.max(0, Math.min(1, root.figures.bandwidth || 0))
        Rectangle { anchors.fill: parent; radius: height / 2; color: Theme.inkHover }
        Rectangle {
            width: parent.width * meter.share; height: parent.height; radius: height / 2
            color: Theme.predicted
        }
        Rectangle {   // what long memory-bound ops attain on this chip
            x: parent.width * (root.figures.attainable || 0) - width / 2
            width: 2; height: parent.height + Theme.px(6); y: -Theme.px(3)
            color: Theme.inkText
        }
    }
    Caption {
        Layout.fillWidth: true
        text: "the white tick: the share long memory-bound ops attain here"
        font.pixelSize: Theme.tinySize
    }
    Figure {
        name: "the kernel"; valueName: "ex13Time"
        value: (root.figures.time || "") + (root.figures.bound ? "  bound by " + (root.figures.bound === "grid steps" ? "its grid steps" : root.figures.bound) : "")
    }
    Figure {
        name: "XLA, gathering first"; valueName: "ex13XlaTime"
        value: (root.figures.xlaTime || "") + (root.figures.xlaBytes ? "  moves " + root.figures.xlaBytes : "")
    }
    Figure { name: "grid steps"; valueName: "ex13Steps"; value: root.figures.steps !== undefined ? String(root.figures.steps) : "" }
    Figure { name: "read past the ends"; valueName: "ex13Padding"; value: root.figures.paddingText || "" }
    Figure {
        name: "FLOPs per byte"; valueName: "ex13Intensity"
        value: root.figures.intensityText ? root.figures.intensityText + " (ridge " + root.figures.ridgeText + ")" : ""
    }
}
