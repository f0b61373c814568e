import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend

// A workshop piece opened in place: its chapter plugin supplies the page.
// The pages of the last few pieces opened are kept alive, so a piece keeps
// its state when the learner leaves it (for its chapter, say) and comes
// back; an older one is let go and opens afresh.
Rectangle {
    id: root
    objectName: "piecePage"
    signal back()
    signal openPlace(string place)
    property string pieceId: ""
    property var piece: Course.piece(pieceId)
    // pieceId -> the created page, so state survives navigation.
    property var pages: ({})
    // The kept pages' ids, the one opened last at the end. Each page kept
    // is marked by every collection of the script heap, and scrubbing an
    // instrument sets one off several times a second: with every page kept,
    // a collection after the twelve instruments took 9.5 ms against 1.5 ms
    // after the first, long enough to drop a frame.
    property var opened: []
    readonly property int keptPages: 4
    color: Theme.floor

    // Shows the piece; false when its chapter has no page for it.
    function load(id) {
        const url = Course.pieceUrl(id)
        if (String(url) === "")
            return false
        if (!pages[id]) {
            const component = Qt.createComponent(url)
            if (component.status !== Component.Ready) {
                console.warn("piece " + id + ": " + component.errorString())
                return false
            }
            const page = component.createObject(holder, { "width": Qt.binding(() => holder.width),
                                                           "height": Qt.binding(() => holder.height) })
            if (!page)
                return false
            const next = pages
            next[id] = page
            pages = next
        }
        for (const key in pages)
            pages[key].visible = key === id
        pieceId = id
        pages[id].forceActiveFocus()
        keepRecent(id)
        return true
    }
    function keepRecent(id) {
        const order = opened.filter(key => key !== id)
        order.push(id)
        const kept = pages
        while (order.length > keptPages) {
            const oldest = order.shift()
            kept[oldest].destroy()
            delete kept[oldest]
        }
        opened = order
        pages = kept
    }

    // The page of the piece on show, or null.
    function shown() { return pages[pieceId] || null }

    // The piece on show still working out its first figures off the GUI
    // thread: a piece that does so says it through a `busy` property.
    function isBusy() {
        const page = pages[pieceId]
        return !!page && page.busy === true
    }

    // A file dropped on the window while this piece is open: the piece takes
    // it when it reads files (it defines openDroppedFile(url) -> bool).
    function takeDroppedFile(url) {
        const page = pages[pieceId]
        return !!page && typeof page.openDroppedFile === "function" && page.openDroppedFile(url)
    }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: Theme.gapL
        spacing: Theme.gapM
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gapL
            PlainButton {
                text: "← back"; mono: true
                fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.inkMuted
                onClicked: root.back()
            }
            PieceTag { pieceId: root.piece.displayId || ""; chapter: root.piece.chapter || 0 }
            Text {
                text: root.piece.name || ""
                font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
                color: Theme.inkText
            }
            Item { Layout.fillWidth: true }
            // The course's one chip, in view on every piece's page (a piece
            // with a chip choice of its own shows that one instead, and one
            // with no chip-dependent numbers shows none).
            readonly property var shownPage: root.pages[root.pieceId]
            readonly property bool pieceChoosesChip: !!shownPage && (shownPage.choosesChip === true || shownPage.usesChip === false)
            MonoText { text: "numbers for"; color: Theme.inkMuted; visible: !parent.pieceChoosesChip }
            ChipSwitcher { objectName: "pieceChipSwitcher"; visible: !parent.pieceChoosesChip }
            PlainButton {
                text: "chapter " + (root.piece.chapter || "") + " →"; mono: true
                fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.accent
                onClicked: root.openPlace("ch" + String(root.piece.chapter).padStart(2, "0"))
            }
        }
        Item {
            id: holder
            Layout.fillWidth: true
            Layout.fillHeight: true
        }
    }
}
