import QtQuick
import QtQuick.Controls
import TpuCourse.Ui

// Says what became of a dropped run record, for a few seconds.
Popup {
    id: root
    property string message: ""
    property bool ok: true
    function show(text, success) { message = text; ok = success; open(); timer.restart() }

    parent: Overlay.overlay
    x: Math.round((parent.width - width) / 2)
    y: parent.height - height - Theme.gapXL
    width: Math.min(Theme.px(720), parent.width - 2 * Theme.gapL)
    padding: Theme.gapM
    closePolicy: Popup.CloseOnEscape | Popup.CloseOnPressOutside
    background: Rectangle { radius: Theme.radius; color: Theme.card; border.color: root.ok ? Theme.measured : Theme.failed }
    Text {
        width: parent.width
        textFormat: Text.PlainText   // it names the file dropped
        text: root.message
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkText
        wrapMode: Text.WordWrap
    }
    Timer { id: timer; interval: 6000; onTriggered: root.close() }
}
