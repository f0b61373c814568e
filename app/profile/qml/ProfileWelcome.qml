import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// What to open, and how to record it, before a profile is open.
Rectangle {
    id: root
    implicitHeight: body.implicitHeight + 2 * Theme.gapL
    radius: Theme.radius
    color: Theme.card
    border.color: Theme.cardBorder

    ColumnLayout {
        id: body
        x: Theme.gapL
        y: Theme.gapL
        width: root.width - 2 * Theme.gapL
        spacing: Theme.gapM
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.readingWidth
            text: "Open what jax.profiler.trace wrote (the folder, or the .xplane.pb inside its plugins/profile/<run>/), or drop it on the window. Each op the device ran is set beside what the simulator predicts for it on the same chip: what was slow, by how much, and why."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; lineHeight: 1.3
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        Rectangle {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.readingWidth
            implicitHeight: code.implicitHeight + 2 * Theme.gapM
            radius: Theme.radius
            color: Theme.floor
            MonoText {
                id: code
                x: Theme.gapM
                y: Theme.gapM
                width: parent.width - 2 * Theme.gapM
                text: "f(x).block_until_ready()            # compile and warm up outside the trace\nwith jax.profiler.trace(\"/tmp/profile\"):\n    for _ in range(10):\n        f(x).block_until_ready()"
                color: Theme.inkText
                wrapMode: Text.NoWrap
            }
        }
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.readingWidth
            text: "The labs write one with --profile DIR. A trace JSON (perfetto_trace.json.gz) opens too, with times only: it carries no FLOPs or programs to predict from."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
    }
}
