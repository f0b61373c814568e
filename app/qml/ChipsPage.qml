pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim

// The chips side by side: every figure the simulator uses, with its source.
// Hover a figure for what other sources say; assumptions are marked as ours.
Flickable {
    id: root
    signal back()
    readonly property var chips: Sim.chips
    readonly property var sheets: chips.map(c => Sim.chipSheet(c.id))
    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)
    readonly property int labelWidth: Theme.px(250)
    readonly property real cellWidth: (width - 2 * margin - labelWidth) / Math.max(1, chips.length)

    contentWidth: width
    contentHeight: column.implicitHeight + Theme.gapXXL * 2
    boundsBehavior: Flickable.StopAtBounds
    clip: true
    ScrollBar.vertical: ScrollBar { policy: ScrollBar.AsNeeded }

    Rectangle { width: root.width; height: Math.max(root.height, root.contentHeight); color: Theme.floor }

    ColumnLayout {
        id: column
        x: root.margin
        y: Theme.gapXL
        width: root.width - 2 * root.margin
        spacing: Theme.gap

        PlainButton {
            text: "← back"; mono: true
            fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.inkMuted
            onClicked: root.back()
        }
        Text {
            text: "The chips"
            font.family: Theme.sans; font.pixelSize: Theme.displaySize * 0.8; font.weight: Font.DemiBold
            color: Theme.inkText
        }
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.px(820)
            Layout.bottomMargin: Theme.gapL
            text: "Every figure the simulator uses, per chip, with the public source it comes from. Where sources disagree, the one used is shown and the others are one hover away. Figures marked ◇, in magenta, are assumed: the simulator's own, where no source publishes a number."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }

        Row {
            Item { width: root.labelWidth; height: 1 }
            Repeater {
                model: root.chips
                delegate: Text {
                    required property var modelData
                    width: root.cellWidth
                    text: modelData.name
                    font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
                    color: Theme.inkText
                }
            }
        }

        Repeater {
            model: root.sheets.length > 0 ? root.sheets[0].length : 0
            delegate: Column {
                id: factRow
                required property int index
                readonly property var first: root.sheets[0][index]
                MonoText {
                    visible: factRow.index === 0 || root.sheets[0][factRow.index - 1].group !== factRow.first.group
                    topPadding: Theme.gapL
                    bottomPadding: Theme.gap
                    text: factRow.first.group
                    color: Theme.accent
                }
                Rectangle { width: column.width; height: 1; color: Theme.cardBorder }
                Row {
                    Text {
                        width: root.labelWidth
                        topPadding: Theme.gap; bottomPadding: Theme.gap
                        text: factRow.first.label
                        font.family: Theme.sans; font.pixelSize: Theme.smallSize
                        color: Theme.inkMuted
                        wrapMode: Text.WordWrap
                    }
                    Repeater {
                        model: root.sheets
                        delegate: Column {
                            id: cell
                            required property var modelData
                            readonly property var fact: modelData[factRow.index].fact
                            width: root.cellWidth
                            topPadding: Theme.gap; bottomPadding: Theme.gap
                            MonoText {
                                width: parent.width - Theme.gap
                                text: (cell.fact.assumption ? "◇ " : "") + cell.fact.text
                                color: cell.fact.published ? (cell.fact.assumption ? Theme.assumed : Theme.inkText) : Theme.inkFaint
                                wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                                HoverHandler { id: hover }
                                ExplainCard { shown: hover.hovered; text: cell.fact.note }
                            }
                            // Source tags run together ("[SB-TPU][JAX-INFO]"): each is
                            // set whole, so a line breaks between two tags, never
                            // after a tag's hyphen. A source in words wraps as words.
                            readonly property var tags: /^(\[[^\]\s]+\])+$/.test(fact.source) ? fact.source.match(/\[[^\]]+\]/g) : []
                            Flow {
                                width: parent.width - Theme.gap
                                visible: cell.tags.length > 0
                                Repeater {
                                    model: cell.tags
                                    delegate: MonoText {
                                        objectName: "chipFactTag"
                                        required property string modelData
                                        text: modelData
                                        color: Theme.inkFaint
                                        font.pixelSize: Theme.tinySize
                                    }
                                }
                            }
                            MonoText {
                                width: parent.width - Theme.gap
                                visible: cell.tags.length === 0
                                text: cell.tags.length === 0 ? cell.fact.source : ""
                                color: Theme.inkFaint
                                font.pixelSize: Theme.tinySize
                                wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                            }
                        }
                    }
                }
            }
        }
    }
}
