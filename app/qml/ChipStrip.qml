import QtQuick
import TpuCourse.Ui

// The course's chip across the top of a chapter, for a window without room
// for the margin that holds it otherwise; it stays under the chapter's band
// as the text scrolls.
Rectangle {
    id: strip
    property real columnX: 0     // where the text column starts
    height: stripRow.implicitHeight + Theme.gapM
    color: Theme.page
    Row {
        id: stripRow
        x: strip.columnX
        anchors.verticalCenter: parent.verticalCenter
        spacing: Theme.gapM
        MonoText { anchors.verticalCenter: parent.verticalCenter; text: "numbers for"; color: Theme.pageMuted }
        ChipSwitcher { }
    }
    Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.pageRule }
}
