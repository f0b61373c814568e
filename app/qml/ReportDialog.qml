import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend

// Export the progress report as PDF, HTML or JSON, chosen by the file's ending.
Popup {
    id: root
    parent: Overlay.overlay
    x: Math.round((parent.width - width) / 2)
    y: Math.round(parent.height * 0.2)
    width: Math.min(Theme.px(640), parent.width - 2 * Theme.gapL)
    padding: Theme.gapL
    modal: true
    focus: true
    property string message: ""
    property bool failed: false
    onOpened: { path.text = Course.defaultReportPath(); message = ""; path.forceActiveFocus() }

    function exportNow() {
        const error = Course.exportReport(path.text)
        failed = error !== ""
        message = failed ? error : "Written to " + path.text
    }

    background: Rectangle { radius: Theme.radius * 1.5; color: Theme.card; border.color: Theme.cardBorder }
    Overlay.modal: Rectangle { color: Theme.scrim }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.gapM
        Text {
            text: "Export the progress report"
            font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
            color: Theme.inkText
        }
        Text {
            Layout.fillWidth: true
            text: "Every chapter and stage with its progress, every gate with its state, the mastery work done and a summary of your activity. The file's ending picks the format: .pdf, .html or .json."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        TextField {
            id: path
            Layout.fillWidth: true
            font.family: Theme.mono
            font.pixelSize: Theme.smallSize
            color: Theme.inkText
            background: Rectangle { color: Theme.floor; radius: Theme.radius; border.color: Theme.cardBorder }
            onAccepted: root.exportNow()
        }
        Text {
            Layout.fillWidth: true
            visible: root.message !== ""
            text: root.message
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: root.failed ? Theme.failed : Theme.measured
            wrapMode: Text.WordWrap
        }
        RowLayout {
            spacing: Theme.gapM
            PlainButton { text: "Export"; fillColor: Theme.accent; hoverColor: Theme.accentHover; textColor: Theme.ink; onClicked: root.exportNow() }
            PlainButton { text: "Close"; fillColor: "transparent"; textColor: Theme.inkMuted; onClicked: root.close() }
        }
    }
}
