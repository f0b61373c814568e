import QtQuick
import TpuCourse.Ui

// A rule between parts of the text.
// Loaded by a ReaderBlock, its `host`.
Item {
    id: root
    // The block drawn, which loads this: its text, widths and inputs.
    readonly property ReaderBlock host: parent as ReaderBlock
    width: root.host.measure
    implicitHeight: Theme.gapL
    Rectangle { y: parent.height / 2; width: parent.width; height: 1; color: Theme.pageRule }
}
