import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The selected op in figures: time, intensity against the ridge, what binds,
// and how much of the peak it reaches. Every figure comes from the simulator.
Rectangle {
    id: root
    property string title: ""
    property color swatch: Theme.seriesColor(0)
    property var result: ({})
    readonly property var prov: result.provenance || ({})

    implicitHeight: column.implicitHeight + Theme.gapM * 2
    radius: Theme.radius
    color: Theme.card
    border.color: Theme.cardBorder

    ColumnLayout {
        id: column
        anchors.fill: parent
        anchors.margins: Theme.gapM
        spacing: Theme.gap
        RowLayout {
            spacing: Theme.gap
            Rectangle { width: Theme.gap; height: width; radius: width / 2; color: root.swatch }
            Text {
                Layout.fillWidth: true
                text: root.title + "  ·  " + (root.prov.shapes || "") + "  ·  " + (root.prov.dtype || "")
                      + "  ·  " + (root.prov.chip || "")
                // One line, cut at the end if it must be: a line that wrapped
                // and unwrapped as the piece's layout settled changed the
                // chart's height pass by pass, and Qt Charts redraws its whole
                // image on every change.
                elide: Text.ElideRight
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: Theme.inkMuted
            }
        }
        Text {
            objectName: "readoutError"
            Layout.fillWidth: true
            visible: !!root.result.error
            text: root.result.error || ""
            wrapMode: Text.Wrap
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.failed
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gapL
            ReadoutFigure {
                label: "time (floor)"; valueName: "readoutTime"
                value: root.result.time || ""; provenance: root.prov
            }
            ReadoutFigure {
                // At the fractions of the peaks published runs reach.
                visible: !!root.result.attainableTime
                label: "attainable"; valueName: "readoutAttainable"
                value: root.result.attainableTime || ""; provenance: root.prov
            }
            ReadoutFigure {
                label: "intensity · ridge " + (root.result.ridgeText || "")
                valueName: "readoutIntensity"
                value: root.result.intensityText || ""; provenance: root.prov
            }
            ReadoutFigure {
                label: "bound by"; valueName: "readoutBound"
                value: root.result.bound ? root.result.bound + " (" + root.result.resource + ")" : ""
                valueColor: root.result.bound === "compute" ? Theme.inkText : Theme.inkMuted
                provenance: root.prov
            }
            ReadoutFigure {
                label: "of peak " + (root.result.peakText || ""); valueName: "readoutPeak"
                value: root.result.percentOfPeak || ""; provenance: root.prov
            }
            ReadoutFigure {
                label: "attained"; valueName: "readoutAttained"
                value: root.result.attainedText || ""; provenance: root.prov
            }
            Item { Layout.fillWidth: true }
        }
    }
}
