import QtQuick
import QtQuick.Controls
import TpuCourse.Ui

// Code in a box: as tall as its lines. A line longer than the box scrolls
// sideways, under a bar kept in view whenever it does, so the rest of the
// line is seen to be there; code that fits neither scrolls nor shows a bar.
// Set contentWidth and contentHeight to the code's.
Flickable {
    id: root
    // The bar's objectName, for tests and the layout report.
    property alias barName: bar.objectName

    height: contentHeight + (interactive ? bar.height + Theme.gap : 0)
    flickableDirection: Flickable.HorizontalFlick
    boundsBehavior: Flickable.StopAtBounds
    interactive: contentWidth > width
    clip: true
    ScrollBar.horizontal: ScrollBar {
        id: bar
        policy: root.interactive ? ScrollBar.AlwaysOn : ScrollBar.AlwaysOff
    }
}
