import QtQuick
import TpuCourse.Ui

// A ScrollPage's scrollbar, shown whenever its page is taller than the
// window. Drag the thumb to move with the pointer; press the track above or
// below it to move a window's height that way, and hold to keep moving.
// Made of plain items, so the stack's first screen loads without Qt Quick
// Controls.
Item {
    id: bar
    // The ScrollPage it scrolls, typed as its base: the two files name each
    // other. Its maximumY, scrollable, pageStep, lightGround, placeAt() and
    // scrollBy() are what the bar reads and calls, through the same page
    // read untyped.
    required property Flickable page
    readonly property var scrollPage: page

    readonly property real trackLength: height - 2 * inset
    readonly property real inset: Theme.px(2)
    readonly property real thumbLength: page.contentHeight > 0
        ? Math.min(trackLength, Math.max(Theme.px(28), trackLength * page.height / page.contentHeight)) : trackLength
    readonly property real travel: Math.max(0, trackLength - thumbLength)
    readonly property bool pressed: pointer.pressed
    readonly property bool hovered: pointer.containsMouse

    objectName: "pageScrollBar"
    // On the page itself, not in its moving content; placed by x and
    // height, as anchors to the page would be set before this parent is.
    parent: page
    x: page.width - width
    height: page.height
    width: Theme.scrollBarWidth
    visible: scrollPage.scrollable
    z: 1
    Accessible.role: Accessible.ScrollBar

    Rectangle {
        id: thumb
        x: bar.inset
        y: bar.inset + (bar.scrollPage.maximumY > 0 ? bar.travel * Math.min(1, Math.max(0, bar.page.contentY / bar.scrollPage.maximumY)) : 0)
        width: bar.width - 2 * bar.inset
        height: bar.thumbLength
        radius: width / 2
        color: bar.scrollPage.lightGround ? Theme.scrollThumbOnLight : Theme.scrollThumb
        opacity: bar.pressed ? 1 : bar.hovered ? 0.9 : 0.6
    }

    MouseArea {
        id: pointer
        anchors.fill: parent
        hoverEnabled: true
        preventStealing: true
        // Where on the thumb it was taken (-1: the track was pressed, not the thumb).
        property real grabbedAt: -1
        property int pageDirection: 0

        function follow(mouseY) {
            if (bar.travel <= 0)
                return
            const along = Math.min(1, Math.max(0, (mouseY - grabbedAt - bar.inset) / bar.travel))
            bar.scrollPage.placeAt(along * bar.scrollPage.maximumY)
            bar.scrollPage.readerMoved()
        }
        function pageOnce() {
            // Stops once the thumb has reached the pointer.
            const under = pressY >= thumb.y && pressY <= thumb.y + thumb.height
            if (under) { repeat.stop(); return }
            bar.scrollPage.scrollBy(pageDirection * bar.scrollPage.pageStep)
            bar.scrollPage.readerMoved()
        }
        property real pressY: 0

        onPressed: mouse => {
            pressY = mouse.y
            if (mouse.y >= thumb.y && mouse.y <= thumb.y + thumb.height) {
                grabbedAt = mouse.y - thumb.y
            } else {
                grabbedAt = -1
                pageDirection = mouse.y < thumb.y ? -1 : 1
                pageOnce()
                repeat.start()
            }
        }
        onPositionChanged: mouse => {
            pressY = mouse.y
            if (pressed && grabbedAt >= 0)
                follow(mouse.y)
        }
        onReleased: { grabbedAt = -1; repeat.stop() }
        onCanceled: { grabbedAt = -1; repeat.stop() }

        Timer {
            id: repeat
            interval: Theme.scrollDuration
            repeat: true
            onTriggered: pointer.pageOnce()
        }
    }
}
