pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui

// One row of the op table, or its header (whose titles sort it).
Rectangle {
    id: root
    property bool header: false
    property var columns: []
    // Null for a moment as a list drops the row: its bindings may run once more.
    property var row: ({})
    property bool selected: false
    property string sortKey: ""
    signal clicked()
    signal sortBy(string key)

    implicitHeight: Theme.px(30)
    color: selected ? Theme.accentSoft : hover.hovered && !header ? Theme.cardHover : "transparent"
    readonly property real nameWidth: Math.round(width * 0.17)
    readonly property real shareSum: columns.reduce((s, c) => s + c.share, 0)
    function cellWidth(c) { return (width - nameWidth - Theme.gap * columns.length) * c.share / shareSum }
    function cellText(i) {
        const r = root.row
        if (!r)
            return ""
        switch (i) {
        case 0: return r.kind
        case 1: return r.program
        case 2: return r.count
        case 3: return r.perCall
        case 4: return r.selfTotal
        case 5: return r.shareText
        case 6: return r.flopRate
        case 7: return r.byteRate
        case 8: return r.predicted
        case 9: return r.errorText
        }
        return ""
    }
    function cellColor(i) {
        if (root.header) return root.columns[i].key !== "" && root.columns[i].key === root.sortKey ? Theme.accent : Theme.inkMuted
        if (i === 3 || i === 4) return Theme.measured
        if (i === 8) return root.row && root.row.predictedKnown ? Theme.predicted : Theme.inkFaint
        if (i === 9) return Theme.inkText
        return Theme.inkMuted
    }

    HoverHandler { id: hover }
    TapHandler { enabled: !root.header; onTapped: root.clicked() }
    Row {
        anchors.fill: parent
        anchors.leftMargin: Theme.gap / 2
        spacing: Theme.gap
        MonoText {
            width: root.nameWidth - Theme.gap / 2
            anchors.verticalCenter: parent.verticalCenter
            text: root.header ? "op" : (root.row && root.row.name) || ""
            color: root.header ? (root.sortKey === "name" ? Theme.accent : Theme.inkMuted) : Theme.inkText
            font.pixelSize: Theme.tinySize
            elide: Text.ElideMiddle
            TapHandler { enabled: root.header; onTapped: root.sortBy("name") }
        }
        Repeater {
            model: root.columns.length
            delegate: MonoText {
                id: cell
                required property int index
                width: root.cellWidth(root.columns[index])
                // Centred by its own height, not by anchors: a cell the
                // Repeater drops has no parent while its bindings run.
                height: root.height
                verticalAlignment: Text.AlignVCenter
                text: root.header ? root.columns[index].title : (root.cellText(index) || "")
                color: root.cellColor(index)
                font.pixelSize: Theme.tinySize
                horizontalAlignment: root.columns[index].right ? Text.AlignRight : Text.AlignLeft
                elide: Text.ElideRight
                TapHandler {
                    enabled: root.header && root.columns[cell.index].key !== ""
                    onTapped: root.sortBy(root.columns[cell.index].key)
                }
            }
        }
    }
}
