pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import TpuCourse.Ui

// A number you change by dragging it sideways, after Tangle's adjustable
// number: each `pixelsPerStep` of travel is one step, then the value snaps
// to a multiple of `stepSize` (a block size's legal tile, say) and is
// clamped to [from, to]. Sizes use `logarithmic`: a step multiplies by
// `factor`, and `powersOnly` keeps the value on powers of it. Shift makes
// steps 10x bigger; Alt gives fine steps of `fineStep` for values between
// the snaps. A click without a drag lets you type any value (kept to
// `fineStep`); a double click restores `defaultValue`. Keyboard: arrows
// step (Alt: fine), Enter (or a digit) types, Delete resets. The hint says
// what the number snaps to. An edit writes `value`, then says so
// (valueEdited), which ends a plain binding on `value`: a number that shows
// a model's field binds it with `Binding on value { value: model.x;
// restoreMode: Binding.RestoreNone }`, so it follows the model after edits.
Item {
    id: root
    property real value: 0
    property real from: 0
    property real to: 100
    property real stepSize: 1
    property real defaultValue: 0
    property bool logarithmic: false
    property real factor: 2            // per step, when logarithmic
    property bool powersOnly: false    // logarithmic: only powers of `factor`
    property real fineStep: stepSize   // Alt's step, and the grain a typed value keeps
    property string snapReason: ""     // why it snaps where it does ("the 128-lane tile")
    readonly property string snapHint: {
        const fine = fineStep !== stepSize || logarithmic ? " · Alt: steps of " + fineStep : ""
        if (logarithmic && powersOnly)
            return "steps through powers of " + factor + fine
        if (logarithmic)
            return "each step ×" + factor + fine
        if (stepSize > 1)
            return "snaps to multiples of " + stepSize + (snapReason !== "" ? " (" + snapReason + ")" : "") + fine
        return ""
    }
    property int decimals: 0
    property string unit: ""
    property string label: ""
    property real labelWidth: 0         // at least; keeps the number still when the label changes
    property int minimumDigits: 4
    property real pixelsPerStep: logarithmic ? 40 : 8
    readonly property real finePixelsPerStep: 4
    property color textColor: Theme.inkText
    property color labelColor: Theme.inkMuted
    readonly property bool editing: editor.visible
    readonly property string readoutText: readout.text
    signal valueEdited(real value)

    function format(v) { return Number(v).toFixed(decimals) }

    // Snap to the step (or the nearest power), or in fine mode only to the
    // fine grain; then clamp.
    function settle(v, fine) {
        if (!isFinite(v))
            return value
        if (fine)
            v = Math.round(v / fineStep) * fineStep
        else if (logarithmic && powersOnly && v > 0)
            v = Math.pow(factor, Math.round(Math.log(v) / Math.log(factor)))
        else
            v = Math.round(v / stepSize) * stepSize
        v = Number(v.toFixed(decimals))
        // Snapped, the lowest value is the first snap; fine or typed, `from`.
        const lowest = fine || logarithmic ? from : Math.max(from, Math.ceil(from / stepSize) * stepSize)
        return Math.max(lowest, Math.min(to, v))
    }
    function stepped(base, steps, fine) {
        if (fine) return base + steps * fineStep
        return logarithmic ? base * Math.pow(factor, steps) : base + steps * stepSize
    }
    // Sets the value as the learner's edit: settled, and announced if it changed.
    function setValue(v, fine) {
        const settled = settle(v, fine === true)
        if (settled === value)
            return false
        value = settled
        valueEdited(settled)
        return true
    }
    function stepBy(steps, fine) {
        // A step that settles back on the same value (an off-grid value
        // snapping home) still moves one whole step.
        if (!setValue(stepped(value, steps, fine), fine) && steps !== 0)
            setValue(stepped(settle(value, fine), Math.sign(steps), fine), fine)
    }
    function scaleFor(modifiers) { return modifiers & Qt.ShiftModifier ? 10 : 1 }
    function isFine(modifiers) { return (modifiers & Qt.AltModifier) !== 0 }
    function startEditing(initial) {
        clickTimer.stop()
        editor.text = initial !== undefined ? initial : format(value)
        editor.visible = true
        editor.forceActiveFocus()
        if (initial === undefined)
            editor.selectAll()
    }
    function finishEditing(accept) {
        if (!editor.visible)
            return
        const typed = Number(editor.text.trim().replace(/,/g, ""))
        editor.visible = false
        root.forceActiveFocus()
        if (!accept)
            return
        if (editor.text.trim() === "" || !isFinite(typed))
            rejectFlash.restart()   // bad text: the old value stays
        else
            setValue(typed, true)
    }

    implicitWidth: row.implicitWidth
    implicitHeight: Math.max(row.implicitHeight, Theme.gapL + Theme.gap)
    activeFocusOnTab: true
    Accessible.role: Accessible.SpinBox
    Accessible.name: label
    Accessible.description: hint.text

    Keys.onPressed: event => {
        const scale = root.scaleFor(event.modifiers)
        const fine = root.isFine(event.modifiers)
        if (event.key === Qt.Key_Right || event.key === Qt.Key_Up) root.stepBy(scale, fine)
        else if (event.key === Qt.Key_Left || event.key === Qt.Key_Down) root.stepBy(-scale, fine)
        else if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter || event.key === Qt.Key_F2) root.startEditing()
        else if (event.key === Qt.Key_Delete || event.key === Qt.Key_Backspace) root.setValue(root.defaultValue)
        else if (/^[0-9.]$/.test(event.text)) root.startEditing(event.text)
        else return
        event.accepted = true
    }

    TextMetrics {
        id: digits
        font: readout.font
        text: "0".repeat(Math.max(1, root.minimumDigits))
    }

    Row {
        id: row
        anchors.verticalCenter: parent.verticalCenter
        spacing: Theme.gap
        Text {
            visible: root.label !== ""
            anchors.verticalCenter: parent.verticalCenter
            width: Math.max(implicitWidth, root.labelWidth)
            text: root.label
            font.family: Theme.sans
            font.pixelSize: Theme.smallSize
            color: root.labelColor
        }
        Rectangle {
            id: box
            anchors.verticalCenter: parent.verticalCenter
            width: Math.max(digits.width, readout.implicitWidth, editor.visible ? editor.contentWidth : 0) + Theme.gap * 2
            height: readout.implicitHeight + Theme.gap
            radius: Theme.radius
            color: mouse.containsMouse || mouse.pressed ? Theme.hoverOnDark : "transparent"
            border.width: rejectFlash.running || editor.visible ? 1 : 0
            border.color: rejectFlash.running ? Theme.failed : Theme.focus

            MonoText {
                id: readout
                visible: !editor.visible
                anchors.right: parent.right
                anchors.rightMargin: Theme.gap
                anchors.verticalCenter: parent.verticalCenter
                text: root.format(root.value)
                color: root.textColor
                font.pixelSize: Theme.bodySize
            }
            // Dotted underline: the mark of a number you can drag.
            Row {
                anchors.left: parent.left; anchors.right: parent.right
                anchors.bottom: parent.bottom
                anchors.margins: Theme.gap / 2
                spacing: 2
                clip: true
                visible: !editor.visible
                // Dots for a little more than the width, in steps of 64 px,
                // the row clipping the rest: a figure that changes its
                // width as it is scrubbed does not make its dots again.
                Repeater {
                    model: Math.ceil(box.width / 64) * 16
                    Rectangle {
                        width: 2; height: 1
                        color: mouse.containsMouse || root.activeFocus ? root.textColor : Theme.inkFaint
                    }
                }
            }
            TextInput {
                id: editor
                visible: false
                anchors.fill: parent
                anchors.leftMargin: Theme.gap; anchors.rightMargin: Theme.gap
                horizontalAlignment: TextInput.AlignRight
                verticalAlignment: TextInput.AlignVCenter
                font: readout.font
                color: root.textColor
                selectionColor: Theme.focus
                selectByMouse: true
                Keys.onReturnPressed: root.finishEditing(true)
                Keys.onEnterPressed: root.finishEditing(true)
                Keys.onEscapePressed: root.finishEditing(false)
                onActiveFocusChanged: if (!activeFocus && visible) root.finishEditing(false)
            }
            MouseArea {
                id: mouse
                anchors.fill: parent
                enabled: !editor.visible
                hoverEnabled: true
                preventStealing: true
                cursorShape: Qt.SizeHorCursor
                property real anchorX: 0
                property real anchorValue: 0
                property real anchorScale: 1
                property bool anchorFine: false
                property bool dragged: false
                property bool afterDoubleClick: false
                onPressed: mouseEvent => {
                    root.forceActiveFocus()
                    anchorX = mouseEvent.x; anchorValue = root.value
                    anchorScale = root.scaleFor(mouseEvent.modifiers)
                    anchorFine = root.isFine(mouseEvent.modifiers)
                    dragged = false
                }
                function dragTo(mouseEvent) {
                    const dx = mouseEvent.x - anchorX
                    if (!dragged && Math.abs(dx) < Qt.styleHints.startDragDistance)
                        return
                    dragged = true
                    const scale = root.scaleFor(mouseEvent.modifiers)
                    const fine = root.isFine(mouseEvent.modifiers)
                    if (scale !== anchorScale || fine !== anchorFine) {
                        // A modifier changed mid-drag: continue from here.
                        anchorX = mouseEvent.x; anchorValue = root.value; anchorScale = scale; anchorFine = fine
                        return
                    }
                    const perStep = fine ? root.finePixelsPerStep : root.pixelsPerStep
                    root.setValue(root.stepped(anchorValue, Math.trunc(dx / perStep) * scale, fine), fine)
                }
                onPositionChanged: mouseEvent => { if (pressed) dragTo(mouseEvent) }
                // Where the button comes up ends the drag, even when the last
                // move arrived before it (or never).
                onReleased: mouseEvent => {
                    if (dragged) dragTo(mouseEvent)
                    if (afterDoubleClick) afterDoubleClick = false
                    else if (!dragged) clickTimer.restart()
                }
                onDoubleClicked: {
                    clickTimer.stop()
                    afterDoubleClick = true
                    root.setValue(root.defaultValue)
                }
            }
        }
        Text {
            visible: root.unit !== ""
            anchors.verticalCenter: parent.verticalCenter
            text: root.unit
            font.family: Theme.sans
            font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
        }
    }

    // A single click types only once it is clear it was not a double click.
    Timer {
        id: clickTimer
        // Qt.styleHints is typed QObject to qmllint; read untyped.
        interval: Object(Qt.styleHints).mouseDoubleClickInterval
        onTriggered: root.startEditing()
    }
    Timer { id: rejectFlash; interval: 900 }

    ExplainCard {
        id: hint
        target: box
        shown: mouse.containsMouse && !mouse.pressed && !editor.visible
        delay: 500
        heading: root.label !== "" ? root.label : ""
        text: "drag to change · click to type · double-click to reset" + (root.snapHint !== "" ? "\n" + root.snapHint : "")
    }
    FocusFrame { visible: root.activeFocus && !editor.visible }
}
