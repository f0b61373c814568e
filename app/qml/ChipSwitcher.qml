import QtQuick
import TpuCourse.Ui
import TpuCourse.Sim

// Picks a chip; arrow keys move between them.
Row {
    id: root
    property string chip: Sim.defaultChip
    spacing: Theme.gap
    Repeater {
        model: Sim.chips
        delegate: PlainButton {
            required property var modelData
            objectName: "chip_" + modelData.id
            text: modelData.id
            mono: true
            fillColor: root.chip === modelData.id ? Theme.amber : Theme.card
            hoverColor: root.chip === modelData.id ? Theme.amberHover : Theme.cardHover
            textColor: root.chip === modelData.id ? Theme.ink : Theme.inkText
            onClicked: root.chip = modelData.id
            Keys.onLeftPressed: nextItemInFocusChain(false).forceActiveFocus()
            Keys.onRightPressed: nextItemInFocusChain(true).forceActiveFocus()
        }
    }
}
