import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

// One note in the margin: the words it marks in its part, then the note.
Item {
    id: note
    required property var modelData
    property int notesKey: 0
    property var card: null
    readonly property var block: Reader.documentBlock(notesKey, modelData.index, Course.chip, ({}))
    readonly property bool pointed: pointer.hovered
    implicitHeight: noteColumn.height
    height: implicitHeight
    HoverHandler { id: pointer }
    Rectangle { width: Theme.px(3); height: parent.height; color: Theme.pageAccent }
    Column {
        id: noteColumn
        x: Theme.gapM
        width: parent.width - x
        spacing: Theme.gap / 2
        Text {
            width: parent.width
            visible: note.modelData.mark !== ""
            text: note.modelData.mark
            wrapMode: Text.WrapAnywhere
            font.family: Theme.mono; font.pixelSize: Theme.tinySize
            color: Theme.pageAccent
        }
        ReaderText {
            objectName: "exhibitNote"
            width: parent.width
            pixelSize: Theme.smallSize
            text: (note.block.html || [""])[0]
            details: note.block.details || []
            card: note.card
        }
    }
}
