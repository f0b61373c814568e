import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// A stage's gate at the end of its chapter: what passes it, and its state.
Rectangle {
    id: root
    property var page: ({})     // Course.chapterPage(n)
    implicitHeight: gate.implicitHeight + Theme.gapL * 2
    radius: Theme.radius
    color: Theme.ink
    ColumnLayout {
        id: gate
        x: Theme.gapL; y: Theme.gapL
        width: parent.width - 2 * Theme.gapL
        spacing: Theme.gap
        MonoText {
            text: "gate " + (root.page.gate || "") + " · " + (root.page.gateState || "") + " · judged on a measured run of lab " + (root.page.gateLab || "")
            color: Theme.gateColor(root.page.gateState)
        }
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: ProseMeasure.width(font.pixelSize, Theme.cardMeasure)
            text: root.page.gateRule || ""
            font.family: Theme.sans; font.pixelSize: Theme.bodySize
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
    }
}
