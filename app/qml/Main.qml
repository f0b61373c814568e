import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend
import TpuCourse.Profile
import TpuCourse.Reading

// A plain Window, not ApplicationWindow: the first screen is made without
// Qt Quick Controls, which load with the first page or popup that uses them.
Window {
    id: window
    width: 1440
    height: 900
    minimumWidth: 1024
    minimumHeight: 640
    visible: true
    title: "tpu-course · Learn to make TPUs fast"
    color: Theme.floor
    // The content item takes the window's size only at the window system's
    // first resize: the pages made before it (the stack's first screen, a
    // place named at launch) would be made at 0 x 0 and laid out again,
    // which some Qt 6.4 layouts do not do in full.
    contentItem.width: width
    contentItem.height: height

    // One scale from the window's width and height (1 at 1440x900).
    onWidthChanged: Theme.fitWindow(width, height)
    onHeightChanged: Theme.fitWindow(width, height)
    Component.onCompleted: Theme.fitWindow(width, height, true)

    // Where the learner is: "stack", or a page opened over it.
    property string page: "stack"
    // The page to return to from the chips sheet, the validation table or the bench.
    property string previous: "stack"
    // A chapter draws only its text near the view (NearView), but whole
    // while a layout report reads it or assistive technology is attached
    // (ShellLoad watches for one).
    property bool wholePages: false
    property bool assistiveTechnology: false

    function chapterPlace(n) { return "ch" + String(n).padStart(2, "0") }

    // Opens any place the palette or --open names; false when there is none.
    // True while the page on show is still being built (a chapter's blocks
    // below its first screen, a piece set into its text, a piece still
    // working out its figures).
    function isBusy() {
        if (page === "stack")
            return !stackPage.restMade
        if (page === "piece")
            return pieceLoader.item !== null && pieceLoader.item.isBusy()
        if (page === "profile")
            return profileLoader.item === null || profileLoader.item.busy
        return page === "chapter" && chapterLoader.item !== null && chapterLoader.item.isBuilding()
    }

    function navigate(place) {
        closePalette()
        if (place === "stack") { page = "stack"; stackPage.jumpTo("top"); stackPage.forceActiveFocus(); return true }
        if (place === "workshop") { page = "stack"; stackPage.jumpTo("workshop"); stackPage.forceActiveFocus(); return true }
        if (place === "palette") { page = "stack"; openPalette(); return true }
        if (place === "report") { openReport(); return true }
        if (place === "theme") { ReaderTheme.toggle(); return true }
        if (["bench", "chips", "validation", "profile", "about", "labs"].indexOf(place) >= 0) {
            previous = page === place ? previous : page
            page = place
            if (place === "validation")
                made(validationLoader).forceActiveFocus()  // its keys scroll it
            if (place === "profile")
                made(profileLoader).forceActiveFocus()
            return true
        }
        // ch11, or ch11#a-heading to open the chapter at that heading.
        const ch = /^ch(\d\d)(?:#([a-z0-9-]+))?$/.exec(place)
        if (ch) return openChapter(parseInt(ch[1], 10), "", ch[2] || "")
        const owner = Course.chapterOfPiece(place)
        if (owner > 0) {
            // A piece with a page of its own opens it; otherwise its chapter.
            if (made(pieceLoader).load(place)) { page = "piece"; return true }
            return openChapter(owner, place)
        }
        return false
    }

    // Files dropped on the window: an open piece that reads files (the IR
    // x-ray's dumps) takes them; a profile opens on the profile page;
    // anything else is a run record to import.
    function openFiles(urls) {
        for (const url of urls) {
            if (page === "piece" && pieceLoader.item.takeDroppedFile(url))
                continue
            if (Profile.looksLikeProfile(url.toString())) {
                Profile.open(url.toString())
                navigate("profile")
                continue
            }
            LabRuns.importRun(url.toString(), "dropped")
        }
    }
    Connections {
        target: LabRuns
        function onRunImported(tag, result) {
            if (tag === "dropped")
                window.made(toastLoader).show(result.stored ? result.summary : "Not imported: " + result.problems.join(" "), result.stored)
        }
    }

    // A program's HLO from a profile, shown in the IR x-ray at one op.
    function openInXray(text, origin, op) {
        if (!navigate("EX05"))
            return
        const xray = Object(pieceLoader.item).shown()
        if (xray && typeof xray.showDump === "function")
            xray.showDump(text, origin, op)
    }

    // A search hit: the chapter at its section, the words searched for marked.
    function openTextHit(place, words) {
        if (!navigate(place))
            return false
        if (page === "chapter" && chapterLoader.item)
            chapterLoader.item.mark = words
        return true
    }

    function openChapter(number, focusPiece, anchor) {
        const chapterPage = made(chapterLoader)
        chapterPage.mark = ""  // opened another way than from a search
        if (!chapterPage.load(number, focusPiece, anchor || ""))
            return false
        page = "chapter"
        chapterPage.forceActiveFocus()
        return true
    }

    // Closes the palette, the report dialog and any other popup.
    function closeOverlays() {
        closePalette()
        if (reportLoader.item) Object(reportLoader.item).close()
    }

    function goBack() {
        if (paletteLoader.item && Object(paletteLoader.item).opened) { closePalette(); return }
        if ((page === "chips" || page === "validation") && previous === "bench") {
            page = "bench"
        } else if (page !== "stack") {
            page = "stack"
            stackPage.forceActiveFocus()
        }
    }

    StackPage {
        id: stackPage
        objectName: "stackPage"
        anchors.fill: parent
        visible: window.page === "stack"
        onOpenPlace: place => window.navigate(place)
        // The keys scroll the stack from launch: Page Down and End work at once.
        Component.onCompleted: forceActiveFocus()
    }

    // The pages other than the stack are made the first time they are
    // needed, so start-up builds only what the first screen shows. They are
    // named by file, not written as types here, so their files (and all
    // those they use) are not even read before they are first opened; a
    // loader's item is read through Object() for the functions a page has.
    function made(loader) { loader.active = true; return loader.item }

    // The page on show, whose keys scroll it.
    function pageOnShow() {
        if (page === "stack")
            return stackPage
        for (const loader of [chapterLoader, pieceLoader, benchLoader, chipsLoader, validationLoader,
                              profileLoader, labsLoader, aboutLoader])
            if (loader.visible && loader.item)
                return loader.item
        return null
    }
    // A file dialog or a popup that closes, or an item that goes away while
    // it holds the keys, leaves them with the window's root, where no page
    // hears them: they go back to the page on show, so Page Down and the
    // arrows go on scrolling it.
    onActiveFocusItemChanged: if (activeFocusItem === contentItem) Qt.callLater(keysToPage) // qmllint disable type
    function keysToPage() {
        const shown = pageOnShow()
        if (activeFocusItem === contentItem && shown)
            shown.forceActiveFocus()
    }
    // A page's signals, joined to the window's moves once it is made.
    function wire(item, name) {
        if (name) item.objectName = name
        if (item.back) item.back.connect(goBack)
        if (item.openPlace) item.openPlace.connect(navigate)
        if (item.chosen) item.chosen.connect(navigate)
        if (item.chosenText) item.chosenText.connect(openTextHit)
    }
    Loader {
        id: chapterLoader
        anchors.fill: parent
        active: false
        visible: window.page === "chapter"
        source: "ChapterPage.qml"
        onLoaded: window.wire(item, "chapterPage")
    }
    Loader {
        id: pieceLoader
        anchors.fill: parent
        active: false
        visible: window.page === "piece"
        source: "PiecePage.qml"
        onLoaded: window.wire(item, "")
    }
    Loader {
        id: benchLoader
        anchors.fill: parent
        active: window.page === "bench" || item !== null
        visible: window.page === "bench"
        source: "BenchPage.qml"
        onLoaded: window.wire(item, "")
    }
    Loader {
        id: chipsLoader
        anchors.fill: parent
        active: window.page === "chips" || item !== null
        visible: window.page === "chips"
        source: "ChipsPage.qml"
        onLoaded: window.wire(item, "")
    }
    Loader {
        id: validationLoader
        anchors.fill: parent
        active: false
        visible: window.page === "validation"
        source: "ValidationPage.qml"
        onLoaded: window.wire(item, "validationPage")
    }

    Loader {
        id: profileLoader
        anchors.fill: parent
        active: false
        visible: window.page === "profile"
        source: "qrc:/qt/qml/TpuCourse/Profile/ProfilePage.qml"
        onLoaded: {
            window.wire(item, "profilePage")
            Object(item).openInXray.connect(window.openInXray)
        }
    }

    Loader {
        id: labsLoader
        anchors.fill: parent
        active: window.page === "labs" || item !== null
        visible: window.page === "labs"
        source: "LabsPage.qml"
        onLoaded: window.wire(item, "")
    }
    Loader {
        id: aboutLoader
        anchors.fill: parent
        active: window.page === "about" || item !== null
        visible: window.page === "about"
        source: "qrc:/qt/qml/TpuCourse/About/AboutPage.qml"
        onLoaded: window.wire(item, "aboutPage")
    }

    // Over every page, at its foot: a store that failed or does not verify.
    StoreBanner {
        anchors { left: parent.left; right: parent.right; bottom: parent.bottom }
        z: 1
    }

    // The palette and the report dialog too are made when first opened.
    Loader {
        id: paletteLoader
        active: false
        source: "CommandPalette.qml"
        onLoaded: window.wire(item, "")
    }
    Loader {
        id: reportLoader
        active: false
        source: "ReportDialog.qml"
    }
    Loader {
        id: shortcutsLoader
        active: false
        source: "ShortcutsCard.qml"
    }
    // Ctrl+F on a chapter: find in its text, made on first use. At the
    // foot of the window: at its head it would cover the chapter's links
    // and the block each Enter brings to the top.
    Loader {
        id: findLoader
        active: false
        anchors.bottom: parent.bottom
        anchors.right: parent.right
        anchors.bottomMargin: Theme.gapL
        anchors.rightMargin: Theme.gapXL
        z: 5
        source: "FindInPage.qml"
        onLoaded: item.page = Qt.binding(() => window.page === "chapter" ? chapterLoader.item : null)
    }
    function openFind() { made(findLoader).open() }
    function openPalette() { made(paletteLoader).open() }
    function openShortcuts() { made(shortcutsLoader).open() }
    function closePalette() { if (paletteLoader.item) Object(paletteLoader.item).close() }
    function openReport() { made(reportLoader).open() }

    // Drop a run record anywhere on the window to import it.
    DropArea {
        anchors.fill: parent
        keys: ["text/uri-list"]
        onDropped: drop => { window.openFiles(drop.urls); drop.accept() }
    }
    Loader {
        id: toastLoader
        active: false
        source: "ImportToast.qml"
    }

    // True while the keyboard is in a popup or dialog, which Qt Quick
    // Controls places in the window's overlay: Escape is theirs then (it
    // closes them), not the window's. Read from the focus item's ancestors
    // so the first screen need not load Qt Quick Controls to know.
    readonly property bool keysInPopup: {
        for (let item = window.activeFocusItem; item; item = item.parent)
            if (String(item).startsWith("QQuickOverlay") || String(item).startsWith("QQuickPopupItem"))
                return true
        return false
    }

    // Ctrl+K is Cmd+K on macOS: Qt maps Ctrl to Command there.
    Shortcut { sequences: ["Ctrl+K"]; context: Qt.ApplicationShortcut; onActivated: window.openPalette() }
    // Escape in a note being written is the note's (it puts the note back),
    // and so is it in a field that says it keeps Escape (a search with text in it clears it).
    // StandardKey is Qt Quick's own enumeration: qmllint 6.4 does not resolve it here or below.
    Shortcut { sequences: ["Escape", StandardKey.Back]; enabled: !window.keysInPopup && !window.keysInNote; onActivated: window.goBack() } // qmllint disable unqualified
    readonly property bool keysInNote: window.activeFocusItem !== null
                                       && (window.activeFocusItem.objectName === "markNoteEditor"
                                           || Object(window.activeFocusItem).keepsEscape === true)
    Shortcut { sequences: ["Ctrl+E"]; onActivated: window.openReport() }
    // A piece in the text may have a Ctrl+F of its own (EX·05): the page's wins there.
    Shortcut {
        sequences: ["Ctrl+F"]
        enabled: window.page === "chapter" && !window.keysInPopup
        onActivated: window.openFind()
        onActivatedAmbiguously: window.openFind()
    }
    Shortcut { sequences: ["Ctrl+Q"]; context: Qt.ApplicationShortcut; onActivated: Qt.quit() }
    // The reading text's size, kept between sessions.
    Binding { target: Theme; property: "readerScale"; value: ReaderSize.scale }
    Shortcut { sequences: [StandardKey.ZoomIn, "Ctrl+="]; onActivated: ReaderSize.grow() } // qmllint disable unqualified
    Shortcut { sequences: [StandardKey.ZoomOut]; onActivated: ReaderSize.shrink() } // qmllint disable unqualified
    Shortcut { sequences: ["Ctrl+0"]; onActivated: ReaderSize.reset() }
    // The theme, light or dark, kept between sessions.
    Binding { target: Theme; property: "dark"; value: ReaderTheme.dark }
    Shortcut { sequences: ["Ctrl+Shift+D"]; context: Qt.ApplicationShortcut; onActivated: ReaderTheme.toggle() }
    Shortcut { sequences: ["F1"]; enabled: !window.keysInPopup; onActivated: window.openShortcuts() }
    // "?" only where it is not being typed into a field.
    Shortcut { sequences: ["?", "Shift+?"]; enabled: !window.keysInPopup && !window.keysInText; onActivated: window.openShortcuts() }
    readonly property bool keysInText: {
        const name = String(window.activeFocusItem)
        return name.startsWith("QQuickTextInput") || name.startsWith("QQuickTextField")
            || name.startsWith("QQuickTextEdit") || name.startsWith("QQuickTextArea")
    }
}
