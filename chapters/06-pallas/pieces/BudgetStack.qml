pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The budget stacked against the limit: every buffer of every line side by
// side in its role's colour, its padding paler, the scoped limit a mark
// across it. The upper bar is scaled to the larger of the limit and the
// total; the lower one to the chip's whole VMEM per TensorCore, so the
// limit is seen as the part of it a kernel may use. Hovering a segment
// names its line.
ColumnLayout {
    id: root
    property var budget: ({})        // VmemBudgetModel.budget
    readonly property var lines: budget.lines || []
    readonly property real total: budget.total || 0
    readonly property real limit: budget.limit || 0
    readonly property real physical: budget.physical || 1
    readonly property bool over: total > limit
    spacing: Theme.gap

    // One stacked bar over `scale` bytes, with the limit marked. Given all
    // it draws, since an inline component does not see this file's ids.
    component StackBar: Item {
        id: bar
        property var lines: []
        property real limit: 0
        property bool over: false
        property real scale: 1
        property bool detailed: true
        clip: true   // a total past the scale runs off the end, not over the page
        function roleColor(role) {
            return Theme.seriesColor(Array.of("input", "output", "scratch", "temporary").indexOf(role))
        }
        implicitHeight: detailed ? Theme.gapL : Theme.gap
        Rectangle {
            anchors.fill: parent
            radius: Theme.radius / 2
            color: Theme.trackOnDark
        }
        Row {
            id: segments
            anchors.left: parent.left
            anchors.top: parent.top
            anchors.bottom: parent.bottom
            // By count, as BudgetLines: segments are updated in place.
            Repeater {
                model: bar.lines.length
                delegate: Row {
                    id: lineSegments
                    required property int index
                    readonly property var modelData: bar.lines[index] || ({})
                    height: segments.height
                    Repeater {
                        model: lineSegments.modelData.buffers
                        delegate: Rectangle {
                            readonly property real bytes: lineSegments.modelData.paddedBytes
                            width: Math.min(bar.width, bar.width * bytes / bar.scale)
                            height: lineSegments.height
                            color: bar.roleColor(lineSegments.modelData.role)
                            border.width: bar.detailed && width > 3 ? 1 : 0
                            border.color: Theme.floor
                            // The padding's share of the buffer, paler.
                            Rectangle {
                                anchors.right: parent.right
                                anchors.top: parent.top
                                anchors.bottom: parent.bottom
                                anchors.margins: parent.border.width
                                width: parent.width * (1 - lineSegments.modelData.logical / Math.max(1, parent.bytes))
                                color: Theme.floor
                                opacity: 0.55
                            }
                            HoverHandler { id: hover; enabled: bar.detailed }
                            ExplainCard {
                                shown: hover.hovered
                                heading: lineSegments.modelData.name
                                text: lineSegments.modelData.what + "\n" + lineSegments.modelData.buffers + " × "
                                      + lineSegments.modelData.paddedText + " = " + lineSegments.modelData.totalText
                            }
                        }
                    }
                }
            }
        }
        // The scoped limit.
        Rectangle {
            objectName: bar.detailed ? "ex07LimitMark" : ""
            x: Math.min(bar.width, bar.width * bar.limit / bar.scale) - width / 2
            anchors.top: parent.top
            anchors.bottom: parent.bottom
            anchors.margins: -Theme.gap / 2
            width: Theme.focusWidth
            color: bar.over ? Theme.failed : Theme.inkText
        }
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        Caption { text: "VMEM" }
        SteadyFigure {
            objectName: "ex07Total"
            text: root.budget.totalText || "—"
            color: root.budget.fits ? Theme.inkText : Theme.failed
            font.pixelSize: Theme.headingSize
        }
        MonoText {
            objectName: "ex07LimitText"
            Layout.fillWidth: true
            text: root.budget.limitText ? "of " + root.budget.limitText + " scoped limit" + (root.budget.limitRaised ? " (raised)" : "") : ""
            color: root.over ? Theme.failed : Theme.inkMuted
            wrapMode: Text.Wrap
        }
        ProvenanceBadge {
            visible: !!root.budget.provenance
            kind: root.budget.provenance ? root.budget.provenance.kind : "predicted"
            details: root.budget.provenance ? root.budget.provenance.details : ""
        }
    }
    StackBar {
        objectName: "ex07Stack"
        Layout.fillWidth: true
        lines: root.lines; limit: root.limit; over: root.over
        scale: Math.max(root.total, root.limit) * 1.05
    }
    Text {
        Layout.fillWidth: true
        text: "data " + (root.budget.logicalText || "—") + " · padding " + (root.budget.paddingText || "—")
              + " · a pale end is padding to tiles · the mark is the limit"
        wrapMode: Text.Wrap
        font.family: Theme.sans; font.pixelSize: Theme.tinySize
        color: Theme.inkFaint
    }
    Caption { text: "against the " + (root.budget.physicalText || "") + " of VMEM per TensorCore"; Layout.topMargin: Theme.gap / 2 }
    StackBar {
        objectName: "ex07PhysicalStack"
        Layout.fillWidth: true
        lines: root.lines; limit: root.limit; over: root.over
        scale: root.physical
        detailed: false
    }
}
