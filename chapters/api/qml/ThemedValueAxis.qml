import QtQuick
import QtCharts
import TpuCourse.Ui

// A linear axis in the chart style: mono labels, quiet grid. Axis titles are
// drawn by the page, outside the chart, in the theme's type.
// Debian's Qt 6.4 QtCharts type file declares QValueAxis twice, the second
// time as the old ValuesAxis alone; qmllint keeps that one and cannot see
// ValueAxis, which the engine loads as it should. So the linter looks away
// from this file's type and its properties, and from nothing else.
// qmllint disable import type property unqualified
ValueAxis {
    color: Theme.cardBorder
    labelsColor: Theme.inkMuted
    labelsFont.family: Theme.mono
    labelsFont.pixelSize: Theme.tinySize
    gridLineColor: Theme.chartGrid
    minorGridLineColor: Theme.chartMinorGrid
    titleVisible: false
}
