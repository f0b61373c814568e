import QtQuick
import TpuCourse.Ui

// A PlainButton with tighter sides, so a row of chips, dtypes and presets
// fits one line at 1280 px.
PlainButton {
    id: root
    implicitWidth: metrics.advanceWidth + Theme.gapM * 2
    TextMetrics {
        id: metrics
        text: root.text
        font.family: root.mono ? Theme.mono : Theme.sans
        font.pixelSize: Theme.smallSize
        font.weight: Font.DemiBold
        font.preferShaping: !root.mono
    }
}
