import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One bench row: the op, its floor, what binds it, and what the number is.
// A click (or Enter) on the row opens its assumptions below it.
Rectangle {
    id: root
    objectName: "benchRow_" + (row.id || "")
    property var row: ({})
    // The learner's measured run of this row on the same chip, if any.
    property var measured: undefined
    property bool expanded: false
    readonly property var r: row.roofline || ({})
    readonly property var prov: r.provenance || ({})

    implicitHeight: body.implicitHeight + Theme.gapM * 2
    radius: Theme.radius
    color: mouse.containsMouse || activeFocus ? Theme.cardHover : Theme.card
    border.color: Theme.cardBorder
    activeFocusOnTab: true
    Accessible.role: Accessible.Button
    Accessible.name: row.label + ", " + r.time + ", " + (prov.label || "")
    Keys.onReturnPressed: expanded = !expanded
    Keys.onSpacePressed: expanded = !expanded

    MouseArea {
        id: mouse
        anchors.fill: parent
        hoverEnabled: true
        cursorShape: Qt.PointingHandCursor
        onClicked: root.expanded = !root.expanded
    }

    ColumnLayout {
        id: body
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gap
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gapL
            ColumnLayout {
                Layout.fillWidth: true
                spacing: 2
                Text {
                    text: root.row.label || ""
                    font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
                    color: Theme.inkText
                }
                MonoText {
                    Layout.fillWidth: true
                    text: (root.row.shapes || "") + " · " + (root.row.dtype || "")
                    color: Theme.inkMuted
                    font.pixelSize: Theme.tinySize
                    elide: Text.ElideRight
                }
            }
            MonoText {
                objectName: "benchBound_" + (root.row.id || "")
                Layout.preferredWidth: Theme.px(190)
                text: (root.r.resource || "") + " bound · " + (root.r.intensityText || "")
                color: Theme.inkMuted
                font.pixelSize: Theme.tinySize
                horizontalAlignment: Text.AlignRight
            }
            MonoText {
                objectName: "benchTime_" + (root.row.id || "")
                Layout.preferredWidth: Theme.px(130)
                text: root.r.time || ""
                color: Theme.inkText
                font.pixelSize: Theme.subheadingSize
                horizontalAlignment: Text.AlignRight
            }
            ProvenanceBadge {
                Layout.preferredWidth: Theme.px(150)
                kind: root.prov.kind || "predicted"
                details: root.prov.details || ""
            }
        }
        // A hardware row replaces the prediction: both numbers and their ratio.
        RowLayout {
            Layout.fillWidth: true
            visible: root.measured !== undefined
            spacing: Theme.gapL
            Text {
                Layout.fillWidth: true
                text: root.measured ? (root.measured.fromProfile ? "your profile on " : "your run on ") + root.measured.deviceKind + ", " + root.measured.date
                                      + " · " + (root.measured.medianS / root.r.timeS).toFixed(2) + "× the predicted floor" : ""
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: Theme.inkMuted
                elide: Text.ElideRight
            }
            MonoText {
                objectName: "benchMeasured_" + (root.row.id || "")
                Layout.preferredWidth: Theme.px(130)
                text: root.measured ? (root.measured.medianS * 1e6).toFixed(1) + " µs" : ""
                color: Theme.measured
                font.pixelSize: Theme.subheadingSize
                horizontalAlignment: Text.AlignRight
            }
            ProvenanceBadge {
                Layout.preferredWidth: Theme.px(150)
                kind: "measured"
                details: !root.measured ? ""
                         : root.measured.details ? root.measured.details + ", " + root.measured.dtype + ", " + root.measured.date
                         : "median of your L05 run, record #" + root.measured.record + ", " + root.measured.dtype + ", " + root.measured.date
            }
        }
        ColumnLayout {
            Layout.fillWidth: true
            visible: root.expanded
            spacing: 2
            MonoText {
                objectName: "benchModel_" + (root.row.id || "")
                Layout.fillWidth: true
                text: "model: " + (root.prov.model || "") + " · ridge " + (root.r.ridgeText || "")
                      + " · compute " + (root.r.computeTime || "") + " · memory " + (root.r.memoryTime || "")
                wrapMode: Text.Wrap
                color: Theme.inkMuted
                font.pixelSize: Theme.tinySize
            }
            Repeater {
                model: root.prov.assumptions || []
                delegate: Text {
                    required property string modelData
                    Layout.fillWidth: true
                    text: "assumes: " + modelData
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize
                    color: Theme.inkMuted
                    wrapMode: Text.WordWrap
                }
            }
        }
    }
    FocusFrame {}
}
