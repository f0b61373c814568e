pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// The bench: the predicted floor of each bench row on the chosen chip, every
// number with its badge and its assumptions one click away.
Flickable {
    id: root
    signal back()
    signal openPlace(string place)
    property alias chip: switcher.chip
    property bool full: false
    readonly property var rows: Sim.bench(chip, full)
    readonly property var measured: Course.revision >= 0 ? LabRuns.measuredBench(chip) : ({})
    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)

    contentWidth: width
    contentHeight: column.implicitHeight + Theme.gapXXL * 2
    boundsBehavior: Flickable.StopAtBounds
    clip: true
    ScrollBar.vertical: ScrollBar { policy: ScrollBar.AsNeeded }

    Rectangle { width: root.width; height: Math.max(root.height, root.contentHeight); color: Theme.floor }

    ColumnLayout {
        id: column
        x: root.margin
        y: Theme.gapXL
        width: root.width - 2 * root.margin
        spacing: Theme.gapM

        PlainButton {
            text: "← the stack"; mono: true
            fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.inkMuted
            onClicked: root.back()
        }
        Text {
            text: "The bench"
            font.family: Theme.sans; font.pixelSize: Theme.displaySize * 0.8; font.weight: Font.DemiBold
            color: Theme.inkText
        }
        MonoText {
            text: "roofline-predicted floors · " + root.chip + " · hardware rows replace these"
            color: Theme.inkMuted
        }
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.px(820)
            text: "Each floor is the roofline: the larger of the time the MXU (or VPU) needs for the FLOPs and the time HBM needs for the bytes, on the chip's published peaks. A real kernel lands above its floor; when you import a measured run for the same chip, dtype and shapes, the hardware row replaces the prediction and shows both."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        // How far to trust a floor: the models against published timings.
        PlainButton {
            objectName: "validationLink"
            text: "how wrong the models are on real chips →"
            mono: true
            fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.accent
            onClicked: root.openPlace("validation")
        }
        RowLayout {
            Layout.topMargin: Theme.gapM
            spacing: Theme.gapL
            ChipSwitcher { id: switcher }
            Item { Layout.fillWidth: true }
            PlainButton {
                objectName: "fullBenchToggle"
                text: root.full ? "← the three rows" : "the full bench →"
                mono: true
                fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.accent
                onClicked: root.full = !root.full
            }
            PlainButton {
                text: "the chips →"
                mono: true
                fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.accent
                onClicked: root.openPlace("chips")
            }
        }
        Repeater {
            model: root.rows
            delegate: ColumnLayout {
                id: benchRow
                required property var modelData
                required property int index
                Layout.fillWidth: true
                spacing: Theme.gap
                MonoText {
                    Layout.topMargin: Theme.gapM
                    visible: root.full && (benchRow.index === 0 || root.rows[benchRow.index - 1].group !== benchRow.modelData.group)
                    text: benchRow.modelData.group || ""
                    color: Theme.accent
                }
                Text {
                    visible: benchRow.modelData.error !== undefined
                    text: benchRow.modelData.error || ""
                    color: Theme.failed
                    font.family: Theme.sans; font.pixelSize: Theme.bodySize
                }
                BenchRow {
                    Layout.fillWidth: true
                    visible: benchRow.modelData.error === undefined
                    row: benchRow.modelData
                    measured: root.measured[benchRow.modelData.id]
                }
            }
        }
    }
}
