import QtQuick
import TpuCourse.Ui

// What the coverage map's colours mean.
Flow {
    spacing: Theme.gapM
    Repeater {
        model: [{label: "written (darker: more steps)", fill: Theme.seriesColor(0), edge: "transparent"},
                {label: "never written: a gap", fill: Theme.problemGround, edge: Theme.failed},
                {label: "race on a parallel axis", fill: Theme.failed, edge: "transparent"},
                {label: "revisited: partial sum lost", fill: Theme.seriesColor(0), edge: Theme.failed}]
        delegate: Row {
            id: swatch
            required property var modelData
            spacing: Theme.px(6)
            Rectangle {
                anchors.verticalCenter: parent.verticalCenter
                width: Theme.px(12); height: width
                color: swatch.modelData.fill
                border.color: swatch.modelData.edge
            }
            Text {
                text: swatch.modelData.label
                font.family: Theme.sans
                font.pixelSize: Theme.tinySize
                color: Theme.inkMuted
            }
        }
    }
}
