pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The program, one statement a row under its line number (the line the
// device cards and the verdict name), with the devices that stand at each
// statement right now (d0 .. d3). Click or arrow to select a statement for
// an edit. A long statement wraps under itself.
Rectangle {
    id: root
    property var statements: []
    property var state: ({})
    property int selected: -1
    signal picked(int index)

    implicitHeight: column.implicitHeight + Theme.gapM
    radius: Theme.radius
    color: Theme.card
    border.color: activeFocus ? Theme.focus : Theme.cardBorder
    border.width: activeFocus ? Theme.focusWidth : 1
    activeFocusOnTab: true
    Accessible.role: Accessible.List
    Accessible.name: "program statements"
    Keys.onUpPressed: picked(Math.max(0, selected - 1))
    Keys.onDownPressed: picked(Math.min(statements.length - 1, selected + 1))

    readonly property real gutter: lineDigits.advanceWidth + Theme.gap
    TextMetrics { id: lineDigits; font.family: Theme.mono; font.pixelSize: Theme.tinySize; text: "000" }

    function devicesAt(line) {
        return (state.devices || []).filter(d => d.line === line && d.status !== "done").map(d => "d" + d.device)
    }

    Column {
        id: column
        x: Theme.gap; y: Theme.gap
        width: parent.width - 2 * Theme.gap
        Repeater {
            model: root.statements
            Rectangle {
                id: row
                required property var modelData
                required property int index
                readonly property var here: root.devicesAt(modelData.line)
                objectName: "ex10Statement_" + index
                width: column.width
                height: Math.max(text.implicitHeight, number.implicitHeight) + Theme.px(6)
                radius: Theme.px(3)
                color: index === root.selected ? Theme.inkHover : (here.length ? Theme.accentSoft : "transparent")
                MonoText {
                    id: number
                    objectName: "ex10LineNumber_" + row.index
                    x: Theme.px(4)
                    y: Theme.px(3)
                    width: root.gutter - Theme.gap
                    horizontalAlignment: Text.AlignRight
                    text: row.modelData.line
                    color: Theme.inkFaint
                    font.pixelSize: Theme.tinySize
                }
                MonoText {
                    id: text
                    x: Theme.px(4) + root.gutter + row.modelData.depth * Theme.gapM
                    y: Theme.px(3)
                    width: parent.width - x - marks.width - Theme.gap
                    wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                    text: row.modelData.text
                    color: row.here.length ? Theme.inkText : Theme.inkMuted
                    font.pixelSize: Theme.tinySize
                }
                MonoText {
                    id: marks
                    anchors.right: parent.right
                    anchors.rightMargin: Theme.px(4)
                    anchors.verticalCenter: parent.verticalCenter
                    text: row.here.join(" ")
                    color: Theme.accent
                    font.pixelSize: Theme.tinySize
                }
                MouseArea {
                    anchors.fill: parent
                    onClicked: { root.forceActiveFocus(); root.picked(row.index) }
                }
            }
        }
    }
}
