pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// At the current event, one card per device: where it is in the program,
// its semaphore values and the state of every buffer that is not idle.
GridLayout {
    id: root
    property var state: ({})
    columns: 2
    columnSpacing: Theme.gap
    rowSpacing: Theme.gap

    Repeater {
        // By count: figures that change in a scrub update in place.
        model: (root.state.devices || []).length
        Rectangle {
            id: card
            readonly property var modelData: (root.state.devices || [])[index] || ({})
            required property int index
            Layout.fillWidth: true
            Layout.preferredWidth: 1
            implicitHeight: body.implicitHeight + Theme.gapM
            radius: Theme.radius
            color: Theme.card
            border.color: modelData.status === "blocked" ? Theme.accentDeep : Theme.cardBorder
            ColumnLayout {
                id: body
                anchors.fill: parent
                anchors.margins: Theme.gap
                spacing: Theme.px(2)
                MonoText {
                    objectName: "ex10DeviceStatement_" + card.index
                    Layout.fillWidth: true
                    text: "device " + card.modelData.device + " · " + card.modelData.status
                          + (card.modelData.line ? " at line " + card.modelData.line + ": " + card.modelData.statement : "")
                    color: card.modelData.status === "blocked" ? Theme.accent : Theme.inkText
                    font.pixelSize: Theme.tinySize
                    wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                }
                MonoText {
                    objectName: "ex10DeviceSems_" + card.index
                    Layout.fillWidth: true
                    text: (root.state.semaphoreNames || []).map((n, i) => n + "=" + card.modelData.semaphores[i]).join("  ")
                    color: Theme.inkMuted
                    font.pixelSize: Theme.tinySize
                    wrapMode: Text.Wrap
                }
                MonoText {
                    Layout.fillWidth: true
                    readonly property var busy: (root.state.bufferNames || []).map((n, i) => [n, card.modelData.buffers[i]])
                                                 .filter(b => b[1] !== "idle")
                    text: busy.length ? busy.map(b => b[0] + ": " + b[1]).join(" · ") : "all buffers idle"
                    color: Theme.inkMuted
                    font.pixelSize: Theme.tinySize
                    wrapMode: Text.Wrap
                }
            }
        }
    }
}
