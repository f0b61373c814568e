pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Profile

// The device's op line in time, its families' colours named, and what the
// pointer is over.
Rectangle {
    id: root
    property alias litRow: timeline.litRow
    signal picked(int row)
    // The families of op_table.h, in order: each its colour.
    readonly property var families: ["fusion", "matmul", "Pallas kernel", "custom call", "copy", "host transfer",
                                     "collective", "async start", "control", "GPU kernel", "other"]
    readonly property var summary: Profile.summary      // a map from C++, read untyped
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
        RowLayout {
            Layout.fillWidth: true
            Text {
                text: "The op line"
                font.family: Theme.sans; font.pixelSize: Theme.subheadingSize; font.weight: Font.DemiBold
                color: Theme.inkText
            }
            MonoText {
                Layout.fillWidth: true
                text: "hatched: no op running, the device waiting"
                color: Theme.inkMuted
                font.pixelSize: Theme.tinySize
                horizontalAlignment: Text.AlignRight
                elide: Text.ElideLeft
            }
            PlainButton {
                text: "all"; mono: true
                fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.inkMuted
                onClicked: timeline.showAll()
            }
        }
        ProfileTimeline {
            id: timeline
            objectName: "profileTimeline"
            Layout.fillWidth: true
            Layout.preferredHeight: Theme.px(120)
            session: Profile
            familyColors: Theme.opFamilyColors
            ground: Theme.chartPlot
            idle: Theme.gapHatch
            ink: Theme.inkMuted
            lit: Theme.accentHover
            fontFamily: Theme.mono
            fontPixelSize: Theme.tinySize
            onPicked: row => root.picked(row)
        }
        MonoText {
            Layout.fillWidth: true
            text: timeline.pointed !== "" ? timeline.pointed : timeline.windowText
            color: timeline.pointed !== "" ? Theme.inkText : Theme.inkMuted
            font.pixelSize: Theme.tinySize
            elide: Text.ElideRight
        }
        Flow {
            Layout.fillWidth: true
            spacing: Theme.gapM
            Repeater {
                // The families this device ran, each with its colour.
                model: root.summary.families || []
                delegate: Row {
                    id: family
                    required property int modelData
                    spacing: Theme.gap / 2
                    Rectangle {
                        anchors.verticalCenter: parent.verticalCenter
                        width: Theme.px(10); height: width
                        color: Theme.opFamilyColors[family.modelData]
                    }
                    MonoText { text: root.families[family.modelData]; color: Theme.inkMuted; font.pixelSize: Theme.tinySize }
                }
            }
        }
    }
}
