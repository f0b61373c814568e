import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The foot of the page: the provenance key, every kind the app shows and
// the same colours as everywhere (the honesty card at the top lists them too).
Rectangle {
    id: root
    objectName: "provenanceKey"
    color: Theme.floor
    implicitHeight: row.implicitHeight + Theme.gapXXL
    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)
    RowLayout {
        id: row
        x: root.margin
        width: root.width - 2 * root.margin
        spacing: Theme.gapM
        Repeater {
            model: Provenance.kinds.concat([Provenance.failed])
            ProvenanceBadge {
                required property var modelData
                kind: modelData.kind
                details: modelData.full
            }
        }
        Item { Layout.fillWidth: true }
        MonoText { text: "Ctrl+K jump anywhere · Ctrl+E export report"; color: Theme.inkFaint }
    }
}
