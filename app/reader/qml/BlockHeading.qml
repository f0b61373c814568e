import QtQuick
import TpuCourse.Ui

// A heading of the text, sized by its level.
// Loaded by a ReaderBlock, its `host`.
Item {
    id: root
    // The block drawn, which loads this: its text, widths and inputs.
    readonly property ReaderBlock host: parent as ReaderBlock
    width: root.host.measure
    implicitHeight: headingText.implicitHeight + (root.host.block.level <= 3 ? Theme.gapXL : Theme.gapL)
    Text {
        id: headingText
        objectName: "heading:" + root.host.anchor
        anchors.bottom: parent.bottom
        width: parent.width
        text: root.host.block.title || ""
        wrapMode: Text.WordWrap
        font.family: Theme.sans
        // Headings grow with the learner's text size, as the prose does.
        font.pixelSize: (root.host.block.level <= 2 ? Theme.headingSize * 1.1 : root.host.block.level === 3 ? Theme.headingSize
                                                                                                 : Theme.subheadingSize) * Theme.readerScale
        font.weight: Font.DemiBold
        color: Theme.pageInk
        Accessible.role: Accessible.Heading
    }
}
