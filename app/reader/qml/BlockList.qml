pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui

// A list of the text, numbered or bulleted.
// Loaded by a ReaderBlock, its `host`.
Column {
    id: root
    // The block drawn, which loads this: its text, widths and inputs.
    readonly property ReaderBlock host: parent as ReaderBlock
    width: root.host.measure
    spacing: Theme.gap
    Repeater {
        model: root.host.html
        delegate: Row {
            id: entry
            required property string modelData
            required property int index
            spacing: Theme.gap
            Text {
                width: Theme.gapL
                horizontalAlignment: Text.AlignRight
                text: root.host.block.ordered ? (root.host.block.start + entry.index) + "." : "•"
                font.family: Theme.sans; font.pixelSize: Theme.readerSize
                lineHeight: Theme.readerLeading
                color: Theme.pageMuted
            }
            ReaderText {
                width: root.host.measure - Theme.gapL - Theme.gap
                text: entry.modelData
                details: root.host.details
                owner: root.host
                card: root.host.card
            }
        }
    }
}
