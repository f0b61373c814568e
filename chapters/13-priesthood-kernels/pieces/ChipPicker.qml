import QtQuick
import TpuCourse.Ui
import TpuCourse.Sim

// Picks the chip the costs are priced on; arrow keys move between chips.
Row {
    id: root
    property string chip: Sim.defaultChip
    spacing: Theme.gap / 2
    Repeater {
        model: Sim.chips
        PlainButton {
            required property var modelData
            objectName: "ex03Chip_" + modelData.id
            text: modelData.id
            mono: true
            implicitWidth: Theme.px(52)
            fillColor: root.chip === modelData.id ? Theme.amber : Theme.inkHover
            hoverColor: root.chip === modelData.id ? Theme.amberHover : Theme.cardHover
            textColor: root.chip === modelData.id ? Theme.ink : Theme.inkText
            onClicked: root.chip = modelData.id
            Keys.onLeftPressed: nextItemInFocusChain(false).forceActiveFocus()
            Keys.onRightPressed: nextItemInFocusChain(true).forceActiveFocus()
        }
    }
}
