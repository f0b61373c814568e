import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The program, one statement a row, with the devices that stand at each
// statement right now (d0 .. d3). Click or arrow to select a statement for
// an edit.
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
                height: text.implicitHeight + Theme.px(6)
                radius: Theme.px(3)
                color: index === root.selected ? Theme.inkHover : (here.length ? Theme.highlight : "transparent")
                MonoText {
                    id: text
                    x: Theme.px(4) + row.modelData.depth * Theme.gapM
                    anchors.verticalCenter: parent.verticalCenter
                    width: parent.width - x - marks.width - Theme.gap
                    elide: Text.ElideRight
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
                    color: Theme.amber
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
