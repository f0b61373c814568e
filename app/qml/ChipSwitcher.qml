import QtQuick
import TpuCourse.Ui
import TpuCourse.Sim

// Picks a chip from the simulator's list; arrow keys move between them.
ChoiceRow {
    id: root
    property string chip: Sim.defaultChip
    namePrefix: "chip_"
    options: Sim.chips.map(c => ({ id: c.id, label: c.id }))
    current: chip
    onChosen: id => root.chip = id
}
