pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// A figure on every chip of the simulator's table, as bars; the
// course's chip in bold; a figure no source publishes says so.
Rectangle {
    id: chart
    required property var modelData
    property var card: null
    readonly property var values: Array.from(Sim.chips).map(c => ({ chip: c.id, v: Reader.liveFigure(modelData.figure, c.id) }))
    readonly property real peak: Math.max(...values.map(x => isFinite(x.v.number) ? x.v.number : 0), 1e-30)
    implicitHeight: chartColumn.implicitHeight + 2 * Theme.gapM
    radius: Theme.radius
    color: Theme.pageCode
    Column {
        id: chartColumn
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gap / 2
        Text {
            width: parent.width
            text: chart.modelData.title
            wrapMode: Text.WordWrap
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
            color: Theme.pageInk
        }
        Repeater {
            model: chart.values
            delegate: Item {
                id: bar
                required property var modelData
                readonly property bool mine: modelData.chip === Course.chip
                readonly property bool known: isFinite(modelData.v.number)
                // The simulator's own choice where no source gives the figure.
                readonly property bool assumed: !!modelData.v.isAssumption
                width: chartColumn.width
                height: Theme.gapL
                Text {
                    id: chipName
                    width: Theme.px(40)
                    anchors.verticalCenter: parent.verticalCenter
                    text: bar.modelData.chip
                    font.family: Theme.mono; font.pixelSize: Theme.tinySize; font.bold: bar.mine
                    color: Theme.pageInk
                }
                Rectangle {
                    id: fill
                    x: chipName.width + Theme.gap
                    anchors.verticalCenter: parent.verticalCenter
                    height: Theme.px(8)
                    readonly property real room: bar.width - x - valueText.width - Theme.gap
                    width: bar.known ? Math.max(2, room * bar.modelData.v.number / chart.peak) : 0
                    color: bar.modelData.v.isAssumption ? Theme.pageAssumed : bar.modelData.v.isFact ? Theme.pageInk : Theme.pagePredicted
                    opacity: bar.mine ? 1 : 0.55
                }
                Text {
                    id: valueText
                    x: fill.x + fill.width + Theme.gap
                    anchors.verticalCenter: parent.verticalCenter
                    text: bar.modelData.v.text + (bar.assumed ? " · assumed" : "")
                    font.family: Theme.mono; font.pixelSize: Theme.tinySize; font.bold: bar.mine
                    color: !bar.known ? Theme.pageMuted : bar.modelData.v.isAssumption ? Theme.pageAssumed : bar.modelData.v.isFact ? Theme.pageInk : Theme.pagePredicted
                }
                HoverHandler {
                    onHoveredChanged: {
                        if (!chart.card) return
                        if (hovered) chart.card.showFor(bar, bar.modelData.v.details || bar.modelData.v.problem)
                        else chart.card.hideFor(bar)
                    }
                }
            }
        }
        Text {
            width: parent.width
            visible: text !== ""
            text: chart.modelData.note
            wrapMode: Text.WordWrap
            font.family: Theme.sans; font.pixelSize: Theme.tinySize
            color: Theme.pageMuted
        }
    }
}
