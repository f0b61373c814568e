import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim

// The relayout to price: none, a transpose of the last two dimensions, a
// reshape to a shape typed here (or the lane-dense one, rows of 128), or a
// cast to another dtype; and the chip whose HBM prices it, the course's one.
GridLayout {
    id: root
    required property var model      // LayoutLensModel
    signal edited()
    signal chipChosen(string id)
    columns: 2
    columnSpacing: Theme.gapM
    rowSpacing: Theme.gap

    readonly property var kinds: [{id: "none", label: "none"}, {id: "transpose", label: "transpose"},
                                  {id: "reshape", label: "reshape"}, {id: "cast", label: "cast"}]
    readonly property var dtypes: [{id: "f32", label: "f32"}, {id: "bf16", label: "bf16"},
                                   {id: "int8", label: "int8"}, {id: "fp8", label: "fp8"}]
    readonly property real elements: root.model.shape.reduce((n, d) => n * Number(d), 1)
    // The same elements in rows of 128 lanes, when they divide.
    readonly property var laneDense: elements > 0 && elements % 128 === 0 ? [elements / 128, 128] : []

    function tuple(list) { return "(" + list.map(v => String(v)).join(", ") + ")" }
    // "(4096, 128)", "4096x128" or "4096 128": the numbers, or [] when any is not one.
    function parseShape(text) {
        const parts = text.replace(/[()\[\]]/g, " ").split(/[\s,x×]+/).filter(p => p !== "")
        const numbers = parts.map(Number)
        return parts.length > 0 && numbers.every(n => isFinite(n) && Math.floor(n) === n) ? numbers : []
    }
    function choose(kind) {
        if (kind === "reshape" && root.model.reshapeTo.length === 0)
            root.model.reshapeTo = root.laneDense.length ? root.laneDense : root.model.shape
        root.model.relayout = kind
        root.edited()
    }

    Caption { text: "chip" }
    ChoiceRow {
        Layout.fillWidth: true
        namePrefix: "ex12Chip_"
        options: Array.from(Sim.chips).map(c => ({ id: c.id, label: c.id }))
        current: root.model.chip
        onChosen: id => root.chipChosen(id)
    }

    Caption { text: "relayout" }
    ChoiceRow {
        Layout.fillWidth: true
        namePrefix: "ex12Relayout_"
        options: root.kinds
        current: root.model.relayout
        onChosen: id => root.choose(id)
    }

    Caption { text: "to shape"; visible: root.model.relayout === "reshape" }
    RowLayout {
        Layout.fillWidth: true
        visible: root.model.relayout === "reshape"
        spacing: Theme.gap
        Rectangle {
            Layout.fillWidth: true
            Layout.minimumWidth: Theme.px(140)
            implicitHeight: field.implicitHeight + Theme.gap
            radius: Theme.radius
            color: Theme.floor
            border.width: field.activeFocus ? Theme.focusWidth : 1
            border.color: field.activeFocus ? Theme.focus : Theme.fieldBorder
            TextInput {
                id: field
                objectName: "ex12ReshapeTo"
                anchors.fill: parent
                anchors.leftMargin: Theme.gap; anchors.rightMargin: Theme.gap
                verticalAlignment: TextInput.AlignVCenter
                font.family: Theme.mono
                font.pixelSize: Theme.smallSize
                color: Theme.inkText
                selectionColor: Theme.focus
                selectByMouse: true
                activeFocusOnTab: true
                clip: true
                Accessible.role: Accessible.EditableText
                Accessible.name: "shape to reshape to"
                // Follows the model unless the learner is typing in it.
                Binding on text { value: root.tuple(root.model.reshapeTo); when: !field.activeFocus }
                onTextEdited: { root.model.reshapeTo = root.parseShape(text); root.edited() }
            }
        }
        SnugButton {
            objectName: "ex12LaneDense"
            visible: root.laneDense.length > 0
            text: "rows of 128"; mono: true
            fillColor: Theme.inkHover; hoverColor: Theme.cardHover; textColor: Theme.inkText
            onClicked: { root.model.reshapeTo = root.laneDense; root.edited() }
        }
    }

    Caption { text: "cast to"; visible: root.model.relayout === "cast" }
    ChoiceRow {
        Layout.fillWidth: true
        visible: root.model.relayout === "cast"
        namePrefix: "ex12CastTo_"
        options: root.dtypes
        current: root.model.castTo
        onChosen: id => { root.model.castTo = id; root.edited() }
    }
}
