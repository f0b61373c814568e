import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend

// A workshop piece set into the chapter's text (`::: piece EX09
// preset=race`): live and interactive in the column, with its name and a
// way to its full page. It is built when the reader scrolls near it, so a
// chapter opens at the speed of its prose. A piece whose page scrolls
// lends its scrolling to the chapter: it is shown at its full height.
Rectangle {
    id: root
    objectName: "readerPiece"
    property string pieceId: ""
    property var args: ({})
    property bool near: false          // set by the page: within a screen of the view
    readonly property var piece: Course.piece(pieceId)
    readonly property bool isExhibit: piece.kind === "exhibit"
    readonly property url source: Course.pieceUrl(pieceId)
    readonly property bool built: loader.status === Loader.Ready
    // The piece made, read untyped: `busy` and `compact` are its own.
    readonly property var pieceItem: loader.item
    property bool made: false
    property bool released: false
    // The page is leaving the chapter: stop making the piece now, while
    // its context still stands.
    function letGo() { released = true }
    // Being made, or made and still working out its figures off the GUI
    // thread (a piece that does so says it through a `busy` property).
    readonly property bool loading: loader.active && String(source) !== ""
                                    && (!built || !pieceItem || pieceItem.busy === true || layingOut)
    // Made, and about to measure its layouts again (layOutAgain): its
    // height is not yet its own.
    property bool layingOut: false
    signal openPlace(string place)

    implicitHeight: bar.height + body.height
    radius: Theme.radius
    color: Theme.floor
    border.color: Theme.cardBorder
    clip: true

    RowLayout {
        id: bar
        x: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        height: Theme.gapXL + Theme.gap
        spacing: Theme.gapM
        PieceTag { pieceId: root.piece.displayId || root.pieceId; chapter: root.piece.chapter || 0 }
        Text {
            Layout.fillWidth: true
            text: (root.piece.name || "") + (root.piece.does ? "  ·  " + root.piece.does : "")
            elide: Text.ElideRight
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
            color: Theme.inkText
        }
        PlainButton {
            objectName: "openFullPage"
            text: "full page ↗"
            mono: true
            fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.accent
            onClicked: root.openPlace(root.pieceId)
        }
    }

    Item {
        id: body
        y: bar.height
        width: parent.width
        height: {
            const flick = root.scroller
            if (flick) return flick.contentHeight + 2 * Theme.gapM
            // A compact piece sizes to its content.
            if (root.compactHeight > 0) return root.compactHeight + 2 * Theme.gapM
            return root.source.toString() === "" ? missing.implicitHeight + Theme.gapL * 2 : Theme.inlinePieceHeight
        }
        Loader {
            id: loader
            anchors.fill: parent
            anchors.leftMargin: Theme.gapL
            anchors.rightMargin: Theme.gapL
            anchors.topMargin: Theme.gapM
            anchors.bottomMargin: Theme.gapM
            // Kept once made, however far the reader scrolls away, until the
            // page lets go of the chapter (letGo).
            active: !root.released && (root.near || root.made)
            source: root.source
            // What a piece reads, as soon as it is made, to know it is set
            // into a chapter's text (a drill then leaves the keys to the reader).
            readonly property bool setIntoText: true
            // Made a little each frame, in the time the frame leaves over,
            // so scrolling onto a heavy piece never stops for its making.
            // Exhibits too: made at once, chapter 8's two held the window
            // still for 0.4 s just after it opened. One that grows above the
            // view moves the view with it (ChapterPage), so the words being
            // read stay put.
            asynchronous: true
            onLoaded: {
                root.made = true
                if (root.args.preset !== undefined && typeof item.applyPresetNamed === "function")
                    item.applyPresetNamed(root.args.preset)
                root.scroller = root.findScroller(item)
                if (root.scroller)
                    root.scroller.interactive = false
                root.layingOut = true
                layOutAgain.start()
            }
            // Made a slice at a time, a piece's layouts can keep the heights
            // its texts had before they wrapped (seen in Qt 6.4 with EX·01:
            // its hint under the first card, its goals on one line). Hidden
            // and shown once it is in the window, every layout in it
            // measures its items again.
            Timer {
                id: layOutAgain
                interval: 0
                onTriggered: {
                    root.layingOut = false
                    const item = loader.item
                    if (!item) return
                    item.visible = false
                    item.visible = true
                }
            }
        }
        Text {
            id: missing
            visible: String(root.source) === ""
            x: Theme.gapL; y: Theme.gapL
            width: parent.width - 2 * Theme.gapL
            text: "This piece is not built in this version of the course."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
    }

    // The piece's own scrolling page, if it has one; or its content height
    // when it has a compact form.
    property Item scroller: null
    readonly property real compactHeight: built && pieceItem && pieceItem.compact === true ? pieceItem.implicitHeight : 0
    function findScroller(item) {
        if (!item) return null
        if (item.flickableDirection !== undefined && item.contentHeight !== undefined)
            return item
        for (let i = 0; i < item.children.length; ++i) {
            const child = item.children[i]
            if (child.flickableDirection !== undefined && child.contentHeight !== undefined && child.height >= item.height - 1)
                return child
        }
        return null
    }
}
