pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// Chapter 7's worked cases, to start from: each a button, the one in use
// filled, and what it shows in a sentence underneath.
ColumnLayout {
    id: root
    required property var model      // LayoutLensModel
    signal chosen(string id)
    spacing: Theme.gap / 2

    readonly property var current: root.model.presets.find(p => p.id === root.model.preset) || null

    Caption { text: "worked cases of chapter 7" }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gap / 2
        Repeater {
            model: root.model.presets
            delegate: SnugButton {
                required property var modelData
                readonly property bool on: root.model.preset === modelData.id
                objectName: "ex12Preset_" + modelData.id
                text: modelData.title
                mono: true
                fillColor: on ? Theme.accent : Theme.inkHover
                hoverColor: on ? Theme.accentHover : Theme.cardHover
                textColor: on ? Theme.ink : Theme.inkText
                onClicked: root.chosen(modelData.id)
            }
        }
    }
    Text {
        objectName: "ex12PresetNote"
        Layout.fillWidth: true
        // Two lines kept whether or not a case is in use, so nothing below jumps.
        Layout.preferredHeight: Math.max(implicitHeight, 2 * fontInfo.pixelSize * 1.4)
        text: root.current ? root.current.note : "your own array: change anything above or below"
        wrapMode: Text.Wrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: root.current ? Theme.inkText : Theme.inkFaint
    }
}
