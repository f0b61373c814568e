import QtQuick
import TpuCourse.Ui

// A label written on the chart beside the line it names.
Text {
    property bool muted: false
    font.family: Theme.mono
    font.pixelSize: Theme.tinySize
    color: muted ? Theme.inkFaint : Theme.inkMuted
}
