import QtQuick
import TpuCourse.Ui

// A quiet label in front of a group of controls.
Text {
    font.family: Theme.sans
    font.pixelSize: Theme.smallSize
    color: Theme.inkMuted
}
