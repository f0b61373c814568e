import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The collectives XLA inserts for the plan, in the order the step runs
// them: which array, on which axes, its bytes (the whole array, V), its
// time on the chip's links, and whether the matmul it runs under covers it.
GridLayout {
    id: root
    property var collectives: []   // LayerShardingModel.plan.collectives
    columns: 5
    columnSpacing: Theme.gapM
    rowSpacing: Theme.gap / 2

    Repeater {
        model: ["collective", "axes", "V", "time", "hidden?"]
        Caption { required property string modelData; text: modelData; font.weight: Font.DemiBold }
    }
    // Every cell of the rows, worked out here so each delegate only reads its own.
    readonly property var cells: {
        const out = []
        root.collectives.forEach((row, r) => {
            const shows = row.under === "" || row.exposedS > 0
            const hidden = row.under === "" ? "no: the matmul waits" : row.exposedS > 0 ? row.exposed + " shows" : "yes"
            ;[row.what, row.role, row.bytes, row.time, hidden].forEach((text, column) => out.push({
                name: "ex14Transfer_" + r + "_" + column, text: text, last: column === 4,
                right: column === 2 || column === 3, strong: column === 4 && shows }))
        })
        return out
    }
    Repeater {
        model: root.cells
        MonoText {
            required property var modelData
            objectName: modelData.name
            Layout.fillWidth: modelData.last
            Layout.alignment: modelData.right ? Qt.AlignRight : Qt.AlignLeft
            wrapMode: modelData.last ? Text.WordWrap : Text.NoWrap
            color: modelData.strong ? Theme.inkText : Theme.inkMuted
            text: modelData.text
        }
    }
}
