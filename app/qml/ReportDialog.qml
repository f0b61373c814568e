pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend

// Export the progress report as PDF, HTML or JSON, chosen by the file's
// ending; the platform's file dialog picks the file, starting in the folder
// last written to.
Popup {
    id: root
    parent: Overlay.overlay
    x: Math.round((parent.width - width) / 2)
    y: Math.round(parent.height * 0.2)
    width: Math.min(Theme.px(640), parent.width - 2 * Theme.gapL)
    padding: Theme.gapL
    modal: true
    focus: true
    // A click beside the dialog does not throw away what was typed: Escape
    // or the buttons close it.
    closePolicy: Popup.CloseOnEscape
    property string message: ""
    property bool failed: false
    property string paper: "A4"
    readonly property bool isPdf: path.text.toLowerCase().endsWith(".pdf")
    // Where the platform has no file dialog of its own, Qt draws one that
    // needs the folder-list module; without it, opening would crash, so the
    // typed path stays the only way.
    readonly property bool pickerAvailable: {
        try {
            Qt.createQmlObject("import Qt.labs.folderlistmodel\nFolderListModel {}", root).destroy()
            return true
        } catch (e) {
            return false
        }
    }

    onOpened: {
        path.text = ReportExport.defaultPath()
        learner.text = ReportExport.learner()
        paper = ReportExport.paper()
        message = ""
        path.forceActiveFocus()
    }

    function exportNow() {
        const error = ReportExport.write(path.text, learner.text, paper)
        failed = error !== ""
        message = failed ? error : "Written to " + path.text
    }

    function filterFor(file) {
        const lower = file.toLowerCase()
        return lower.endsWith(".html") ? 1 : lower.endsWith(".json") ? 2 : lower.endsWith(".sqlite") ? 3 : 0
    }

    background: Rectangle { radius: Theme.radius * 1.5; color: Theme.card; border.color: Theme.cardBorder }
    Overlay.modal: Rectangle { color: Theme.scrim }

    FileDialog {
        id: picker
        objectName: "reportPicker"
        title: "Export the progress report"
        fileMode: FileDialog.SaveFile
        acceptLabel: "Choose"
        nameFilters: ["PDF document (*.pdf)", "Web page, one file (*.html)", "JSON data (*.json)",
                      "Progress file, a copy (*.sqlite)"]
        onAccepted: {
            path.text = ReportExport.localPath(selectedFile)
            root.message = ""
        }
    }

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
            text: "A summary page (stages, chapters, your measured runs on the roofline, predicted against measured), then every gate attempt, every run and every chapter's mastery work. The file's ending picks the format: .pdf, .html (one self-contained page) or .json; .sqlite writes a copy of your progress file itself, to keep or move to another machine."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        Text {
            text: "Name on the report"
            font.family: Theme.sans; font.pixelSize: Theme.tinySize
            color: Theme.inkFaint
        }
        ThemedField {
            id: learner
            objectName: "reportLearner"
            Layout.fillWidth: true
            onAccepted: root.exportNow()
        }
        Text {
            text: "File"
            font.family: Theme.sans; font.pixelSize: Theme.tinySize
            color: Theme.inkFaint
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gap
            ThemedField {
                id: path
                objectName: "reportPath"
                Layout.fillWidth: true
                font.family: Theme.mono
                onAccepted: root.exportNow()
                onTextEdited: root.message = ""
            }
            PlainButton {
                objectName: "reportChoose"
                visible: root.pickerAvailable
                text: "Choose…"
                fillColor: Theme.floor; hoverColor: Theme.inkHover; textColor: Theme.inkText
                onClicked: {
                    picker.currentFolder = ReportExport.folderUrl()
                    picker.selectedNameFilter.index = root.filterFor(path.text)
                    picker.selectedFile = ReportExport.fileUrl(path.text)
                    picker.open()
                }
            }
        }
        // Kept in place for every format, so Export does not move as the
        // file's ending is typed; the paper is a PDF's alone.
        RowLayout {
            spacing: Theme.gap
            Text {
                text: "Paper"
                font.family: Theme.sans; font.pixelSize: Theme.tinySize
                color: Theme.inkFaint
            }
            Repeater {
                model: ["A4", "Letter"]
                PlainButton {
                    required property string modelData
                    enabled: root.isPdf
                    opacity: enabled ? 1 : 0.4
                    text: modelData
                    mono: true
                    fillColor: root.paper === modelData ? Theme.accent : Theme.floor
                    hoverColor: root.paper === modelData ? Theme.accentHover : Theme.inkHover
                    textColor: root.paper === modelData ? Theme.ink : Theme.inkText
                    onClicked: root.paper = modelData
                }
            }
            Text {
                objectName: "reportPaperNote"
                visible: !root.isPdf
                text: "for a .pdf only"
                font.family: Theme.sans; font.pixelSize: Theme.tinySize
                color: Theme.inkFaint
            }
        }
        Text {
            objectName: "reportMessage"
            Layout.fillWidth: true
            // Two lines kept for the outcome, so the buttons below never move when it appears.
            Layout.preferredHeight: Math.max(implicitHeight, 2 * fontInfo.pixelSize * 1.4)
            verticalAlignment: Text.AlignTop
            textFormat: Text.PlainText   // it names the path typed
            text: root.message
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: root.failed ? Theme.failed : Theme.measured
            wrapMode: Text.WordWrap
        }
        RowLayout {
            spacing: Theme.gapM
            PlainButton { objectName: "reportExportButton"; text: "Export"; fillColor: Theme.accent; hoverColor: Theme.accentHover; textColor: Theme.ink; onClicked: root.exportNow() }
            PlainButton { text: "Close"; fillColor: "transparent"; textColor: Theme.inkMuted; onClicked: root.close() }
        }
    }
}
