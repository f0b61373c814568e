pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The shipped programs, by collective: the working one, then the ways it
// breaks (each named for its outcome).
GridLayout {
    id: root
    property string current: ""
    signal chosen(string program)
    columns: 2
    columnSpacing: Theme.gapM
    rowSpacing: Theme.gap / 2

    readonly property var families: [
        { title: "ring all-gather", programs: [
            { id: "ring_all_gather", label: "works" },
            { id: "ring_all_gather_deadlock_cycle", label: "deadlock: cycle" },
            { id: "ring_all_gather_deadlock_wait_too_many_bytes", label: "deadlock: too many bytes" },
            { id: "ring_all_gather_race_no_wait", label: "race: no wait" },
            { id: "ring_all_gather_nonzero_send_never_waited", label: "nonzero: send never waited" } ] },
        { title: "reduce-scatter, both ways", programs: [
            { id: "reduce_scatter_bidirectional", label: "works" },
            { id: "reduce_scatter_bidirectional_deadlock_no_prologue_signal", label: "deadlock: no prologue signal" },
            { id: "reduce_scatter_bidirectional_race_no_recv_wait", label: "race: no receive wait" },
            { id: "reduce_scatter_bidirectional_race_no_send_wait", label: "race: no send wait" },
            { id: "reduce_scatter_bidirectional_nonzero_capacity", label: "nonzero: capacity" } ] }
    ]

    // Caption and choices of each family, two cells of the grid apiece.
    Repeater {
        model: root.families
        Caption {
            required property var modelData
            required property int index
            Layout.row: index
            Layout.column: 0
            Layout.alignment: Qt.AlignTop
            Layout.topMargin: Theme.gap / 2
            text: modelData.title
        }
    }
    Repeater {
        model: root.families
        ChoiceRow {
            required property var modelData
            required property int index
            Layout.row: index
            Layout.column: 1
            Layout.fillWidth: true
            options: modelData.programs
            current: root.current
            namePrefix: "ex10Program_"
            onChosen: id => root.chosen(id)
        }
    }
}
