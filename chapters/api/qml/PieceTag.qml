import QtQuick
import TpuCourse.Ui

// "EX·01  ch 10": a workshop piece's id and the chapter that owns it.
Row {
    property string pieceId: ""
    property int chapter: 0
    property color color: Theme.accent
    spacing: Theme.gapM
    MonoText { text: parent.pieceId; color: parent.color; font.pixelSize: Theme.tinySize }
    MonoText {
        text: "ch " + String(parent.chapter).padStart(2, "0")
        color: parent.color
        font.pixelSize: Theme.tinySize
        opacity: 0.8
    }
}
