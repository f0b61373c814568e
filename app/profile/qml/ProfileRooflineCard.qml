import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Profile

// The longest ops that compute, measured dots below their predicted rings.
Rectangle {
    id: root
    property alias litRow: chart.litRow
    property string chipName: ""
    signal picked(int row)
    implicitHeight: body.implicitHeight + 2 * Theme.gapL
    radius: Theme.radius
    color: Theme.card
    border.color: Theme.cardBorder

    ColumnLayout {
        id: body
        x: Theme.gapL
        y: Theme.gapL
        width: root.width - 2 * Theme.gapL
        spacing: Theme.gap
        Text {
            Layout.fillWidth: true
            text: "On the roofline" + (root.chipName ? " of " + root.chipName : "")
            font.family: Theme.sans; font.pixelSize: Theme.subheadingSize; font.weight: Font.DemiBold
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        Row {
            spacing: Theme.gapM
            ProvenanceBadge { kind: "measured" }
            MonoText { text: "dot: FLOPs ÷ self time"; color: Theme.inkMuted; font.pixelSize: Theme.tinySize }
            ProvenanceBadge { kind: "predicted" }
            MonoText { text: "ring: FLOPs ÷ predicted time"; color: Theme.inkMuted; font.pixelSize: Theme.tinySize }
        }
        ProfileRoofline {
            id: chart
            objectName: "profileRoofline"
            Layout.fillWidth: true
            Layout.preferredHeight: Theme.px(320)
            session: Profile
            ground: Theme.chartPlot
            grid: Theme.chartGrid
            roof: Theme.chartRoof
            ink: Theme.inkMuted
            measured: Theme.measured
            predicted: Theme.predicted
            lit: Theme.accentHover
            fontFamily: Theme.mono
            fontPixelSize: Theme.tinySize
            onPicked: row => root.picked(row)
        }
        MonoText {
            objectName: "profileRoofKey"
            Layout.fillWidth: true
            visible: text !== ""
            text: chart.roofKey
            color: Theme.inkMuted
            font.pixelSize: Theme.tinySize
            wrapMode: Text.WordWrap
        }
        MonoText {
            Layout.fillWidth: true
            text: chart.pointed !== "" ? chart.pointed : chart.leftOut
            color: chart.pointed !== "" ? Theme.inkText : Theme.inkMuted
            font.pixelSize: Theme.tinySize
            wrapMode: Text.WordWrap
        }
    }
}
