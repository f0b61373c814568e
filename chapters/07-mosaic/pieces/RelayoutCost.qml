pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// A relayout as the data movement it costs: the padded bytes read, the
// padded bytes written, and the time that takes at the chip's HBM
// bandwidth, badged as libtpusim's prediction; then why, in a sentence.
ColumnLayout {
    id: root
    property var change: ({})        // LayoutLensModel.lens.change
    property string chip: ""
    readonly property var provenance: change.provenance || ({})
    spacing: Theme.gap / 2

    component Figure: RowLayout {
        property alias name: nameText.text
        property alias value: valueText.text
        property string valueName: ""
        property bool large: false
        property bool badged: false
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
            kind: root.provenance.kind || "predicted"
            details: root.provenance.details || ""
        }
        Item { Layout.fillWidth: true }
    }

    Caption { text: "the " + (root.change.kind || "") + ", as data it moves"; font.weight: Font.DemiBold }
    Figure { name: "read (padded)"; valueName: "ex12Read"; value: root.change.moves ? root.change.readText || "" : "nothing" }
    Figure { name: "written (padded)"; valueName: "ex12Written"; value: root.change.moves ? root.change.writtenText || "" : "nothing" }
    Figure { name: "moved"; valueName: "ex12Moved"; value: root.change.movedText || ""; badged: true }
    Figure { name: "time on " + root.chip; valueName: "ex12Time"; value: root.change.timeText || ""; large: true; badged: true }
    Figure {
        name: "waste after"; valueName: "ex12WasteAfter"; badged: true
        value: root.change.to ? root.change.to.wasteText + " of " + root.change.to.paddedText : ""
    }
    Text {
        objectName: "ex12Verdict"
        Layout.fillWidth: true
        Layout.topMargin: Theme.gap / 2
        text: root.change.verdict || ""
        wrapMode: Text.Wrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: root.change.moves ? Theme.inkText : Theme.inkMuted
    }
}
