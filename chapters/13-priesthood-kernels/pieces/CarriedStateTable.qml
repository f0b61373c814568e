pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// Every query row's (m, l, acc) after the step, with the max it had before
// and the rescale factor e^(m₋−m) it applied. Cells whose max moved are
// highlighted: that row's old sums were rescaled at this step.
Rectangle {
    id: root
    property var carried: ({})      // one of Attention.stream(...).steps
    property var previous: ({})   // the step before (the same at step 0)
    property var provenance: ({})
    property int step: 0

    function fmt(v) {
        if (v === undefined) return ""
        if (v === -Infinity) return "  −∞"
        return (v < 0 ? "" : " ") + v.toFixed(3)
    }
    function moved(r) {
        const a = root.carried.alpha ? root.carried.alpha[r] : 1
        return root.step > 0 && a > 0 && a < 1
    }
    readonly property int rows: carried.m ? carried.m.length : 0
    readonly property var headings: ["row", "m₋", "m", "e^(m₋−m)", "l",
        "acc (head dim " + (carried.acc && carried.acc[0] ? carried.acc[0].length : 0) + ")"]
    readonly property int numberWidth: Theme.px(64)

    color: Theme.card
    radius: Theme.radius
    border.color: Theme.cardBorder
    implicitHeight: col.implicitHeight + 2 * Theme.gapM

    ColumnLayout {
        id: col
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gap / 2

        RowLayout {
            Layout.fillWidth: true
            MonoText { text: "carried state after this step"; color: Theme.inkMuted; font.weight: Font.DemiBold }
            Item { Layout.fillWidth: true }
            ProvenanceBadge { kind: root.provenance.kind || "verified"; details: root.provenance.details || "" }
        }
        RowLayout {
            spacing: Theme.gap
            // By count, the headings rewritten in place: a model of the
            // headings themselves made them again at every step (as
            // StateFormulas explains).
            Repeater {
                model: root.headings.length
                MonoText {
                    required property int index
                    readonly property string modelData: root.headings[index]
                    Layout.preferredWidth: index === 0 ? Theme.px(32) : index === 5 ? -1 : root.numberWidth + (index === 3 ? Theme.gapM : 0)
                    text: modelData
                    color: Theme.inkFaint
                    font.pixelSize: Theme.tinySize
                }
            }
        }
        Repeater {
            model: root.rows
            Rectangle {
                id: stateRow
                required property int index
                Layout.fillWidth: true
                implicitHeight: cells.implicitHeight + Theme.gap / 2
                radius: Theme.radius / 2
                color: root.moved(index) ? Theme.accentSoft : "transparent"
                RowLayout {
                    id: cells
                    anchors.verticalCenter: parent.verticalCenter
                    spacing: Theme.gap
                    MonoText { Layout.preferredWidth: Theme.px(32); text: "r" + stateRow.index; color: Theme.inkFaint }
                    MonoText {
                        Layout.preferredWidth: root.numberWidth
                        text: root.fmt(root.previous.m ? root.previous.m[stateRow.index] : undefined)
                        color: Theme.inkMuted
                    }
                    MonoText {
                        objectName: "ex03State_m_" + stateRow.index
                        Layout.preferredWidth: root.numberWidth
                        text: root.fmt(root.carried.m[stateRow.index])
                        color: root.moved(stateRow.index) ? Theme.accent : Theme.inkText
                    }
                    MonoText {
                        objectName: "ex03State_alpha_" + stateRow.index
                        Layout.preferredWidth: root.numberWidth + Theme.gapM
                        text: root.step === 0 ? "" : root.fmt(root.carried.alpha[stateRow.index])
                        color: root.moved(stateRow.index) ? Theme.accent : Theme.inkMuted
                    }
                    MonoText {
                        objectName: "ex03State_l_" + stateRow.index
                        Layout.preferredWidth: root.numberWidth
                        text: root.fmt(root.carried.l[stateRow.index])
                        color: Theme.inkText
                    }
                    MonoText {
                        text: root.carried.acc[stateRow.index].map(v => root.fmt(v)).join(" ")
                        color: Theme.inkText
                    }
                }
            }
        }
        MonoText {
            Layout.fillWidth: true
            text: root.step === 0 ? "Before any block: no row has seen a key, so m = −∞ and l, acc are zero."
                : "e^(m₋−m) = 0 on a row's first block (nothing to rescale), 1 where the max held, below 1 where it rose (highlighted)."
            color: Theme.inkMuted
            font.family: Theme.sans
            font.pixelSize: Theme.tinySize
            wrapMode: Text.WordWrap
        }
    }
}
