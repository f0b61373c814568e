import QtQuick
import TpuCourse.Ui

// Numbers, ids and code: monospaced, so a changing figure never shifts its neighbours.
Text {
    font.family: Theme.mono
    font.pixelSize: Theme.smallSize
    font.preferShaping: false
    color: Theme.pageInk   // on the reading page unless told otherwise
}
