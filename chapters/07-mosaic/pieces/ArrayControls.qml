pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The array: its dimensions, each a scrub number (the last two are the
// tiled ones, rows on sublanes and lanes; scrub them one element at a time
// to cross a tile boundary), one more or one fewer leading dimension, and
// the dtype, whose width decides how many rows pack into a tile.
GridLayout {
    id: root
    required property var model      // LayoutLensModel
    signal dimensionEdited(int index, real value)
    signal edited()
    columns: 2
    columnSpacing: Theme.gapM
    rowSpacing: Theme.gap

    readonly property var dtypes: [{id: "f32", label: "f32"}, {id: "bf16", label: "bf16"},
                                   {id: "int8", label: "int8"}, {id: "fp8", label: "fp8"}]
    readonly property int rank: root.model.shape.length

    function dimName(i) {
        if (i === rank - 1) return "lanes"
        if (i === rank - 2) return "rows"
        return "dim " + i
    }

    Caption { text: "shape"; Layout.alignment: Qt.AlignTop; Layout.topMargin: Theme.gap }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        Repeater {
            model: root.rank
            delegate: ScrubNumber {
                required property int index
                objectName: "ex12Dim_" + index
                label: root.dimName(index)
                // A Binding element, not a plain binding: the scrub's own
                // edits assign its value, and it must still follow the
                // model when a preset or the waste saw changes the shape.
                Binding on value { value: Number(root.model.shape[index] || 0) }
                defaultValue: index === root.rank - 1 ? 128 : index === root.rank - 2 ? root.model.tileRows : 1
                from: 0; to: 1048576
                stepSize: 1; fineStep: 1; minimumDigits: 5
                snapReason: ""
                onValueEdited: v => root.dimensionEdited(index, v)
            }
        }
        SnugButton {
            objectName: "ex12AddDim"
            text: "+ dim"; mono: true
            visible: root.rank < 4
            fillColor: Theme.inkHover; hoverColor: Theme.cardHover; textColor: Theme.inkText
            onClicked: { root.model.shape = [1].concat(root.model.shape); root.edited() }
        }
        SnugButton {
            objectName: "ex12RemoveDim"
            text: "− dim"; mono: true
            visible: root.rank > 1
            fillColor: Theme.inkHover; hoverColor: Theme.cardHover; textColor: Theme.inkText
            onClicked: { root.model.shape = root.model.shape.slice(1); root.edited() }
        }
    }

    Caption { text: "dtype" }
    ChoiceRow {
        Layout.fillWidth: true
        namePrefix: "ex12Dtype_"
        options: root.dtypes
        current: root.model.dtype
        onChosen: id => { root.model.dtype = id; root.edited() }
    }
}
