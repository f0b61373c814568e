import QtQuick
import QtCharts
import TpuCourse.Ui

// A base-10 log axis in the chart style; decades labelled, minor lines between.
LogValueAxis {
    base: 10
    labelFormat: "%g"
    minorTickCount: 8
    color: Theme.cardBorder
    labelsColor: Theme.inkMuted
    labelsFont.family: Theme.mono
    labelsFont.pixelSize: Theme.tinySize
    gridLineColor: Theme.chartGrid
    minorGridLineColor: Theme.chartMinorGrid
    titleVisible: false
}
