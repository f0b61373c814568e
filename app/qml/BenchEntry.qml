pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// The bench at the foot of the stack: the landing rows for v5e, predicted,
// and the way to the full bench.
Rectangle {
    id: root
    signal openPlace(string place)
    readonly property string chip: Course.chip
    // Read once per change of progress, not once per row.
    readonly property var measured: Course.revision >= 0 ? LabRuns.measuredBench(chip) : ({})
    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)
    color: Theme.floor
    implicitHeight: column.implicitHeight + Theme.gapXXL

    ColumnLayout {
        id: column
        x: root.margin
        y: Theme.gapXL
        width: root.width - 2 * root.margin
        spacing: Theme.gap
        MonoText {
            text: "roofline-predicted floors · " + root.chip + " · hardware rows replace these"
            color: Theme.inkMuted
        }
        Repeater {
            model: Sim.bench(root.chip, false)
            delegate: BenchRow {
                required property var modelData
                Layout.fillWidth: true
                row: modelData
                measured: root.measured[modelData.id]
            }
        }
        PlainButton {
            objectName: "fullBenchLink"
            text: "the full bench →"
            mono: true
            fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.accent
            onClicked: root.openPlace("bench")
        }
    }
}
