import QtQuick
import TpuCourse.Ui

// The chapter's margin: the course's chip (numbers in the text follow it)
// and the contents, with the section being read marked. A click on an
// entry scrolls the text to it.
Item {
    id: root
    property var headings: []
    property string currentAnchor: ""
    property int values: 0
    signal jump(string anchor)

    Column {
        id: top
        width: parent.width
        spacing: Theme.gap
        MonoText { text: "numbers for"; color: Theme.layerMuted(1) }
        ChipSwitcher { width: parent.width }
        MonoText {
            width: parent.width
            visible: root.values > 0
            text: root.values + " live numbers · amber: predicted; point at one for what it is"
            color: Theme.layerMuted(1)
            font.pixelSize: Theme.tinySize
            wrapMode: Text.WordWrap
        }
        Item { width: 1; height: Theme.gapM }
        MonoText { text: "contents"; color: Theme.layerMuted(1); visible: root.headings.length > 0 }
    }

    ListView {
        id: contents
        objectName: "readerContents"
        y: top.height + Theme.gap
        width: parent.width
        height: parent.height - y
        clip: true
        interactive: contentHeight > height
        boundsBehavior: Flickable.StopAtBounds
        model: root.headings
        currentIndex: root.headings.findIndex(h => h.anchor === root.currentAnchor)
        onCurrentIndexChanged: if (currentIndex >= 0) positionViewAtIndex(currentIndex, ListView.Contain)
        delegate: Item {
            id: entry
            required property var modelData
            required property int index
            readonly property bool current: modelData.anchor === root.currentAnchor
            width: contents.width
            height: label.implicitHeight + Theme.gap
            Rectangle {
                width: Theme.px(3)
                height: parent.height
                color: entry.current ? Theme.accentDeep : Theme.tableRule
            }
            Text {
                id: label
                x: Theme.gapM + (entry.modelData.level > 3 ? Theme.gapM : 0)
                anchors.verticalCenter: parent.verticalCenter
                width: parent.width - x
                text: entry.modelData.title
                wrapMode: Text.WordWrap
                font.family: Theme.sans
                font.pixelSize: Theme.smallSize
                font.weight: entry.current ? Font.DemiBold : Font.Normal
                color: entry.current || mouse.containsMouse ? Theme.accentDeep : Theme.ink
            }
            MouseArea {
                id: mouse
                anchors.fill: parent
                hoverEnabled: true
                cursorShape: Qt.PointingHandCursor
                onClicked: root.jump(entry.modelData.anchor)
            }
        }
    }
}
