pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim

// The slice: which chip, how many axes and how many chips along each, and
// for a 3D slice which plane of axis 2 the drawing shows.
ColumnLayout {
    id: root
    property string chip: Sim.defaultChip
    property var shape: [8, 4]
    property int maxAxes: 2
    // The most chips each axis can take on this chip, the others as they are.
    property var axisLimits: []
    property int plane: 0
    property int planes: 1
    signal chipChosen(string id)
    signal shapeEdited(var shape)
    signal planeEdited(int plane)
    spacing: Theme.gap

    function withAxis(i, n) { const s = shape.slice(); s[i] = n; return s }
    function withRank(k) {
        const s = shape.slice(0, k)
        while (s.length < k) s.push(4)
        return s
    }

    RowLayout {
        spacing: Theme.gapM
        Caption { text: "chip" }
        ChoiceRow {
            namePrefix: "ex11Chip_"
            options: Array.from(Sim.chips).map(c => ({ id: c.id, label: c.id }))
            current: root.chip
            onChosen: id => root.chipChosen(id)
        }
    }
    RowLayout {
        spacing: Theme.gapM
        Caption { text: "slice" }
        ChoiceRow {
            namePrefix: "ex11Rank_"
            options: Array.of(1, 2, 3).filter(k => k <= root.maxAxes).map(k => ({ id: String(k), label: k + "D" }))
            current: String(root.shape.length)
            onChosen: id => root.shapeEdited(root.withRank(Number(id)))
        }
        Repeater {
            model: root.shape.length
            ScrubNumber {
                id: axisScrub
                required property int index
                objectName: "ex11Axis_" + index
                label: (index > 0 ? "× " : "") + "axis " + index
                minimumDigits: 2
                // No further than the pod allows, and 32 at most: the drawing's reach.
                from: 1; to: Math.min(32, root.axisLimits[index] || 32); stepSize: 1
                pixelsPerStep: 12
                defaultValue: 4
                // Kept to the slice after the learner's own edits too: a chip
                // switch can cut an axis to the new pod.
                Binding { target: axisScrub; property: "value"; value: root.shape[axisScrub.index] || 1 }
                onValueEdited: v => root.shapeEdited(root.withAxis(index, v))
            }
        }
        ScrubNumber {
            objectName: "ex11Plane"
            visible: root.shape.length === 3
            label: "drawing plane"
            minimumDigits: 2
            from: 0; to: Math.max(0, root.planes - 1); stepSize: 1
            pixelsPerStep: 12
            Binding on value { value: root.plane; restoreMode: Binding.RestoreNone }
            unit: "of axis 2"
            onValueEdited: v => root.planeEdited(v)
        }
    }
}
