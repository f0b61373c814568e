pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The Python the three dumps were lowered from, with the line the active
// op came from lit: every IR op points back here through its metadata.
Rectangle {
    id: root
    property var lines: []
    property string file: ""
    property int litLine: 0
    property var banded: []          // the source lines that have a band
    readonly property real lineHeight: Math.ceil(metrics.height * 1.2)

    implicitHeight: column.implicitHeight + Theme.gap * 2
    color: Theme.card
    radius: Theme.radius
    border.color: Theme.cardBorder

    FontMetrics { id: metrics; font.family: Theme.mono; font.pixelSize: Theme.tinySize }

    Column {
        id: column
        x: Theme.gap; y: Theme.gap
        width: parent.width - 2 * Theme.gap
        MonoText { objectName: "ex05PythonFile"; text: root.file; color: Theme.accent; font.pixelSize: Theme.tinySize; bottomPadding: Theme.gap / 2 }
        Repeater {
            model: root.lines
            delegate: Rectangle {
                id: pythonLine
                required property int index
                required property string modelData
                readonly property bool lit: root.litLine === index + 1
                objectName: "ex05Python_" + (index + 1)
                width: column.width
                // A long line wraps under itself rather than losing its end.
                height: Math.max(root.lineHeight, source.implicitHeight + root.lineHeight - metrics.height)
                color: lit ? Theme.accentSoft : "transparent"
                Rectangle {  // the band this line's ops wear in every layer
                    visible: root.banded.indexOf(pythonLine.index + 1) >= 0
                    x: number.width + metrics.advanceWidth("0") * 0.4
                    width: Theme.px(3)
                    height: parent.height
                    color: Theme.bandColor(pythonLine.index + 1)
                }
                MonoText {
                    id: number
                    width: metrics.advanceWidth("000")
                    horizontalAlignment: Text.AlignRight
                    y: (root.lineHeight - metrics.height) / 2
                    text: pythonLine.index + 1
                    color: parent.lit ? Theme.accent : Theme.inkFaint
                    font.pixelSize: Theme.tinySize
                }
                MonoText {
                    id: source
                    x: number.width + metrics.advanceWidth("00")
                    y: number.y
                    width: parent.width - x
                    text: pythonLine.modelData
                    textFormat: Text.PlainText
                    wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                    color: parent.lit ? Theme.inkText : Theme.inkMuted
                    font.pixelSize: Theme.tinySize
                }
            }
        }
    }
}
