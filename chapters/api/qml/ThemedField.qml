import QtQuick
import QtQuick.Controls
import TpuCourse.Ui

// A one-line text field on the dark ground: its edge and its placeholder
// stand out from the card as WCAG asks (3:1 for the edge, 4.5:1 for the
// placeholder), and the edge turns to the focus colour while typing.
TextField {
    id: field
    font.family: Theme.sans
    font.pixelSize: Theme.smallSize
    color: Theme.inkText
    placeholderTextColor: Theme.inkFaint
    selectionColor: Theme.focus
    selectByMouse: true
    background: Rectangle {
        color: Theme.floor
        radius: Theme.radius
        border.width: field.activeFocus ? Theme.focusWidth : 1
        border.color: field.activeFocus ? Theme.focus : Theme.fieldBorder
    }
}
