import QtQuick
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// Picks the course's chip from the simulator's list (one choice for every
// page and piece, kept in the progress store); arrows move between them.
ChoiceRow {
    id: root
    readonly property string chip: Course.chip
    namePrefix: "chip_"
    options: Array.from(Sim.chips).map(c => ({ id: c.id, label: c.id }))
    current: chip
    onChosen: id => Course.chip = id
}
