pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The recurrence each query row carries, written for the block in hand.
Rectangle {
    id: root
    property int block: -1   // the block folded in at this step; -1 before the first
    readonly property string j: block < 0 ? "ⱼ" : String(block).split("").map(c => "₀₁₂₃₄₅₆₇₈₉"[c]).join("")
    readonly property var rules: [
        { name: "m  ", rule: "max(m₋, rowmax S" + j + ")" },
        { name: "l  ", rule: "l₋·e^(m₋−m) + rowsum e^(S" + j + "−m)" },
        { name: "acc", rule: "acc₋·e^(m₋−m) + e^(S" + j + "−m)·V" + j },
        { name: "O  ", rule: "acc / l, once, after the last block" }
    ]

    color: Theme.card
    radius: Theme.radius
    border.color: Theme.cardBorder
    implicitHeight: col.implicitHeight + 2 * Theme.gapM

    ColumnLayout {
        id: col
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gap / 2
        MonoText { text: "CARRIED STATE, per query row"; color: Theme.inkMuted; font.weight: Font.DemiBold }
        // By count: a step rewrites the rules in place. A model of the
        // rules themselves made every row again at each step, and a row
        // deleted while its layout was being arranged crashed Qt 6.4.
        Repeater {
            model: root.rules.length
            RowLayout {
                id: formula
                required property int index
                readonly property var modelData: root.rules[formula.index]
                Layout.fillWidth: true
                spacing: Theme.gap
                MonoText { text: formula.modelData.name + " :"; color: Theme.accent; font.pixelSize: Theme.smallSize }
                MonoText {
                    Layout.fillWidth: true
                    text: formula.modelData.rule
                    color: Theme.inkText
                    font.pixelSize: Theme.smallSize
                    elide: Text.ElideRight
                }
            }
        }
        MonoText {
            Layout.fillWidth: true
            text: "m₋ is the row's max before this block; e^(m₋−m) rescales what was summed under the old max."
            color: Theme.inkMuted
            font.family: Theme.sans
            font.pixelSize: Theme.tinySize
            wrapMode: Text.WordWrap
        }
    }
}
