import QtQuick
import TpuCourse.Ui

// One array block in a memory: its name, and whether the current step is
// using it (filled), fetching it next (outlined) or has finished with it (dim).
Rectangle {
    id: root
    property string label: ""
    property string note: ""
    // "idle", "current", "next", "done", "empty", "ghost"
    property string phase: "idle"

    implicitWidth: Math.max(Theme.px(40), texts.implicitWidth + Theme.gapM)
    implicitHeight: Math.max(Theme.px(34), texts.implicitHeight + Theme.gap)
    radius: Theme.radius / 2
    color: phase === "current" ? Theme.accent
         : phase === "next" ? Theme.accentSoft
         : phase === "ghost" || phase === "empty" ? "transparent" : Theme.inkHover
    border.width: phase === "idle" || phase === "current" ? 0 : 1
    border.color: phase === "next" ? Theme.accent : Theme.cardBorder
    opacity: phase === "done" ? 0.45 : 1
    Behavior on color { ColorAnimation { duration: Theme.scrollDuration } }

    Column {
        id: texts
        anchors.centerIn: parent
        MonoText {
            id: text
            anchors.horizontalCenter: parent.horizontalCenter
            text: root.label
            font.pixelSize: Theme.smallSize
            font.weight: root.phase === "current" ? Font.Bold : Font.Normal
            color: root.phase === "current" ? Theme.ink
                 : root.phase === "ghost" || root.phase === "empty" ? Theme.inkFaint : Theme.inkText
        }
        MonoText {
            anchors.horizontalCenter: parent.horizontalCenter
            visible: root.note.length > 0
            text: root.note
            font.pixelSize: Theme.tinySize
            color: root.phase === "current" ? Theme.ink : Theme.inkMuted
        }
    }
}
