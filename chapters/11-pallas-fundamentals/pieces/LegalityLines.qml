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
        text: root.operands.map(o => o.name + " " + o.block + " of " + o.array)
                           .reduce((a, b) => b.length > a.length ? b : a, "")
    }

    Repeater {
        model: root.operands
        delegate: ColumnLayout {
            required property var modelData
            Layout.fillWidth: true
            spacing: 0
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gap
                MonoText {
                    objectName: "ex09Legal_" + modelData.name
                    Layout.preferredWidth: Theme.px(64)
                    Layout.alignment: Qt.AlignTop
                    text: (modelData.legal ? "legal" : "illegal")
                    color: modelData.legal ? Theme.inkText : Theme.failed
                    font.weight: Font.DemiBold
                }
                MonoText {
                    Layout.alignment: Qt.AlignTop
                    Layout.preferredWidth: widest.advanceWidth
                    text: modelData.name + " " + modelData.block + " of " + modelData.array
                    color: Theme.inkMuted
                }
                Text {
                    objectName: "ex09Reason_" + modelData.name
                    Layout.fillWidth: true
                    text: modelData.reason
                    wrapMode: Text.Wrap
                    font.family: Theme.sans
                    font.pixelSize: Theme.smallSize
                    color: modelData.legal ? Theme.inkMuted : Theme.failed
                }
            }
            Text {
                Layout.fillWidth: true
                Layout.leftMargin: Theme.px(64) + Theme.gap
                visible: modelData.notes.length > 0
                text: modelData.notes.join("; ")
                wrapMode: Text.Wrap
                font.family: Theme.sans
                font.pixelSize: Theme.tinySize
                color: Theme.inkFaint
            }
        }
    }
}
