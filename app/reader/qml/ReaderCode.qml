import QtQuick
import QtQuick.Controls
import TpuCourse.Ui
import TpuCourse.Backend

// One sample of code: padded, coloured by language, never wrapped (long
// lines scroll sideways inside the block), with a copy button that copies
// the code exactly as written.
Rectangle {
    id: root
    property string code: ""
    property var styled: []            // the code as styled text, in pieces of whole lines
    property string language: ""
    readonly property bool copied: copiedTimer.running
    // The width that shows every line without scrolling.
    readonly property real naturalWidth: lines.implicitWidth + 2 * Theme.gapM + 2

    implicitHeight: header.height + view.height + Theme.gapM * 2
    radius: Theme.radius
    color: Theme.pageCode
    border.color: Theme.pageRule

    Row {
        id: header
        x: Theme.gapM
        y: Theme.gap
        width: parent.width - 2 * Theme.gapM
        height: copyButton.height
        MonoText {
            anchors.verticalCenter: parent.verticalCenter
            width: parent.width - copyButton.width
            text: root.language
            color: Theme.pageMuted
            font.pixelSize: Theme.tinySize
        }
        PlainButton {
            id: copyButton
            objectName: "copyCode"
            text: root.copied ? "copied" : "copy"
            mono: true
            fillColor: "transparent"
            hoverColor: Theme.pageHover
            textColor: Theme.pageAccent
            onClicked: { Course.copyText(root.code); copiedTimer.restart() }
        }
    }
    Timer { id: copiedTimer; interval: 1500 }

    Flickable {
        id: view
        x: Theme.gapM
        y: header.y + header.height
        width: parent.width - 2 * Theme.gapM
        height: lines.implicitHeight + (contentWidth > width ? bar.height + Theme.gap : 0)
        contentWidth: lines.implicitWidth
        contentHeight: lines.implicitHeight
        flickableDirection: Flickable.HorizontalFlick
        boundsBehavior: Flickable.StopAtBounds
        interactive: contentWidth > width
        clip: true
        ScrollBar.horizontal: ScrollBar { id: bar; policy: view.interactive ? ScrollBar.AlwaysOn : ScrollBar.AlwaysOff }
        // One Text a piece: each lays out once, however the page scrolls.
        Column {
            id: lines
            Repeater {
                model: root.styled
                Text {
                    required property string modelData
                    objectName: "codeText"
                    text: modelData
                    textFormat: Text.StyledText
                    font.family: Theme.mono
                    font.pixelSize: Theme.codeSize
                    lineHeight: 1.3
                    color: Theme.pageInk
                }
            }
        }
    }
}
