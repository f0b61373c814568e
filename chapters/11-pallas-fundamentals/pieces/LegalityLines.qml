pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One line per operand: its block against its array, legal or not, and
// Mosaic's reason in libtpusim's words; packing advice underneath.
ColumnLayout {
    id: root
    property var operands: []   // BlockSpecModel.operands
    spacing: Theme.px(4)

    // The widest "out (256, 256) of (1024, 1024)", so the reasons line up.
    TextMetrics {
        id: widest
        font.family: Theme.mono
        font.pixelSize: Theme.smallSize
        font.preferShaping: false  // as the MonoText lines it measures
        text: root.operands.map(o => o.name + " " + o.block + " of " + o.array)
                           .reduce((a, b) => b.length > a.length ? b : a, "")
    }

    // By count, not by the list: a new report (every scrub step) then updates
    // the lines' texts in place instead of making the lines anew.
    Repeater {
        model: root.operands.length
        delegate: ColumnLayout {
            id: line
            required property int index
            readonly property var operand: root.operands[index] || ({name: "", block: "", array: "", reason: "", notes: []})
            Layout.fillWidth: true
            spacing: 0
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gap
                MonoText {
                    objectName: "ex09Legal_" + line.operand.name
                    Layout.preferredWidth: Theme.px(64)
                    Layout.alignment: Qt.AlignTop
                    text: (line.operand.legal ? "legal" : "illegal")
                    color: line.operand.legal ? Theme.inkText : Theme.failed
                    font.weight: Font.DemiBold
                }
                MonoText {
                    Layout.alignment: Qt.AlignTop
                    Layout.preferredWidth: widest.advanceWidth
                    text: line.operand.name + " " + line.operand.block + " of " + line.operand.array
                    color: Theme.inkMuted
                }
                Text {
                    objectName: "ex09Reason_" + line.operand.name
                    Layout.fillWidth: true
                    text: line.operand.reason
                    wrapMode: Text.Wrap
                    font.family: Theme.sans
                    font.pixelSize: Theme.smallSize
                    color: line.operand.legal ? Theme.inkMuted : Theme.failed
                }
            }
            Text {
                Layout.fillWidth: true
                Layout.leftMargin: Theme.px(64) + Theme.gap
                visible: line.operand.notes.length > 0
                text: line.operand.notes.join("; ")
                wrapMode: Text.Wrap
                font.family: Theme.sans
                font.pixelSize: Theme.tinySize
                color: Theme.inkFaint
            }
        }
    }
}
