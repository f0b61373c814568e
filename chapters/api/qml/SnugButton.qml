import QtQuick
import TpuCourse.Ui

// A PlainButton with tighter sides, so a row of chips, dtypes and presets
// fits one line at 1280 px.
PlainButton {
    sidePadding: Theme.gapM
}
