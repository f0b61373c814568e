import QtQuick
import QtQuick.Dialogs
import TpuCourse.Reading

// A file dialog that opens in the folder its kind of file was last taken
// from (LastFolders) and says in its title that Ctrl+L types a path, which
// Qt's own dialog offers but does not show. Open it with openHere().
FileDialog {
    id: dialog
    required property string kind   // "dumps", "records", "profiles", "traces"
    property string purpose: ""     // the title's words: "Open a profile"
    title: purpose + "   ·   Ctrl+L: type a path"
    function openHere() {
        dialog.currentFolder = LastFolders.folderFor(dialog.kind)
        dialog.open()
    }
    onAccepted: LastFolders.remember(dialog.kind, dialog.selectedFile)
}
