import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui

// F1 or ?: every key the course answers to, on one card. Escape closes it.
Popup {
    id: root
    parent: Overlay.overlay
    x: Math.round((parent.width - width) / 2)
    y: Math.round(parent.height * 0.1)
    width: Math.min(Theme.px(640), parent.width - 2 * Theme.gapL)
    height: Math.min(column.implicitHeight + 2 * padding, parent.height * 0.85)
    padding: Theme.gapL
    modal: true
    focus: true
    closePolicy: Popup.CloseOnEscape | Popup.CloseOnPressOutside

    // Ctrl is Cmd on macOS, as Qt maps it.
    readonly property var groups: [
        { title: "Anywhere", keys: [
            ["Ctrl+K", "jump to a chapter, stage, piece or page, or search the chapters' text"],
            ["Escape", "close what is open, then back to the stack"],
            ["Ctrl+E", "export the progress report, or a copy of the progress file"],
            ["F1  or  ?", "this list"],
            ["Ctrl+Q", "quit"]] },
        { title: "Reading a page", keys: [
            ["Page Up / Page Down", "a screen up or down"],
            ["Home / End", "the top or the end of the page"],
            ["↑ ↓", "a line up or down"],
            ["Ctrl+=  /  Ctrl+-", "the chapters' text larger or smaller (kept); Ctrl+0 as it was"],
            ["Ctrl+Shift+D", "the light or the dark theme (kept)"]] },
        { title: "In a chapter's text", keys: [
            ["Ctrl+F", "find words in the chapter; Enter for the next block, Shift+Enter the one before"],
            ["← →", "from one live number of the paragraph to the next, its card open"],
            ["↑ ↓  on an input", "step the underlined number; the paragraph follows"],
            ["☆  ✎  left of a paragraph", "bookmark it, or write a note under it (kept with your progress)"],
            ["Ctrl+Enter  /  Escape", "in a note: keep it, or put it back"]] },
        { title: "Instruments", keys: [
            ["drag a scrub number", "change it; Alt for fine steps"],
            ["type in a scrub number", "any value, Enter to take it"],
            ["Ctrl+F  in EX·05", "find a text in the dumps; Enter for the next; Escape clears it"]] },
        { title: "In a file dialog", keys: [
            ["Ctrl+L", "type a path; each dialog opens where its kind of file last came from"]] },
        { title: "Drills", keys: [
            ["Enter", "to the next field, then check, then the next question"]] }
    ]

    background: Rectangle { radius: Theme.radius * 1.5; color: Theme.card; border.color: Theme.cardBorder }
    Overlay.modal: Rectangle { color: Theme.scrim }

    Flickable {
        id: list
        anchors.fill: parent
        contentHeight: column.implicitHeight
        clip: true
        boundsBehavior: Flickable.StopAtBounds
        // A short window shows part of the list: the bar says there is more.
        ScrollBar.vertical: ScrollBar { policy: list.contentHeight > list.height ? ScrollBar.AlwaysOn : ScrollBar.AlwaysOff }
        ColumnLayout {
            id: column
            width: list.width - (list.contentHeight > list.height ? Theme.gapM : 0)
            spacing: Theme.gapM
            Text {
                objectName: "shortcutsTitle"
                text: "Keys"
                font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
                color: Theme.inkText
            }
            Repeater {
                model: root.groups
                ColumnLayout {
                    id: group
                    required property var modelData
                    Layout.fillWidth: true
                    spacing: Theme.gap / 2
                    MonoText {
                        text: group.modelData.title
                        color: Theme.inkFaint
                        font.pixelSize: Theme.tinySize
                    }
                    Repeater {
                        model: group.modelData.keys
                        RowLayout {
                            id: shortcut
                            required property var modelData
                            Layout.fillWidth: true
                            spacing: Theme.gapM
                            MonoText {
                                objectName: "shortcutKey"
                                Layout.preferredWidth: Theme.px(200)
                                Layout.alignment: Qt.AlignTop
                                text: shortcut.modelData[0]
                                color: Theme.accent
                                wrapMode: Text.Wrap
                            }
                            Text {
                                Layout.fillWidth: true
                                text: shortcut.modelData[1]
                                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                                color: Theme.inkText
                                wrapMode: Text.WordWrap
                            }
                        }
                    }
                }
            }
        }
    }
}
