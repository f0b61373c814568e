import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The schedule's numbers: the matmul's sizes and dtype, the three block
// dimensions, and the grid with each axis's semantics. Sizes scrub through
// powers of two; blocks snap to the dtype's native tile (rows of bm to the
// sublane tile, bk and bn to 128 lanes), and Alt steps one element at a
// time, so a block that stops being a multiple turns illegal on the spot.
GridLayout {
    id: root
    required property var model      // BlockSpecModel
    signal edited()
    columns: 2
    columnSpacing: Theme.gapM
    rowSpacing: Theme.gap

    readonly property var dtypes: [{id: "bf16", label: "bf16"}, {id: "f32", label: "f32"},
                                   {id: "int8", label: "int8"}, {id: "fp8", label: "fp8"}]

    Caption { text: "sizes" }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        ScrubNumber {
            objectName: "ex09M"; label: "M"
            Binding on value { value: root.model.m; restoreMode: Binding.RestoreNone }
            defaultValue: 1024
            from: 8; to: 65536; logarithmic: true; powersOnly: true; fineStep: 8; minimumDigits: 5
            onValueEdited: v => { root.model.m = v; root.edited() }
        }
        ScrubNumber {
            objectName: "ex09K"; label: "K"
            Binding on value { value: root.model.k; restoreMode: Binding.RestoreNone }
            defaultValue: 1024
            from: 8; to: 65536; logarithmic: true; powersOnly: true; fineStep: 8; minimumDigits: 5
            onValueEdited: v => { root.model.k = v; root.edited() }
        }
        ScrubNumber {
            objectName: "ex09N"; label: "N"
            Binding on value { value: root.model.n; restoreMode: Binding.RestoreNone }
            defaultValue: 1024
            from: 8; to: 65536; logarithmic: true; powersOnly: true; fineStep: 8; minimumDigits: 5
            onValueEdited: v => { root.model.n = v; root.edited() }
        }
        ChoiceRow {
            namePrefix: "ex09Dtype_"
            options: root.dtypes
            current: root.model.dtype
            onChosen: id => { root.model.dtype = id; root.edited() }
        }
    }

    Caption { text: "blocks" }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        ScrubNumber {
            objectName: "ex09Bm"; label: "bm"
            Binding on value { value: root.model.bm; restoreMode: Binding.RestoreNone }
            defaultValue: 256
            from: 1; to: 8192; stepSize: root.model.tileRows; fineStep: 1; minimumDigits: 4
            snapReason: root.model.tileRows + "-row " + root.model.dtype + " tile"
            onValueEdited: v => { root.model.bm = v; root.edited() }
        }
        ScrubNumber {
            objectName: "ex09Bk"; label: "bk"
            Binding on value { value: root.model.bk; restoreMode: Binding.RestoreNone }
            defaultValue: 256
            from: 1; to: 8192; stepSize: root.model.tileLanes; fineStep: 1; minimumDigits: 4
            snapReason: root.model.tileLanes + " lanes"
            onValueEdited: v => { root.model.bk = v; root.edited() }
        }
        ScrubNumber {
            objectName: "ex09Bn"; label: "bn"
            Binding on value { value: root.model.bn; restoreMode: Binding.RestoreNone }
            defaultValue: 256
            from: 1; to: 8192; stepSize: root.model.tileLanes; fineStep: 1; minimumDigits: 4
            snapReason: root.model.tileLanes + " lanes"
            onValueEdited: v => { root.model.bn = v; root.edited() }
        }
    }

    Caption { text: "grid"; Layout.alignment: Qt.AlignTop; Layout.topMargin: Theme.gap }
    GridControls {
        Layout.fillWidth: true
        model: root.model
        onEdited: root.edited()
    }
}
