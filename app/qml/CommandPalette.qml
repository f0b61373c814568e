pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend
import "searchwords.js" as SearchWords

// Ctrl+K: type a few letters of anything (a chapter, a stage, a piece id, the
// bench, the report), move with the arrows, Enter jumps there.
Popup {
    id: root
    objectName: "palette"
    signal chosen(string place)
    // A hit in the chapters' text: the words searched for, to mark there.
    signal chosenText(string place, string words)

    // A row's plain text as styled text, the words typed marked in it as a
    // page marks them (the phrase where it stands whole, else each word).
    function marked(plain, words) {
        const html = plain.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
        return SearchWords.mark([html], words, "<b><font color=\"" + Theme.inkText + "\">$1</font></b>")[0]
    }

    parent: Overlay.overlay
    x: Math.round((parent.width - width) / 2)
    y: Math.round(parent.height * 0.12)
    width: Math.min(Theme.px(680), parent.width - 2 * Theme.gapL)
    height: Math.min(column.implicitHeight + 2 * padding, parent.height * 0.8)
    padding: Theme.gapM
    modal: true
    focus: true
    closePolicy: Popup.CloseOnEscape | Popup.CloseOnPressOutside
    onOpened: {
        field.text = ""; Course.palette.query = ""; list.currentIndex = 0
        pointerStart = Qt.point(-1, -1)
        field.forceActiveFocus()
        // The chapters' text read for searching while the first letters are typed.
        Course.palette.readAhead()
    }

    // The pointer picks a row only once it has moved since the palette
    // opened: a pointer that happened to rest where the list appears must
    // not change what Enter opens.
    property point pointerStart: Qt.point(-1, -1)
    function pointerMoved(scenePoint) {
        if (pointerStart.x < 0) {
            pointerStart = scenePoint
            return false
        }
        return Math.abs(scenePoint.x - pointerStart.x) + Math.abs(scenePoint.y - pointerStart.y) > 2
    }

    function accept() {
        const place = Course.palette.placeAt(list.currentIndex)
        if (place === "")
            return
        const inText = Course.palette.kindAt(list.currentIndex) === "in the text"
        const words = Course.palette.marksAt(list.currentIndex)
        close()
        if (inText) chosenText(place, words)
        else chosen(place)
    }

    background: Rectangle {
        radius: Theme.radius * 1.5
        color: Theme.card
        border.color: Theme.cardBorder
    }
    Overlay.modal: Rectangle { color: Theme.scrim }

    ColumnLayout {
        id: column
        anchors.fill: parent
        spacing: Theme.gap

        TextField {
            id: field
            objectName: "paletteField"
            Layout.fillWidth: true
            placeholderText: "Jump to a chapter, piece or page, or search the text…"
            font.family: Theme.sans
            font.pixelSize: Theme.subheadingSize
            color: Theme.inkText
            placeholderTextColor: Theme.inkFaint
            background: Rectangle { color: "transparent"; border.color: "transparent" }
            onTextChanged: { Course.palette.query = text; list.currentIndex = 0 }
            Keys.onDownPressed: list.currentIndex = Math.min(list.count - 1, list.currentIndex + 1)
            Keys.onUpPressed: list.currentIndex = Math.max(0, list.currentIndex - 1)
            Keys.onReturnPressed: root.accept()
            Keys.onEnterPressed: root.accept()
            Keys.onTabPressed: list.currentIndex = (list.currentIndex + 1) % Math.max(1, list.count)
        }
        Rectangle { Layout.fillWidth: true; height: 1; color: Theme.cardBorder }
        ListView {
            id: list
            objectName: "paletteList"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, Theme.px(420))
            clip: true
            model: Course.palette
            // No rows made ahead, in the background: each letter typed resets
            // the list, and Qt 6.4 warns about rows it was still making.
            cacheBuffer: 0
            boundsBehavior: Flickable.StopAtBounds
            highlightMoveDuration: 0
            delegate: Rectangle {
                id: row
                required property int index
                required property string place
                required property string kind
                required property string title
                required property string subtitle
                required property string marks
                width: ListView.view.width
                height: rowText.implicitHeight + Theme.gap * 1.5
                radius: Theme.radius
                color: ListView.isCurrentItem ? Theme.cardHover : "transparent"
                border.color: ListView.isCurrentItem ? Theme.accent : "transparent"
                opacity: row.kind === "not built" ? 0.7 : 1
                RowLayout {
                    id: rowText
                    x: Theme.gapM
                    width: parent.width - 2 * Theme.gapM
                    anchors.verticalCenter: parent.verticalCenter
                    spacing: Theme.gapM
                    MonoText {
                        Layout.preferredWidth: Theme.px(86)
                        text: row.kind
                        color: Theme.accent
                        font.pixelSize: Theme.tinySize
                    }
                    ColumnLayout {
                        Layout.fillWidth: true
                        spacing: 0
                        MonoText {
                            objectName: "paletteRowSearched"
                            Layout.fillWidth: true
                            wrapMode: Text.Wrap
                            // Above the first row searched that way; the rest follow it.
                            visible: row.marks !== "" && (row.index === 0 || Course.palette.marksAt(row.index - 1) !== row.marks)
                            text: visible ? "nothing holds the words as typed · searched for “" + row.marks + "”" : ""
                            color: Theme.accent
                            font.pixelSize: Theme.tinySize
                        }
                        Text {
                            objectName: "paletteRowTitle"
                            Layout.fillWidth: true
                            text: root.marked(row.title, row.marks || field.text)
                            textFormat: Text.StyledText
                            wrapMode: Text.Wrap
                            font.family: Theme.sans; font.pixelSize: Theme.bodySize
                            color: Theme.inkText
                        }
                        Text {
                            objectName: "paletteRowSnippet"
                            Layout.fillWidth: true
                            text: root.marked(row.subtitle, row.marks || field.text)
                            textFormat: Text.StyledText
                            wrapMode: Text.Wrap
                            font.family: Theme.sans; font.pixelSize: Theme.tinySize
                            color: Theme.inkMuted
                        }
                    }
                }
                MouseArea {
                    anchors.fill: parent
                    hoverEnabled: true
                    onPositionChanged: mouse => {
                        if (root.pointerMoved(mapToItem(null, mouse.x, mouse.y)))
                            list.currentIndex = row.index
                    }
                    onEntered: root.pointerMoved(mapToItem(null, mouseX, mouseY)) && (list.currentIndex = row.index)
                    onClicked: { list.currentIndex = row.index; root.accept() }
                }
            }
        }
        MonoText {
            objectName: "paletteNothing"
            visible: list.count === 0
            textFormat: Text.PlainText   // what was typed, as typed
            text: "nothing matches \"" + field.text + "\""
            color: Theme.inkFaint
        }
        MonoText {
            text: "↑↓ move · Enter jump · Esc close"
            color: Theme.inkFaint
            font.pixelSize: Theme.tinySize
        }
    }
}
