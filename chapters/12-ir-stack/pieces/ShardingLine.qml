import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// How the active op's array is spread over devices, as its line's sharding
// or replica_groups attribute says, read out by libtpusim. Laid out (empty
// or not) whenever the dumps carry any such attribute, so pointing from op
// to op never moves the panes.
ColumnLayout {
    id: root
    property var shardings: []   // IrXrayModel.shardingsAt(pane, line)
    property bool reserved: false
    spacing: Theme.gap / 2
    visible: reserved || shardings.length > 0
    opacity: shardings.length > 0 ? 1 : 0

    readonly property var first: shardings.length > 0 ? shardings[0] : null
    MonoText {
        objectName: "ex05ShardingText"
        Layout.fillWidth: true
        text: root.first ? root.first.form + " " + root.first.text
                           + (root.shardings.length > 1 ? "   (+" + (root.shardings.length - 1) + " more on this line)" : "") : ""
        color: root.first && !root.first.decoded ? Theme.failed : Theme.accent
        elide: Text.ElideRight
    }
    Text {
        objectName: "ex05ShardingMeaning"
        Layout.fillWidth: true
        // Three lines at most, and always three lines' room.
        Layout.preferredHeight: 3 * Math.ceil(fontInfo.pixelSize * 1.25)
        text: root.shardings.map(s => s.meaning).join(" ")
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkText
        wrapMode: Text.WordWrap
        maximumLineCount: 3
        elide: Text.ElideRight
    }
}
