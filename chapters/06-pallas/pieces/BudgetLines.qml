pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The budget line by line, in the stack's colours: what each buffer holds,
// its buffers times its padded bytes, the padding in it, and, for a block
// Mosaic refuses, the rule it breaks.
ColumnLayout {
    id: root
    property var budget: ({})        // VmemBudgetModel.budget
    readonly property var lines: budget.lines || []
    spacing: Theme.px(4)

    function roleColor(role) {
        return Theme.seriesColor(Array.of("input", "output", "scratch", "temporary").indexOf(role))
    }

    // The widest "2 × 1.5 MiB = 3 MiB", so the names line up.
    TextMetrics {
        id: widest
        font.family: Theme.mono
        font.pixelSize: Theme.smallSize
        font.preferShaping: false  // as the MonoText lines it measures
        text: root.lines.map(l => l.buffers + " × " + l.paddedText + " = " + l.totalText)
                        .reduce((a, b) => b.length > a.length ? b : a, "")
    }

    // By count: a scrub that changes the figures but not the number of
    // lines updates the rows in place instead of making them again.
    Repeater {
        model: root.lines.length
        delegate: RowLayout {
            id: row
            required property int index
            readonly property var modelData: root.lines[index] || ({})
            Layout.fillWidth: true
            spacing: Theme.gap
            Rectangle {
                Layout.alignment: Qt.AlignTop
                Layout.topMargin: Theme.px(4)
                implicitWidth: Theme.gap + Theme.px(2); implicitHeight: implicitWidth
                radius: Theme.px(2)
                color: root.roleColor(row.modelData.role)
            }
            MonoText {
                objectName: "ex07LineTotal_" + row.index
                Layout.alignment: Qt.AlignTop
                Layout.preferredWidth: widest.advanceWidth + Theme.gap
                text: row.modelData.buffers + " × " + row.modelData.paddedText + " = " + row.modelData.totalText
                color: Theme.inkText
            }
            ColumnLayout {
                Layout.fillWidth: true
                spacing: 0
                Text {
                    objectName: "ex07LineName_" + row.index
                    Layout.fillWidth: true
                    text: row.modelData.name + " · " + row.modelData.role
                    wrapMode: Text.Wrap
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
                    color: row.modelData.legal ? Theme.inkText : Theme.failed
                }
                Text {
                    Layout.fillWidth: true
                    text: row.modelData.what + (row.modelData.padding > 0
                          ? " · padded to " + row.modelData.padded + " in " + row.modelData.tile + " tiles: "
                            + row.modelData.paddingText + " of padding" : "")
                    wrapMode: Text.Wrap
                    font.family: Theme.sans; font.pixelSize: Theme.tinySize
                    color: Theme.inkMuted
                }
                Text {
                    objectName: "ex07LineIllegal_" + row.index
                    Layout.fillWidth: true
                    visible: !row.modelData.legal
                    text: row.modelData.reason
                    wrapMode: Text.Wrap
                    font.family: Theme.sans; font.pixelSize: Theme.tinySize
                    color: Theme.failed
                }
            }
        }
    }
}
