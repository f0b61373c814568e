import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Profile

// A read under way: how far, and a way to stop it.
RowLayout {
    id: root
    spacing: Theme.gapM
    MonoText { text: "reading"; color: Theme.inkMuted }
    ProgressLine {
        Layout.fillWidth: true
        barWidth: Math.max(Theme.progressWidth, root.width - Theme.px(240))
        value: Profile.progress
        fillColor: Theme.accent
        trackColor: Theme.trackOnDark
        textColor: Theme.inkMuted
    }
    PlainButton {
        objectName: "profileCancel"
        text: "stop"; mono: true
        fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.inkMuted
        onClicked: Profile.cancel()
    }
}
