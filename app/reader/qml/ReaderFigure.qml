import QtQuick
import TpuCourse.Ui

// A figure of the text: an image the chapter ships, at its own size up to
// the figures' width, its caption under it. An image missing from the
// build says so in one sentence instead of leaving a hole.
Column {
    id: root
    property url source
    property string path: ""
    property string caption: ""
    property real available: 900
    spacing: Theme.gap

    Image {
        id: image
        source: root.source
        asynchronous: true
        fillMode: Image.PreserveAspectFit
        width: Math.min(root.available, sourceSize.width > 0 ? sourceSize.width : root.available)
        height: sourceSize.width > 0 ? width * sourceSize.height / sourceSize.width : 0
        Accessible.role: Accessible.Graphic
        Accessible.name: root.caption
    }
    Text {
        visible: image.status === Image.Error
        width: root.available
        text: "The figure " + root.path + " is not in this build of the chapter."
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.pageFailed
        wrapMode: Text.WordWrap
    }
    Text {
        visible: root.caption !== ""
        width: Math.max(image.width, Math.min(root.available, implicitWidth))
        text: root.caption
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.pageMuted
        wrapMode: Text.WordWrap
    }
}
