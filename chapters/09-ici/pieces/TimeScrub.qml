import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui

// A time cursor over the run: drag it, step it with the arrow keys, or play.
RowLayout {
    id: root
    property real end: 0         // s, the run's last event
    property real time: 0
    signal moved(real time)
    spacing: Theme.gapM

    function us(s) { return (s * 1e6).toFixed(s * 1e6 < 10 ? 2 : 1) + " µs" }

    Timer {
        id: player
        interval: 30
        repeat: true
        onTriggered: {
            const t = Math.min(root.end, root.time + root.end / 150)
            root.moved(t)
            if (t >= root.end) stop()
        }
    }
    PlainButton {
        objectName: "ex11Play"
        text: player.running ? "❚❚ pause" : (root.time >= root.end && root.end > 0 ? "↺ replay" : "▶ play")
        mono: true
        Layout.preferredWidth: Theme.px(120)
        fillColor: Theme.accent; hoverColor: Theme.accentHover; textColor: Theme.ink
        onClicked: {
            if (player.running) { player.stop(); return }
            if (root.time >= root.end) root.moved(0)
            player.start()
        }
    }
    Slider {
        id: slider
        objectName: "ex11Time"
        Layout.fillWidth: true
        // Runs last from nanoseconds to seconds: the slider moves a fraction of the run.
        from: 0; to: 1
        stepSize: 1 / 200
        value: root.end > 0 ? root.time / root.end : 0
        onMoved: { player.stop(); root.moved(value * root.end) }
        Accessible.name: "time in the run"
        FocusFrame { visible: slider.activeFocus }
    }
    MonoText {
        id: clock
        objectName: "ex11Clock"
        // As wide as the clock at the end of the run, so it never moves as it counts.
        Layout.preferredWidth: Math.ceil(clockRoom.advanceWidth) + 1
        TextMetrics { id: clockRoom; font: clock.font; text: "t = " + root.us(root.end) + " / " + root.us(root.end) }
        font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        text: "t = " + root.us(root.time) + " / " + root.us(root.end)
    }
}
