import QtQuick
import TpuCourse.Ui

// Why a file could not be read, in its own sentence.
Rectangle {
    id: root
    property alias text: label.text
    implicitHeight: label.implicitHeight + 2 * Theme.gapM
    radius: Theme.radius
    color: Theme.problemGround
    Text {
        id: label
        x: Theme.gapM
        y: Theme.gapM
        width: root.width - 2 * Theme.gapM
        font.family: Theme.sans; font.pixelSize: Theme.bodySize
        color: Theme.inkText
        wrapMode: Text.WrapAtWordBoundaryOrAnywhere
    }
}
