import QtQuick
import TpuCourse.Ui

// Where a chapter's text stands in a page `availableWidth` wide: a column
// set to a measure of characters, with the margin (chip, contents) on its
// left when the page has room, and figures and pieces running wider to its
// right, the whole group centred.
QtObject {
    property real availableWidth: 0

    readonly property real measure: Math.min(availableWidth - 2 * Theme.gapL, ProseMeasure.readerWidth)
    readonly property bool sideMargin: availableWidth >= Theme.marginWidth + Theme.gapXL + measure + 2 * Theme.gapL
    readonly property real groupWidth: sideMargin ? Theme.marginWidth + Theme.gapXL + Math.max(measure, Math.min(Theme.figureWidth, availableWidth - Theme.marginWidth - Theme.gapXL - 2 * Theme.gapL))
                                                  : Math.min(availableWidth - 2 * Theme.gapL, Theme.figureWidth)
    readonly property real groupLeft: Math.max(Theme.gapL, (availableWidth - groupWidth) / 2)
    readonly property real columnX: sideMargin ? groupLeft + Theme.marginWidth + Theme.gapXL : groupLeft
    readonly property real wide: Math.max(measure, groupLeft + groupWidth - columnX)
}
