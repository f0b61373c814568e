pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend
import TpuCourse.Shell

// A chapter opened in place: title and layer, its introduction, its mastery
// work as a checklist kept in the store, its gate (stages) and its pieces.
ScrollPage {
    id: root
    signal back()
    signal openPlace(string place)

    property var page: ({})
    property string highlightPiece: ""
    property var labs: []
    property var doc: ({})
    // Inputs the learner dragged, by block: kept while the chapter is open.
    property var inputState: ({})
    // The words of the search that opened the chapter, marked in its text.
    property string mark: ""
    ReaderStyle { id: style; chapter: root.page.number || 0 }
    readonly property var textStyle: style.textStyle
    readonly property var summary: Array.from(Course.chapters).find(c => c.number === page.number) || ({})
    readonly property int depth: page.layer || 1

    // The reading column, the margin and the width figures and pieces take.
    ReadingColumns { id: columns; availableWidth: root.availableWidth }
    readonly property real measure: columns.measure   // read by the blocks (host.measure)
    readonly property real wide: columns.wide

    // Loads chapter `number`; false when the course has no such chapter or
    // `anchor` names neither a heading of it nor a piece in its text
    // ("ex09" opens the text at EX·09).
    function load(number, pieceId, anchor) {
        const p = Course.chapterPage(number)
        if (!p || p.number === undefined)
            return false
        // Opened with no place named: where the reader left it, if they did.
        if (!pieceId && !anchor)
            anchor = place.resumeAt(number, () => Reader.chapterDocument(number, textStyle).headings || [])
        place.readerScrolled = false
        const inText = anchor ? Reader.chapterDocument(number, textStyle).pieces.find(x => x.pieceId.toLowerCase() === anchor) : undefined
        if (inText) {
            pieceId = inText.pieceId
            anchor = ""
        }
        if (page.number !== number) {
            inputState = ({})
            readerCard.shown = false
            readerCard.target = root
            const next = Reader.chapterDocument(number, textStyle)
            // Build first what the reader will see first: the top, or the
            // heading or piece the page opens at.
            const heading = (next.headings || []).find(h => h.anchor === anchor)
            const piece = (next.pieces || []).find(p => p.pieceId === pieceId)
            revealFrom = anchor && heading ? heading.index : pieceId && piece ? piece.index : -1
            // A piece still being made stops first: made on after its block
            // has gone, it would be made in a context already destroyed.
            for (let k = 0; k < pieceBlocks.length; ++k) {
                const block = blockItems[pieceBlocks[k]]
                if (block && block.item)
                    block.item.letGo()
            }
            // Emptied first: two chapters with as many blocks would otherwise
            // keep the same delegates, and the count of built blocks with them.
            doc = ({})
            readyBlocks = 0
            shownBlocks = Math.min(next.count || 0, eagerBlocks)
            doc = next
            growBlocks.restart()
            piecesAhead.restart()
        }
        page = p
        labs = LabRuns.labsOfChapter(number)
        highlightPiece = pieceId
        contentY = 0
        // A piece, lab or heading named on the way in is brought into view
        // once the page is laid out, and kept there while the text above it
        // settles.
        pendingReveal = anchor ? "#" + anchor : pieceId
        if (pendingReveal !== "") fillTail(); else tailSoon.restart()
        if (anchor && !(doc.headings || []).some(h => h.anchor === anchor))
            return false
        revealWindow.restart()
        return true
    }
    property string pendingReveal: ""
    property int revealFrom: -1
    // The page's end (its labs, mastery work, pieces and next steps), far
    // below the first screen, is filled a frame after it, unless the page
    // is on its way there: a chapter's first frame is its top alone.
    property var tail: ({ "page": ({}), "labs": [] })
    function fillTail() { tailSoon.stop(); tail = { "page": page, "labs": labs } }
    Timer { id: tailSoon; interval: 16; onTriggered: root.fillTail() }
    // The first screen's blocks are made before the page is first painted;
    // the rest follow a batch a frame, so a chapter opens at the speed of
    // its first screen and the page's height grows as they arrive. Those
    // are made a slice at a time with the event loop free between (one of
    // chapter 9's tables took 90-150 ms, a list up to 60, and a batch of
    // eight held the window still for as long as 186 ms), unless the page
    // is on its way to a heading or piece further down: then the reader
    // waits for the jump, not for a scroll, and they are made at once.
    readonly property bool blocksInSlices: pendingReveal === ""
    readonly property int eagerBlocks: 6
    readonly property int blocksPerFrame: 8
    property int shownBlocks: 0
    Timer {
        id: growBlocks
        interval: 16
        repeat: true
        onTriggered: {
            root.shownBlocks = Math.min(root.doc.count || 0, root.shownBlocks + root.blocksPerFrame)
            if (root.shownBlocks >= (root.doc.count || 0)) stop()
        }
    }
    property int readyBlocks: 0
    // Still building: blocks not yet made, or a piece near the view still
    // loading. Screenshots and benchmarks wait for this to clear.
    function isBuilding() {
        // A reveal still under way counts: the page is not where it is
        // going yet.
        if (readyBlocks < (doc.count || 0) || tail.page !== page || revealSoon.running || revealWindow.running)
            return true
        for (let k = 0; k < pieceBlocks.length; ++k) {
            const block = blockItems[pieceBlocks[k]]
            if (block && block.item && block.item.loading)
                return true
        }
        return false
    }
    // Every block built: the page's height is final, the reveal can rest.
    onReadyBlocksChanged: if (readyBlocks === doc.count && pendingReveal !== "") { revealPending(); revealWindow.restart() }
    function revealPending() {
        // Opened from a search: at the first block of the section holding its words.
        const found = pendingReveal !== "" ? anchorOf(pendingReveal) : null
        const target = pendingReveal.startsWith("#") ? blockWords.markedFrom(found, mark) : found
        // A piece in the text, or a search's words, shown with what leads to it.
        const above = target && (target.kind === "piece" || target !== found) ? height / 4 : Theme.gapL
        if (!target)
            return
        const y = target.mapToItem(contentItem, 0, 0).y
        let top = y - above
        // Words near the start of their section are shown under its heading,
        // rather than with the heading cut at the window's top edge.
        if (found && target !== found) {
            const headingTop = found.mapToItem(contentItem, 0, 0).y - Theme.gapL
            if (y - headingTop <= height / 2)
                top = headingTop
        }
        contentY = Math.max(0, Math.min(maximumY, top))
    }
    // The reader moving the view ends the reveal, which would otherwise
    // pull the page back while pieces still load.
    onReaderMoved: {
        place.readerScrolled = true
        keeper.readerMoved()
        if (pendingReveal !== "") endReveal()
    }
    function endReveal() {
        pendingReveal = ""
        revealSoon.stop()
        revealWindow.stop()
        revealWindow.waited = 0
    }
    // Blocks are placed after their heights change: reveal once they are.
    onContentHeightChanged: {
        if (pendingReveal !== "" && !revealSoon.running) revealSoon.start()
        checkMargin()
    }
    Timer { id: revealSoon; interval: 30; onTriggered: { root.revealPending(); root.checkMargin() } }
    // Kept while blocks, or pieces near the view, are still being built (at
    // most 4.8 s), and looked at often, so it ends soon after they are.
    Timer {
        id: revealWindow
        property int waited: 0
        interval: 100
        onTriggered: {
            root.revealPending()
            if (root.isBuilding() && ++waited < 48) restart()
            else root.endReveal()
        }
    }
    // "#anchor": a heading of the text; otherwise the lab card, inline piece
    // or piece row of `pieceId`.
    function anchorOf(name) {
        if (name.startsWith("#")) {
            for (let i = 0; i < blocks.count; ++i) {
                const block = blocks.itemAt(i)
                if (block && block.anchor === name.slice(1)) return block
            }
            return null
        }
        for (let i = 0; i < blocks.count; ++i) {
            const block = blocks.itemAt(i)
            if (block && block.kind === "piece" && block.block.pieceId === name) return block
        }
        for (const rows of [labCards, pieceRows])
            for (let i = 0; i < rows.children.length; ++i) {
                const child = rows.children[i]
                if (child.pieceId === name)
                    return child
            }
        return null
    }
    function refresh() {
        if (page.number === undefined)
            return
        page = Course.chapterPage(page.number)
        labs = LabRuns.labsOfChapter(page.number)
        fillTail()
    }

    // The blocks as made, by index, and which of them are headings and
    // pieces. Read on every step of a scroll, so kept as plain arrays: in
    // Qt 6.4 each call of the Repeater's itemAt() and each read of a
    // block's string properties makes a new script object, and at a step a
    // frame those fill the script heap into collections that stop a frame.
    property var blockItems: []
    readonly property var headingBlocks: (doc.headings || []).map(h => h.index)
    readonly property var headingAnchors: (doc.headings || []).map(h => h.anchor)
    readonly property var pieceBlocks: (doc.pieces || []).map(p => p.index)
    ParagraphKeys { id: keys; headingBlocks: root.headingBlocks; headingAnchors: root.headingAnchors }
    BlockWords { id: blockWords; page: root }

    // The heading the reader is in: the last one above a quarter of the view
    // (at the end of the page, the last one in view).
    property string currentAnchor: ""
    ReadingPlace { id: place; shown: root.visible && !!root.Window.window && root.Window.window.visible }
    onCurrentAnchorChanged: place.reached(page.number, currentAnchor, doc.headings || [])
    function followScroll() {
        let found = ""
        // In the reader's coordinates, where its blocks are placed; at the
        // end of the page, whose last headings never reach the top, the
        // view's foot.
        const line = readerViewTop + (contentY >= maximumY - 1 ? height - Theme.gapXL : height / 4)
        // Blocks are made in order; one not made yet has no place.
        for (let k = 0; k < headingBlocks.length && headingBlocks[k] < shownBlocks; ++k) {
            const block = blockItems[headingBlocks[k]]
            if (!block) continue
            if (block.y > line) break
            found = headingAnchors[k]
        }
        // Above the first heading's line (the chapter's top), the section
        // read is the first, once it is in view.
        const first = headingBlocks.length > 0 && headingBlocks[0] < shownBlocks ? blockItems[headingBlocks[0]] : null
        if (found === "" && first && first.y < readerViewTop + height)
            found = headingAnchors[0]
        if (found !== currentAnchor)
            currentAnchor = found
    }
    onContentYChanged: checkMargin()
    // The top of the view in the reader's coordinates, where its blocks are
    // placed. The section followed from it, not from contentY: in
    // contentY's own change handler this binding has not followed yet.
    readonly property real readerViewTop: contentY - column.y - reader.y
    onReaderViewTopChanged: followScroll()
    NearView {
        id: nearView
        blocks: root.blockItems
        count: root.doc.count || 0
        viewTop: root.readerViewTop
        viewHeight: root.height
        enabled: !!root.shell && !root.shell.wholePages && !root.shell.assistiveTechnology
    }
    // The line being read kept in view when the type, the window's width or
    // the chip (and so the numbers above it) changes.
    PlaceKeeper {
        id: keeper
        page: root
        blocks: root.blockItems
        count: root.doc.count || 0
        origin: column.y + reader.y
        active: root.pendingReveal === ""
    }
    onAvailableWidthChanged: keeper.reflowed()
    Connections { target: Theme; function onReaderScaleChanged() { keeper.reflowed() } }
    readonly property var shell: root.Window.window     // Main.qml's, untyped: those two are its own
    // Every piece set into the text made: the page a reader finds after a rest (benchmarks, tests).
    function piecesMade() { return piecesAhead.allMade() }
    PiecesAhead {
        id: piecesAhead
        blocks: root.blockItems
        pieceBlocks: root.pieceBlocks
        viewTop: root.readerViewTop
        building: () => root.isBuilding()
        shown: root.visible
    }
    MarginRoom {
        id: marginRoom
        page: root
        below: band.height + Theme.gapXL
        blocks: root.blockItems
        pieceBlocks: root.pieceBlocks
        made: root.shownBlocks
        origin: column.y + reader.y
    }
    function checkMargin() { marginRoom.update() }
    onHeightChanged: { followScroll(); checkMargin() }

    contentHeight: column.y + column.implicitHeight + Theme.gapXXL
    lightGround: !Theme.dark

    Rectangle {
        // The chapter keeps the colour of its layer in a band across the top.
        id: band
        width: root.width
        height: header.y + header.height + Theme.gapXL
        color: Theme.layerColor(root.depth)
    }
    Rectangle {
        y: band.height
        width: root.width
        height: Math.max(root.contentHeight, root.height) - y
        color: Theme.page
    }

    ChapterHeading {
        id: header
        x: columns.columnX
        y: Theme.gapL * 2
        width: root.wide
        page: root.page
        summary: root.summary
        depth: root.depth
        measure: root.measure
        onBack: root.back()
        onOpenPlace: place => root.openPlace(place)
    }

    // The margin: the course's chip and the chapter's contents, kept in
    // view while the text scrolls.
    ReaderMargin {
        id: margin
        objectName: "readerMargin"
        visible: columns.sideMargin && !marginRoom.pieceUnder
        x: columns.groupLeft
        y: marginRoom.top
        width: Theme.marginWidth
        height: marginRoom.height
        clip: true
        headings: (root.doc.headings || []).filter(h => h.level <= 3)
        currentAnchor: root.currentAnchor
        values: root.doc.values || 0
        onJump: anchor => root.reveal(root.anchorOf("#" + anchor))
        chapter: root.page.number || 0
        onJumpToMark: key => root.reveal(root.blockItems[keys.indexOf(key)] || null)
    }
    // Without room for a margin, the chip rides along the top instead.
    ChipStrip {
        id: chipStrip
        visible: !columns.sideMargin
        z: 2
        y: Math.max(band.height, root.contentY)
        width: root.width
        columnX: columns.columnX
    }
    // The one card that says what a number in the text is.
    ExplainCard { id: readerCard; objectName: "readerValueCard" }

    Connections {
        target: Course
        // Blocks re-fill themselves (their binding names the chip); the
        // card may be showing a number that just changed.
        function onChipChanged() { readerCard.shown = false; keeper.reflowed() }
    }

    Column {
        id: column
        x: columns.columnX
        y: band.height + Theme.gapXL + (chipStrip.visible ? chipStrip.height : 0)
        width: root.wide
        spacing: Theme.gapL

        Text {
            width: column.width
            visible: root.page.loaded === false
            text: "This chapter's library could not be loaded: " + (root.page.loadError || "") + " Its outline and checklist still work."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize
            color: Theme.pageFailed
            wrapMode: Text.WordWrap
        }
        Text {
            width: column.width
            visible: (root.doc.problems || []).length > 0
            text: "Some of this chapter's text could not be set: " + (root.doc.problems || []).join("; ")
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.pageFailed
            wrapMode: Text.WordWrap
        }

        Column {
            id: reader
            objectName: "chapterReader"
            width: column.width
            spacing: Theme.gapM
            // Blocks made or grown above the view move the headings under it.
            onHeightChanged: { nearView.schedule(); root.followScroll() }
            Repeater {
                id: blocks
                model: root.doc.count || 0
                onItemAdded: (index, item) => { root.blockItems[index] = item }
                onItemRemoved: (index, item) => { if (root.blockItems[index] === item) root.blockItems[index] = null }
                delegate: ReaderBlock {
                    chapter: root.page.number || 0
                    measure: root.measure
                    wide: root.wide
                    full: columns.groupWidth
                    fullOffset: columns.groupLeft - columns.columnX
                    // Only a piece looks at the view (to be made when near it);
                    // the other blocks are left out of every scroll step.
                    viewTop: isPiece ? root.readerViewTop : 0
                    viewBottom: isPiece ? viewTop + root.height : 0
                    active: index < root.shownBlocks
                    asynchronous: index >= root.eagerBlocks && root.blocksInSlices
                    inputValues: root.inputState[index] || ({})
                    mark: root.mark
                    markKey: kind === "paragraph" ? keys.keyOf(index) : ""
                    card: readerCard
                    onFirstLoaded: root.readyBlocks += 1
                    settled: root.readyBlocks === (root.doc.count || 0)
                    wanted: index === root.revealFrom
                    onInputsChanged: (i, values) => { const next = root.inputState; next[i] = values; root.inputState = next }
                    onOpenPlace: place => root.openPlace(place)
                    // A block above the view that changes height once placed (a
                    // piece made, its page grown) moves the view by as much, so
                    // the words being read stay where they are.
                    property real placedHeight: 0
                    onHeightChanged: {
                        const grown = height - placedHeight
                        const wasAbove = placedHeight > 0 && y + placedHeight <= viewTop
                        placedHeight = height
                        if (grown !== 0 && wasAbove && root.pendingReveal === "" && !keeper.settling)
                            root.contentY = Math.max(0, root.contentY + grown)
                    }
                }
            }
        }

        // Made only for the chapters that show them (a stage's gate, G0's
        // form); by file, as a bound component of this page cannot be (Qt 6.4).
        Loader {
            id: gateLoader
            width: column.width
            active: root.page.isStage === true
            source: "ChapterGate.qml"
            Binding { target: gateLoader.item; property: "page"; value: root.page; when: gateLoader.status === Loader.Ready }
        }
        Loader { width: column.width; active: root.page.gate === "G0"; source: "PredictionForm.qml" }

        ChapterLabs {
            id: labCards
            width: column.width
            spacing: column.spacing
            labs: root.tail.labs
            onImported: root.refresh()
        }

        MasteryList {
            width: column.width
            topPadding: Theme.gapL
            chapter: root.tail.page.number || 0
            items: root.tail.page.mastery || []
            onOpenPlace: place => root.openPlace(place)
        }

        ChapterPieces {
            id: pieceRows
            width: column.width
            spacing: column.spacing
            pieces: root.tail.page.pieces || []
            highlightPiece: root.highlightPiece
            onOpenPlace: place => root.openPlace(place)
        }

        Item {
            width: column.width
            height: steps.implicitHeight + Theme.gapXL
            ChapterSteps {
                id: steps
                y: Theme.gapXL
                width: parent.width
                number: root.tail.page.number || 0
                onOpenPlace: place => root.openPlace(place)
            }
        }
    }
}
