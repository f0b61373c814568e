pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

// An HLO dump's kernels costed on the course's chip, one row each, in
// program order; the ones under a microsecond counted in one line.
Rectangle {
    id: kernels
    required property var modelData
    property var card: null
    property url folder             // the exhibit's, where its HLO dump is
    readonly property var cost: Reader.hloKernels(folder, modelData.figure, Course.chip)
    readonly property var rows: (cost.kernels || []).filter(k => k.seconds >= 1e-6)
    readonly property int small: (cost.kernels || []).length - rows.length
    readonly property var columns: [
        { key: "line", title: "line", width: 48, right: true },
        { key: "name", title: "kernel", width: 190, right: false },
        { key: "kind", title: "kind", width: 150, right: false },
        { key: "engine", title: "unit", width: 48, right: false },
        { key: "flops", title: "FLOPs", width: 110, right: true },
        { key: "read", title: "reads", width: 96, right: true },
        { key: "written", title: "writes", width: 96, right: true },
        { key: "time", title: "time", width: 86, right: true },
        { key: "bound", title: "bound", width: 80, right: false }]
    readonly property real natural: columns.reduce((a, c) => a + Theme.px(c.width), 0)
    readonly property real scale: Math.min(1, (width - 2 * Theme.gapM) / natural)
    implicitHeight: kernelColumn.implicitHeight + 2 * Theme.gapM
    radius: Theme.radius
    color: Theme.pageCode
    border.color: Theme.pageRule
    Column {
        id: kernelColumn
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gap / 2
        Text {
            width: parent.width
            text: kernels.modelData.title + " · predicted on " + Course.chip + (kernels.cost.time ? " · " + kernels.cost.time + " in all" : "")
            wrapMode: Text.WordWrap
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
            color: Theme.pageInk
        }
        Text {
            width: parent.width
            visible: !!kernels.cost.problem
            text: kernels.cost.problem || ""
            wrapMode: Text.WordWrap
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.pageFailed
        }
        Repeater {
            model: [null, ...kernels.rows]
            delegate: Row {
                id: kernelRow
                required property var modelData
                required property int index
                readonly property bool header: index === 0
                Repeater {
                    model: kernels.columns
                    delegate: Text {
                        required property var modelData
                        width: Theme.px(modelData.width) * kernels.scale
                        horizontalAlignment: modelData.right ? Text.AlignRight : Text.AlignLeft
                        rightPadding: modelData.right ? Theme.gap : 0
                        leftPadding: modelData.right ? 0 : Theme.gap / 2
                        elide: modelData.right ? Text.ElideLeft : Text.ElideRight
                        text: kernelRow.header ? modelData.title : String(kernelRow.modelData[modelData.key])
                        font.family: kernelRow.header ? Theme.sans : Theme.mono
                        font.pixelSize: Theme.tinySize
                        font.weight: kernelRow.header ? Font.DemiBold : Font.Normal
                        color: !kernelRow.header && (modelData.key === "time" || modelData.key === "bound") ? Theme.pagePredicted : Theme.pageInk
                    }
                }
                HoverHandler {
                    enabled: !kernelRow.header
                    onHoveredChanged: {
                        if (!kernels.card) return
                        if (hovered) kernels.card.showFor(kernelRow, kernels.cost.details)
                        else kernels.card.hideFor(kernelRow)
                    }
                }
            }
        }
        Text {
            width: parent.width
            visible: kernels.small > 0
            text: "and " + kernels.small + " scalar kernels of under a microsecond each (index arithmetic, the loop counter)"
            wrapMode: Text.WordWrap
            font.family: Theme.sans; font.pixelSize: Theme.tinySize
            color: Theme.pageMuted
        }
        Text {
            width: parent.width
            visible: text !== ""
            text: kernels.modelData.note
            wrapMode: Text.WordWrap
            font.family: Theme.sans; font.pixelSize: Theme.tinySize
            color: Theme.pageMuted
        }
    }
}
