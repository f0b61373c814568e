import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.About

// This build: its version, what it was built with, the table the simulator
// is checked against, and every licence that covers what it ships.
Flickable {
    id: root
    signal back()
    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)

    contentWidth: width
    contentHeight: column.implicitHeight + Theme.gapXXL * 2
    boundsBehavior: Flickable.StopAtBounds
    clip: true
    ScrollBar.vertical: ScrollBar { policy: ScrollBar.AsNeeded }

    Rectangle { width: root.width; height: Math.max(root.height, root.contentHeight); color: Theme.floor }

    component Fact: RowLayout {
        property alias label: labelText.text
        property alias value: valueText.text
        Layout.fillWidth: true
        spacing: Theme.gapM
        Text {
            id: labelText
            Layout.preferredWidth: Theme.px(220)
            Layout.alignment: Qt.AlignTop
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        MonoText {
            id: valueText
            Layout.fillWidth: true
            color: Theme.inkText
            wrapMode: Text.Wrap
        }
    }

    ColumnLayout {
        id: column
        x: root.margin
        y: Theme.gapXL
        width: Math.min(root.width - 2 * root.margin, Theme.px(900))
        spacing: Theme.gap

        PlainButton {
            text: "← back"; mono: true
            fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.inkMuted
            onClicked: root.back()
        }
        Text {
            objectName: "aboutTitle"
            text: "About tpu-course"
            font.family: Theme.sans; font.pixelSize: Theme.displaySize * 0.8; font.weight: Font.DemiBold
            color: Theme.inkText
        }
        Text {
            Layout.fillWidth: true
            Layout.bottomMargin: Theme.gapL
            text: "Learn to make TPUs fast: a course down the stack, from array math in JAX to the links between chips."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }

        MonoText { text: "this build"; color: Theme.inkFaint; font.pixelSize: Theme.tinySize }
        Fact { objectName: "aboutVersion"; label: "version"; value: AboutInfo.version }
        Fact { label: "source commit, at configure"; value: AboutInfo.commit }
        Fact { label: "built with"; value: AboutInfo.compiler + ", Qt " + AboutInfo.qtBuilt }
        Fact { label: "running on"; value: "Qt " + AboutInfo.qtRunning }
        Fact { objectName: "aboutDrawing"; label: "window drawn"; value: AboutInfo.drawing }

        MonoText {
            Layout.topMargin: Theme.gapL
            text: "the simulator's validation table"
            color: Theme.inkFaint; font.pixelSize: Theme.tinySize
        }
        Fact {
            objectName: "aboutTable"
            label: "published timings"
            value: AboutInfo.tableRows + " rows: " + Array.from(AboutInfo.tableFamilies).map(f => f.family + " " + f.rows).join(", ")
        }
        Fact { label: "last changed"; value: AboutInfo.tablesChanged }
        Text {
            Layout.fillWidth: true
            text: "The bench's validation page sets every row against the models, fitted and held out."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }

        MonoText {
            Layout.topMargin: Theme.gapL
            text: "licences"
            color: Theme.inkFaint; font.pixelSize: Theme.tinySize
        }
        Repeater {
            model: AboutInfo.licences
            ColumnLayout {
                id: licence
                required property var modelData
                Layout.fillWidth: true
                spacing: 0
                Text {
                    objectName: "aboutLicence"
                    Layout.fillWidth: true
                    text: licence.modelData.what
                    font.family: Theme.sans; font.pixelSize: Theme.bodySize
                    color: Theme.inkText
                    wrapMode: Text.WordWrap
                }
                MonoText {
                    Layout.fillWidth: true
                    text: licence.modelData.licence + "  ·  " + licence.modelData.where
                    color: Theme.inkMuted
                    font.pixelSize: Theme.tinySize
                    wrapMode: Text.Wrap
                }
            }
        }
    }
}
