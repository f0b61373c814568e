import QtQuick
import QtCharts
import TpuCourse.Ui

// The one look for every chart (rooflines, timelines, bars): the dark
// ground, no legend (pages label their series in place), no animation so a
// scrubbed value redraws at once. Use ThemedValueAxis and ThemedLogAxis.
ChartView {
    backgroundColor: Theme.card
    plotAreaColor: Theme.chartPlot
    backgroundRoundness: Theme.radius
    dropShadowEnabled: false
    antialiasing: true
    animationOptions: ChartView.NoAnimation
    legend.visible: false
    titleColor: Theme.inkText
    titleFont.family: Theme.sans
    titleFont.pixelSize: Theme.smallSize
    margins.top: Theme.gap
    margins.bottom: Theme.gap
    margins.left: Theme.gap
    margins.right: Theme.gap
}
