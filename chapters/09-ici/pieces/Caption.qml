import QtQuick
import TpuCourse.Ui

// The small grey name in front of a control.
Text {
    font.family: Theme.sans
    font.pixelSize: Theme.smallSize
    color: Theme.inkMuted
}
