import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// VMEM the schedule's buffers take against the chip's scoped limit: two
// buffers per block, padded to the tiles they are stored in, plus the f32 accumulator.
ColumnLayout {
    id: root
    property var vmem: ({})          // BlockSpecModel.vmem
    readonly property bool fits: vmem.fits === undefined || vmem.fits
    spacing: Theme.px(4)

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        Caption { text: "VMEM" }
        SteadyFigure {
            objectName: "ex09Vmem"
            text: root.vmem.usedText || "—"
            color: root.fits ? Theme.inkText : Theme.failed
            font.pixelSize: Theme.bodySize
            HoverHandler { id: vmemPointed }
        }
        MonoText {
            objectName: "ex09VmemLimit"
            Layout.fillWidth: true
            text: root.vmem.limitText ? "of " + root.vmem.limitText + " scoped limit" + (root.fits ? "" : ": over") : ""
            color: root.fits ? Theme.inkMuted : Theme.failed
            elide: Text.ElideRight
        }
        ProvenanceBadge {
            objectName: "ex09VmemBadge"
            figurePointed: vmemPointed.hovered
            kind: root.vmem.provenance ? root.vmem.provenance.kind : "predicted"
            details: root.vmem.provenance ? root.vmem.provenance.details : ""
        }
    }
    Rectangle {
        Layout.fillWidth: true
        implicitHeight: Theme.gap
        radius: height / 2
        color: Theme.trackOnDark
        Rectangle {
            width: parent.width * Math.min(1, root.vmem.fraction || 0)
            height: parent.height
            radius: height / 2
            color: root.fits ? Theme.seriesColor(0) : Theme.failed
        }
    }
}
