pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Reading
import TpuCourse.Shell

// The chapter's margin: the course's chip (numbers in the text follow it),
// the contents, with the section being read marked, and the learner's
// bookmarks and notes in this chapter. A click on an entry scrolls the
// text to it.
Item {
    id: root
    property var headings: []
    property string currentAnchor: ""
    property int values: 0
    property int chapter: 0
    readonly property var marks: { Marks.revision; return chapter > 0 ? Marks.marksOf(chapter) : [] }
    signal jump(string anchor)
    signal jumpToMark(string key)

    Column {
        id: top
        width: parent.width
        spacing: Theme.gap
        MonoText { text: "numbers for"; color: Theme.pageMuted }
        ChipSwitcher { width: parent.width }
        MonoText {
            width: parent.width
            visible: root.values > 0
            text: root.values + " live numbers · amber: predicted, magenta: assumed; point at one for what it is"
            color: Theme.pageMuted
            font.pixelSize: Theme.tinySize
            wrapMode: Text.WordWrap
        }
        Item { width: 1; height: Theme.gapM }
        MonoText { text: "contents"; color: Theme.pageMuted; visible: root.headings.length > 0 }
    }

    ListView {
        id: contents
        objectName: "readerContents"
        y: top.height + Theme.gap
        width: parent.width
        height: parent.height - y - (markList.visible ? markList.height + Theme.gapM : 0)
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
                color: entry.current ? Theme.pageAccent : Theme.pageRule
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
                color: entry.current || mouse.containsMouse ? Theme.pageAccent : Theme.pageInk
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

    // Your bookmarks (★) and notes (✎) here, in the order of the text.
    Column {
        id: markList
        objectName: "readerMarks"
        visible: root.marks.length > 0
        anchors.bottom: parent.bottom
        width: parent.width
        spacing: Theme.px(4)
        MonoText { text: "your marks"; color: Theme.pageMuted }
        Repeater {
            model: root.marks.slice(0, 8)
            onItemAdded: (index, item) => item.picked.connect(root.jumpToMark)
            delegate: Text {
                id: markEntry
                required property var modelData
                signal picked(string key)
                objectName: "readerMark"
                width: parent ? parent.width : 0
                text: (modelData.bookmarked ? "★ " : "") + (modelData.note !== "" ? "✎ " : "") + modelData.excerpt
                elide: Text.ElideRight
                font.family: Theme.sans
                font.pixelSize: Theme.smallSize
                color: markMouse.containsMouse ? Theme.pageAccent : Theme.pageInk
                MouseArea {
                    id: markMouse
                    anchors.fill: parent
                    hoverEnabled: true
                    cursorShape: Qt.PointingHandCursor
                    onClicked: markEntry.picked(markEntry.modelData.block)
                }
            }
        }
    }
}
