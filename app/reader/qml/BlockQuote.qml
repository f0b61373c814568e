import QtQuick
import TpuCourse.Ui

// A quoted passage of the text, ruled at its left.
// Loaded by a ReaderBlock, its `host`.
Item {
    id: root
    // The block drawn, which loads this: its text, widths and inputs.
    readonly property ReaderBlock host: parent as ReaderBlock
    width: root.host.measure
    implicitHeight: quoteText.implicitHeight + Theme.gapM * 2
    Rectangle { width: Theme.px(4); height: parent.height; radius: 2; color: Theme.pageAccent }
    Rectangle {
        x: Theme.px(4); width: parent.width - x; height: parent.height
        color: Theme.pageCode
    }
    ReaderText {
        id: quoteText
        x: Theme.gapL; y: Theme.gapM
        width: parent.width - Theme.gapL - Theme.gapM
        text: root.host.html[0] || ""
        details: root.host.details
        owner: root.host
        card: root.host.card
    }
}
