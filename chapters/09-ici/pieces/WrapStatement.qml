pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The chip's wraparound rule in words, and what it means for each axis of
// this slice, as libtpusim's mesh decided it.
ColumnLayout {
    id: root
    property var result: ({})
    property int axis: 0
    spacing: Theme.gap / 2

    MonoText {
        objectName: "ex11WrapRule"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.pixelSize: Theme.smallSize
        color: Theme.accent
        text: root.result.wrapRule ? (root.result.provenance ? root.result.provenance.chip || "" : "") + ": " + root.result.wrapRule
                                     + " " + (root.result.wrapSource || "") + " · " + (root.result.topology || "") : ""
    }
    Repeater {
        // By count: figures that change in a scrub update in place.
        model: (root.result.axes || []).length
        Text {
            readonly property var modelData: (root.result.axes || [])[index] || ({})
            required property int index
            Layout.fillWidth: true
            wrapMode: Text.WordWrap
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: index === root.axis ? Theme.inkText : Theme.inkMuted
            text: (modelData.wraps ? "↻ " : "— ") + "axis " + index + " (" + modelData.size + "): " + modelData.reason
        }
    }
}
