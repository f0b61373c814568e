import QtQuick
import QtCharts
import TpuCourse.Ui

// A base-10 log axis in the chart style; decades labelled. It draws no grid:
// Qt Charts strokes each grid line through its general path stroker, some
// 13 ms a drawing of a roofline, so a log chart lays LogGrid beneath itself
// instead (see RooflineChart).
LogValueAxis {
    base: 10
    labelFormat: "%g"
    minorTickCount: 8
    color: Theme.cardBorder
    labelsColor: Theme.inkMuted
    labelsFont.family: Theme.mono
    labelsFont.pixelSize: Theme.tinySize
    gridVisible: false
    minorGridVisible: false
    titleVisible: false
}
