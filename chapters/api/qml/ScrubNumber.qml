import QtQuick
import QtQuick.Controls
import TpuCourse.Ui

// A number you change by dragging it sideways, after Tangle's adjustable
// number: each `pixelsPerStep` of travel is one step, then the value is
// rounded to `stepSize` and clamped to [from, to]. Shift makes steps 10x
// bigger, Alt 10x finer. Sizes use `logarithmic`: a step multiplies by
// `factor` (and `powersOnly` keeps the value on powers of it). A click
// without a drag lets you type; a double click restores `defaultValue`.
// Keyboard: arrows step, Enter (or a digit) types, Delete resets.
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
    property int decimals: 0
    property string unit: ""
    property string label: ""
    property real labelWidth: 0         // at least; keeps the number still when the label changes
    property int minimumDigits: 4
    property real pixelsPerStep: logarithmic ? 24 : 6
    property color textColor: Theme.inkText
    property color labelColor: Theme.inkMuted
    readonly property bool editing: editor.visible
    readonly property string readoutText: readout.text
    signal valueEdited(real value)

    function format(v) { return Number(v).toFixed(decimals) }

    // Round to the step (or the nearest power), then clamp.
    function settle(v) {
        if (!isFinite(v))
            return value
        if (logarithmic && powersOnly && v > 0)
            v = Math.pow(factor, Math.round(Math.log(v) / Math.log(factor)))
        else
            v = Math.round(v / stepSize) * stepSize
        v = Number(v.toFixed(decimals))
        return Math.max(from, Math.min(to, v))
    }
    function stepped(base, steps) {
        return logarithmic ? base * Math.pow(factor, steps) : base + steps * stepSize
    }
    // Sets the value as the learner's edit: settled, and announced if it changed.
    function setValue(v) {
        const settled = settle(v)
        if (settled === value)
            return false
        value = settled
        valueEdited(settled)
        return true
    }
    function stepBy(steps) {
        // A fine step that rounds back to the same value still moves one grain.
        if (!setValue(stepped(value, steps)) && steps !== 0)
            setValue(logarithmic && powersOnly ? stepped(value, Math.sign(steps))
                                               : value + Math.sign(steps) * stepSize)
    }
    function scaleFor(modifiers) {
        if (modifiers & Qt.ShiftModifier) return 10
        if (modifiers & Qt.AltModifier) return 0.1
        return 1
    }
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
            setValue(typed)
    }

    implicitWidth: row.implicitWidth
    implicitHeight: Math.max(row.implicitHeight, Theme.gapL + Theme.gap)
    activeFocusOnTab: true
    Accessible.role: Accessible.SpinBox
    Accessible.name: label
    Accessible.description: hint.text

    Keys.onPressed: event => {
        const scale = root.scaleFor(event.modifiers)
        if (event.key === Qt.Key_Right || event.key === Qt.Key_Up) root.stepBy(scale)
        else if (event.key === Qt.Key_Left || event.key === Qt.Key_Down) root.stepBy(-scale)
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
                Repeater {
                    model: Math.ceil(box.width / 4)
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
                property bool dragged: false
                property bool afterDoubleClick: false
                onPressed: mouseEvent => {
                    root.forceActiveFocus()
                    anchorX = mouseEvent.x; anchorValue = root.value
                    anchorScale = root.scaleFor(mouseEvent.modifiers)
                    dragged = false
                }
                function dragTo(mouseEvent) {
                    const dx = mouseEvent.x - anchorX
                    if (!dragged && Math.abs(dx) < Qt.styleHints.startDragDistance)
                        return
                    dragged = true
                    const scale = root.scaleFor(mouseEvent.modifiers)
                    if (scale !== anchorScale) {
                        // A modifier changed mid-drag: continue from here.
                        anchorX = mouseEvent.x; anchorValue = root.value; anchorScale = scale
                        return
                    }
                    root.setValue(root.stepped(anchorValue, dx / root.pixelsPerStep * scale))
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
        interval: Qt.styleHints.mouseDoubleClickInterval
        onTriggered: root.startEditing()
    }
    Timer { id: rejectFlash; interval: 900 }

    ToolTip {
        id: hint
        visible: mouse.containsMouse && !mouse.pressed && !editor.visible
        delay: 500
        text: "drag to change · click to type · double-click to reset"
    }
    FocusFrame { visible: root.activeFocus && !editor.visible }
}
