import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The cycle the array shows: scrub it, step it with the arrow keys, step a
// cycle with the buttons, or play the run. The phase the cycle falls in is
// named beside it.
ColumnLayout {
    id: root
    property real cycle: 0
    property real cycles: 0
    property string phase: ""
    property var activity: []
    property var marks: []
    readonly property bool playing: player.running
    signal moved(real cycle)
    spacing: Theme.gap

    function stop() { player.stop() }

    Timer {
        id: player
        interval: 40
        repeat: true
        onTriggered: {
            // About ten seconds for a whole run, at least one cycle a tick.
            const next = Math.min(root.cycles - 1, root.cycle + Math.max(1, Math.round(root.cycles / 250)))
            root.moved(next)
            if (next >= root.cycles - 1) stop()
        }
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gapM
        PlainButton {
            objectName: "ex06Play"
            text: player.running ? "❚❚ pause" : (root.cycle >= root.cycles - 1 && root.cycles > 0 ? "↺ replay" : "▶ play")
            mono: true
            Layout.preferredWidth: Theme.px(120)
            fillColor: Theme.accent; hoverColor: Theme.accentHover; textColor: Theme.ink
            onClicked: {
                if (player.running) { player.stop(); return }
                if (root.cycle >= root.cycles - 1) root.moved(0)
                player.start()
            }
        }
        SnugButton {
            objectName: "ex06StepBack"
            text: "◀ 1"
            mono: true
            fillColor: Theme.inkHover; hoverColor: Theme.cardHover; textColor: Theme.inkText
            onClicked: { player.stop(); root.moved(Math.max(0, root.cycle - 1)) }
        }
        SnugButton {
            objectName: "ex06StepOn"
            text: "1 ▶"
            mono: true
            fillColor: Theme.inkHover; hoverColor: Theme.cardHover; textColor: Theme.inkText
            onClicked: { player.stop(); root.moved(Math.min(root.cycles - 1, root.cycle + 1)) }
        }
        ScrubNumber {
            objectName: "ex06Cycle"
            label: "cycle"
            Binding on value { value: root.cycle; restoreMode: Binding.RestoreNone }
            from: 0; to: Math.max(0, root.cycles - 1); stepSize: 1
            pixelsPerStep: 2
            minimumDigits: 5
            onValueEdited: v => { player.stop(); root.moved(v) }
        }
        MonoText {
            font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
            text: "of " + Math.max(0, root.cycles - 1)
        }
        MonoText {
            objectName: "ex06Phase"
            Layout.fillWidth: true
            font.pixelSize: Theme.bodySize
            color: Theme.inkText
            elide: Text.ElideNone
            text: root.phase
        }
    }
    ActivityStrip {
        objectName: "ex06Activity"
        Layout.fillWidth: true
        activity: root.activity
        cycles: root.cycles
        cycle: root.cycle
        marks: root.marks
        onPicked: c => { player.stop(); root.moved(c) }
    }
}
