import QtQuick
import TpuCourse.Ui

// A page that scrolls as a reader expects: a scrollbar in view whenever
// the content is taller than the window; Home, End, Page Up, Page Down and
// the arrows; and a wheel notch that moves one steady distance instead of
// flinging. Content declared inside goes in the Flickable as usual and
// should be `availableWidth` wide, so it never runs under the scrollbar.
Flickable {
    id: root
    readonly property bool scrollable: contentHeight > height + 1
    // The gutter is kept whether or not the bar shows: were the width to
    // depend on the bar, wrapping text would loop (taller, bar, narrower, ...).
    readonly property real availableWidth: width - Theme.scrollBarWidth - Theme.gap
    property bool lightGround: false            // the thumb's colour follows the ground
    readonly property real maximumY: Math.max(0, contentHeight - height)
    // How far Page Down, Space or a press on the scrollbar's track moves.
    readonly property real pageStep: Math.max(Theme.arrowStep, height - Theme.gapXXL)
    // The reader moved the view (a key, the wheel, the scrollbar, a drag),
    // as opposed to the page moving itself.
    signal readerMoved()
    onMovementStarted: readerMoved()

    contentWidth: width
    boundsBehavior: Flickable.StopAtBounds
    flickableDirection: Flickable.VerticalFlick
    clip: true
    activeFocusOnTab: false

    // Scrolls so that y (in content coordinates) is at the top, smoothly.
    function scrollTo(y) {
        glide.stop()
        glide.to = Math.max(0, Math.min(maximumY, y))
        glide.start()
    }
    function scrollBy(dy) { scrollTo((glide.running ? glide.to : contentY) + dy) }
    // Scrolls so that y is at the top at once: the scrollbar's thumb, dragged.
    function placeAt(y) {
        glide.stop()
        contentY = Math.max(0, Math.min(maximumY, y))
    }
    // Puts an item of the content in view, with a margin above it.
    function reveal(item) {
        if (!item)
            return
        const p = item.mapToItem(contentItem, 0, 0)
        scrollTo(p.y - Theme.gapL)
    }

    NumberAnimation {
        id: glide
        target: root
        property: "contentY"
        duration: Theme.scrollDuration
        easing.type: Easing.OutCubic
    }

    // Set into a chapter's text, a page does not scroll itself: it is shown
    // at full height and the chapter scrolls (interactive: false).
    Keys.onPressed: event => {
        if (!root.interactive)
            return
        const page = root.pageStep
        switch (event.key) {
        case Qt.Key_PageDown: root.scrollBy(page); break
        case Qt.Key_PageUp: root.scrollBy(-page); break
        case Qt.Key_Space: root.scrollBy(event.modifiers & Qt.ShiftModifier ? -page : page); break
        case Qt.Key_Home: root.scrollTo(0); break
        case Qt.Key_End: root.scrollTo(root.maximumY); break
        case Qt.Key_Down: root.scrollBy(Theme.arrowStep); break
        case Qt.Key_Up: root.scrollBy(-Theme.arrowStep); break
        default: return
        }
        event.accepted = true
        root.readerMoved()
    }

    // A mouse wheel moves a fixed distance per notch; a touchpad's pixel
    // deltas move exactly as far as the fingers did.
    WheelHandler {
        acceptedDevices: PointerDevice.Mouse | PointerDevice.TouchPad
        target: null
        enabled: root.scrollable && root.interactive
        onWheel: event => {
            if (event.pixelDelta.y !== 0) {
                root.placeAt(root.contentY - event.pixelDelta.y)
            } else {
                root.scrollBy(-event.angleDelta.y / 120 * Theme.wheelStep)
            }
            event.accepted = true
            root.readerMoved()
        }
    }

    PageScrollBar { page: root }
}
