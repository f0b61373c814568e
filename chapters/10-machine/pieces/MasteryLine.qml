import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// Where the learner stands on this piece's mastery item: an op moved across
// the ridge into compute, and back into memory.
RowLayout {
    id: root
    property bool crossedUp: false
    property bool crossedDown: false
    property bool done: false
    spacing: Theme.gapM

    Text {
        Layout.fillWidth: true
        objectName: "ex01Mastery"
        wrapMode: Text.Wrap
        text: root.done ? "✓ Crossed the ridge both ways: counted toward chapter 10."
                        : "Move an op across the ridge both ways:\n" + (root.crossedUp ? "✓" : "○")
                          + " memory → compute     " + (root.crossedDown ? "✓" : "○") + " compute → memory"
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: root.done ? Theme.inkText : Theme.inkMuted
    }
}
