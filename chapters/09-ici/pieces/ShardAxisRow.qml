import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One mesh axis and its role: "data" splits the batch over it, "model"
// splits the block's F over it.
RowLayout {
    id: row
    property int axis: 0
    property string size: ""
    property string role: ""
    property real captionWidth: Theme.px(104)
    signal chosen(string role)
    spacing: Theme.gapM
    Caption {
        Layout.preferredWidth: row.captionWidth
        text: "axis " + row.axis + " (" + row.size + ")"
    }
    ChoiceRow {
        Layout.fillWidth: true
        namePrefix: "ex14Axis" + row.axis + "_"
        options: [{ id: "data", label: "data: split the batch" }, { id: "model", label: "model: split F" }]
        current: row.role
        onChosen: id => row.chosen(id)
    }
}
