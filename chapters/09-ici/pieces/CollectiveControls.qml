import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// What runs on the slice: the collective, the array's bytes, ring
// direction and the mesh axis it spans.
ColumnLayout {
    id: root
    property string kind: "all-gather"
    property real bytes: 32 * 1024 * 1024
    property bool bidirectional: true
    property int axis: 1
    property var shape: [8, 4]
    property string bytesText: ""    // libtpusim's reading of the bytes, "32 MiB"
    signal kindChosen(string kind)
    signal bytesEdited(real bytes)
    signal bidirectionalChosen(bool on)
    signal axisChosen(int axis)
    spacing: Theme.gap

    RowLayout {
        spacing: Theme.gapM
        Caption { text: "collective" }
        ChoiceRow {
            namePrefix: "ex11Kind_"
            options: Array.of("all-gather", "reduce-scatter", "all-reduce", "all-to-all", "permute").map(k => ({ id: k, label: k }))
            current: root.kind
            onChosen: id => root.kindChosen(id)
        }
    }
    RowLayout {
        spacing: Theme.gapM
        ScrubNumber {
            id: bytesScrub
            objectName: "ex11Bytes"
            label: "array V"
            logarithmic: true; factor: 2; powersOnly: true
            from: 1; to: 16 * 1024 * 1024; defaultValue: 32 * 1024
            minimumDigits: 6
            // Held in KiB so every power of two from 1 KiB to 16 GiB is a step.
            Binding on value { value: root.bytes / 1024; restoreMode: Binding.RestoreNone }
            onValueEdited: v => root.bytesEdited(v * 1024)
        }
        Caption { objectName: "ex11BytesText"; text: "KiB" + (root.bytesText ? " = " + root.bytesText : "") }
        Caption { text: "ring" }
        ChoiceRow {
            namePrefix: "ex11Ring_"
            options: [{ id: "bi", label: "bidirectional" }, { id: "uni", label: "unidirectional" }]
            current: root.bidirectional ? "bi" : "uni"
            onChosen: id => root.bidirectionalChosen(id === "bi")
        }
        Caption { text: "over" }
        ChoiceRow {
            namePrefix: "ex11AxisChoice_"
            options: root.shape.map((n, i) => ({ id: String(i), label: "axis " + i + " (" + n + ")" }))
            current: String(root.axis)
            onChosen: id => root.axisChosen(Number(id))
        }
    }
}
