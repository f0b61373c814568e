pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The grid's three axes: each one's size (fitted to the blocks until the
// learner scrubs it), its semantics (parallel axes may be split across
// TensorCores), and which axis the kernel body reads as its reduction
// index k = program_id(r).
ColumnLayout {
    id: root
    required property var model      // BlockSpecModel
    signal edited()
    spacing: Theme.gap
    // The grid indices as the output map's lambda names them, for the labels.
    readonly property var names: {
        const header = /^\s*lambda\s+([^:]*):/.exec(root.model.outMap || "")
        return header ? header[1].split(",").map(n => n.trim()) : []
    }
    function axisLabel(axis) { return names.length === 3 && names[axis] ? axis + " · " + names[axis] : String(axis) }
    // Room for a one-letter name, so renaming the indices never moves the numbers.
    TextMetrics { id: labelRoom; text: "0 · m"; font.family: Theme.sans; font.pixelSize: Theme.smallSize }

    function setAxis(axis, v) {
        const g = root.model.gridUsed.slice()
        g[axis] = v
        root.model.grid = g
        root.model.followBlocks = false
        root.edited()
    }
    function toggle(axis) {
        const s = root.model.semantics.slice()
        s[axis] = s[axis] === "parallel" ? "arbitrary" : "parallel"
        root.model.semantics = s
        root.edited()
    }

    // Rows of controls flow onto a second line in a narrow column rather
    // than pushing the column wider than its share.
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        Repeater {
            model: 3
            delegate: ColumnLayout {
                id: axis
                required property int index
                spacing: Theme.px(4)
                ScrubNumber {
                    id: axisScrub
                    objectName: "ex09Grid" + axis.index
                    label: root.axisLabel(axis.index)
                    labelWidth: labelRoom.width
                    labelColor: Theme.inkFaint
                    // Follows the model even after a drag has set the value by hand.
                    Binding on value { value: root.model.gridUsed[axis.index] || 1; restoreMode: Binding.RestoreNone }
                    defaultValue: 4
                    from: 1; to: 4096; minimumDigits: 3
                    onValueEdited: v => root.setAxis(axis.index, v)
                }
                SnugButton {
                    objectName: "ex09Semantics" + axis.index
                    Layout.fillWidth: true
                    mono: true
                    readonly property bool parallel: root.model.semantics[axis.index] === "parallel"
                    text: parallel ? "parallel" : "arbitrary"
                    fillColor: parallel ? Theme.inkHover : "transparent"
                    border.width: 1
                    border.color: parallel ? Theme.inkHover : Theme.cardBorder
                    hoverColor: Theme.cardHover
                    textColor: parallel ? Theme.inkText : Theme.inkMuted
                    onClicked: root.toggle(axis.index)
                }
            }
        }
        PlainButton {
            objectName: "ex09FitGrid"
            text: root.model.followBlocks ? "fits the blocks (" + root.model.order + ")" : "fit to blocks"
            mono: true
            fillColor: "transparent"
            textColor: root.model.followBlocks ? Theme.inkFaint : Theme.accent
            onClicked: { root.model.followBlocks = true; root.edited() }
        }
    }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gap
        Caption { text: "kernel body: k = program_id("; height: reduction.height; verticalAlignment: Text.AlignVCenter }
        ChoiceRow {
            id: reduction
            namePrefix: "ex09Reduction_"
            options: Array.of(0, 1, 2).map(a => ({ id: String(a), label: root.axisLabel(a) }))
            current: String(root.model.reductionAxis)
            onChosen: id => { root.model.reductionAxis = Number(id); root.edited() }
        }
        Caption { text: ")"; height: reduction.height; verticalAlignment: Text.AlignVCenter }
    }
    Caption {
        Layout.fillWidth: true
        text: "zero the accumulator at k = 0, store at the last k"
        wrapMode: Text.Wrap
    }
}
