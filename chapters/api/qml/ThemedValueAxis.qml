import QtQuick
import QtCharts
import TpuCourse.Ui

// A linear axis in the chart style: mono labels, quiet grid. Axis titles are
// drawn by the page, outside the chart, in the theme's type.
ValueAxis {
    color: Theme.cardBorder
    labelsColor: Theme.inkMuted
    labelsFont.family: Theme.mono
    labelsFont.pixelSize: Theme.tinySize
    gridLineColor: Theme.chartGrid
    minorGridLineColor: Theme.chartMinorGrid
    titleVisible: false
}
