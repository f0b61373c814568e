import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Reading

// The schedule as a Chrome trace (JSON trace event format) that Perfetto
// and chrome://tracing open: typed as a path, or chosen in a file dialog.
// The file is written whole or not at all; a failure is one sentence here.
ColumnLayout {
    id: root
    required property var model      // PipelineModel
    signal exported(string path)
    property string result: ""
    property bool failed: false
    spacing: Theme.gap

    function write(path) {
        const why = root.model.exportTrace(path)
        root.failed = why !== ""
        root.result = why !== "" ? why : "Wrote " + path + ": open it at ui.perfetto.dev."
        if (why === "")
            root.exported(path)
    }

    RememberingFileDialog {
        id: picker
        kind: "traces"
        purpose: "Export the schedule as a Chrome trace"
        fileMode: FileDialog.SaveFile
        defaultSuffix: "json"
        nameFilters: ["Chrome trace (*.json)", "All files (*)"]
        onAccepted: {
            const url = selectedFile.toString()
            field.text = decodeURIComponent(url.replace(/^file:\/\//, ""))
            root.write(url)
        }
    }

    Caption {
        font.weight: Font.DemiBold
        text: "export the timeline for Perfetto"
    }
    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        ThemedField {
            id: field
            objectName: "ex08TracePath"
            Layout.fillWidth: true
            placeholderText: "/tmp/pipeline-trace.json"
            onAccepted: root.write(text)
        }
        SnugButton { objectName: "ex08Export"; text: "write"; onClicked: root.write(field.text) }
        SnugButton { objectName: "ex08ExportPick"; text: "choose…"; onClicked: picker.openHere() }
    }
    Text {
        objectName: "ex08ExportResult"
        Layout.fillWidth: true
        visible: text !== ""
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: root.failed ? Theme.failed : Theme.inkMuted
        text: root.result
    }
    Caption {
        Layout.fillWidth: true
        wrapMode: Text.Wrap
        font.pixelSize: Theme.tinySize
        text: "per TensorCore an MXU track and a DMA track; a run of more than 65,536 steps exports its first 65,536"
    }
}
