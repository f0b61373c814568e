pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend
import TpuCourse.Reading

// EX·05, the IR x-ray: one program as jaxpr, StableHLO and optimized HLO side
// by side. libtpusim parses the three dumps and links their ops through the
// op names and source lines they carry; hovering an op (or stepping to it
// with the keyboard) lights its counterparts in every pane and in the
// Python, and decodes a dot_general.
Item {
    id: root
    Mastery { id: mastery; piece: "EX05" }
    // Working out its figures off the GUI thread: the page waits for it.
    readonly property bool busy: xray.busy
    // Shows its own chip choice: the piece page's title bar leaves its out.
    readonly property bool choosesChip: true
    objectName: "ex05"
    property string program: "mlp"
    readonly property bool ownProgram: xray.ownProgram
    readonly property string chip: Course.chip   // the course's one chip
    readonly property var programs: [
        { id: "matmul", label: "matmul", python: "matmul" },
        { id: "batched_matmul", label: "batched matmul", python: "batched" },
        { id: "scores", label: "transposed operand", python: "scores" },
        { id: "mlp", label: "MLP layer", python: "mlp" },
        { id: "attention", label: "attention", python: "attention" },
        { id: "layernorm", label: "layernorm", python: "layernorm" }
    ]
    readonly property var titles: ["jaxpr", "StableHLO", "optimized HLO"]
    readonly property var panes: xray.panes
    readonly property var prices: xray.prices  // the dots and kernels costed on the chip
    readonly property var links: xray.links

    // The op shown: the one under the mouse, else the one picked by click or keys.
    property int hoverPane: -1
    property int hoverLine: 0
    property int pickPane: -1
    property int pickLine: 0
    readonly property bool hovering: hoverPane >= 0 && hoverLine > 0
    readonly property int activePane: hovering ? hoverPane : pickPane
    readonly property int activeLine: hovering ? hoverLine : pickLine
    readonly property int activeLink: {
        const pane = panes[activePane]
        return pane && activeLine > 0 ? (pane.owner[activeLine - 1] ?? -1) : -1
    }
    readonly property var link: activeLink >= 0 ? links[activeLink] || null : null
    readonly property var dotChoice: findDot()
    // The active line's shardings, else those of the linked op's lines in the other panes.
    readonly property var shardings: findShardings()
    readonly property bool anyShardings: panes.some(p => p && p.shardingCount > 0)
    function findShardings() {
        if (!anyShardings)
            return []
        const tries = activePane >= 0 && activeLine > 0 ? [[activePane, activeLine]] : []
        if (link)
            for (let p = 0; p < 3; ++p)
                for (const line of link.lines[p] || [])
                    tries.push([p, line])
        for (const [p, line] of tries) {
            const pane = panes[p]
            if (pane && pane.shardingOf && pane.shardingOf[line - 1] >= 0)
                return xray.shardingsAt(p, line)
        }
        return []
    }
    // Source bands, as Compiler Explorer colours them: each op wears the
    // colour of the Python line it came from, in every layer.
    property bool bands: true
    readonly property var bandedLines: links.map(l => l.sourceLine).filter((line, i, all) => line > 0 && all.indexOf(line) === i)
    function bandsOf(pane) {
        if (!bands || !pane || !pane.owner)
            return []
        return pane.owner.map(o => o >= 0 ? (links[o] || {}).sourceLine || 0 : 0)
    }
    readonly property var hloCost: (prices[2] || {}).cost || ({})
    readonly property var kernel: findKernel()

    // Mastery: every op of a shipped program followed across the layers.
    property var followedLinks: ({})
    readonly property int followedCount: Object.keys(followedLinks).length

    function findDot() {
        const order = Array.of(activePane, 0, 1, 2).filter((p, i, all) => p >= 0 && all.indexOf(p) === i)
        for (const p of order) {
            const pane = panes[p]
            if (!pane)
                continue
            const lines = link ? link.lines[p] : (p === activePane && activeLine > 0 ? [activeLine] : [])
            for (const line of lines) {
                const d = pane.dotOf[line - 1]
                if (d >= 0)
                    // Reading prices[p] ties the card to the chip's costs.
                    return { dot: prices[p] ? xray.dotAt(p, d) || null : null, layer: titles[p] }
            }
        }
        return { dot: null, layer: "" }
    }
    // The kernel of the optimized HLO the active op runs in.
    // The model keeps the kernels and hands one over per line: a large dump
    // has tens of thousands. Reading hloCost ties this to each re-costing.
    function findKernel() {
        if (!hloCost.kernelCount)
            return null
        const lines = activePane === 2 && activeLine > 0 ? [activeLine] : link ? link.lines[2] : []
        for (const line of lines) {
            const found = xray.kernelAt(line)
            if (found)
                return found
        }
        return null
    }
    // An HLO line of a computation no op calls: it never runs.
    readonly property string uncalled: hloCost.kernelCount && activePane === 2 && activeLine > 0 ? xray.uncalledAt(activeLine) : ""
    // The shell hands over files dropped on the window; run records (.json)
    // go on to the importer.
    function openDroppedFile(url) {
        if (String(url).toLowerCase().endsWith(".json"))
            return false
        xray.loadFile(url)
        return true
    }
    // A program's optimized HLO handed over by the profile page (decoded
    // from the profile's Hlo Proto), opened at the op a row of it names.
    property string pendingOp: ""
    property string pendingOrigin: ""
    function showDump(text, origin, op) {
        reset()
        pendingOp = op
        pendingOrigin = origin
        xray.loadText(text, origin)
    }
    function revealPending() {
        // Only in the dump's own panes: a parse asked for before it (the
        // program the page opened with) may end after it was asked for.
        if (pendingOp === "" || !panes.some(p => Object(p).origin === pendingOrigin))
            return
        const needle = "%" + pendingOp + " = "
        for (let p = 0; p < panes.length; ++p) {
            const lines = (panes[p] || {}).lines || []
            const i = lines.findIndex(l => l.indexOf(needle) >= 0)
            if (i >= 0) {
                pickPane = p
                pickLine = i + 1
                paneRepeater.itemAt(p).reveal(i + 1)
                break
            }
        }
        pendingOp = ""
    }
    Connections {
        target: xray
        // Qt.callLater is a method; qmllint 6.4 reads it as a property.
        function onParsed() { Qt.callLater(root.revealPending) } // qmllint disable type
        // A dump refused never shows the op asked for.
        function onRefusalChanged() { if (xray.refusal !== "") root.pendingOp = "" }
    }
    // Ctrl+F: the next line of any pane that holds `text` (case ignored),
    // from the op picked onwards, pane after pane, round to the start.
    property string findState: ""   // "" or one sentence: what the last search found
    function findNext(text) {
        const needle = text.trim().toLowerCase()
        if (needle === "") {
            findState = ""
            return
        }
        const startPane = Math.max(pickPane, 0)
        const startLine = pickPane >= 0 ? pickLine : 0
        for (let step = 0; step <= 3; ++step) {
            const p = (startPane + step) % 3
            const lines = (panes[p] || {}).lines || []
            const from = step === 0 ? startLine : 0
            const to = step === 3 ? startLine - 1 : lines.length
            for (let i = from; i < Math.min(to, lines.length); ++i) {
                if (lines[i].toLowerCase().indexOf(needle) >= 0) {
                    hoverPane = -1; hoverLine = 0
                    pickPane = p
                    pickLine = i + 1
                    for (let q = 0; q < 3; ++q)
                        paneRepeater.itemAt(q).foundLine = q === p ? i + 1 : 0
                    paneRepeater.itemAt(p).reveal(i + 1)
                    findState = titles[p] + ", line " + (i + 1)
                    return
                }
            }
        }
        clearFound()
        findState = "\"" + text.trim() + "\" is in none of the dumps"
    }
    function clearFound() {
        findState = ""
        // Panes are made after the find field can first be cleared.
        for (let q = 0; q < paneRepeater.count; ++q) {
            const pane = paneRepeater.itemAt(q)
            if (pane)
                pane.foundLine = 0
        }
    }
    Shortcut {
        sequence: "Ctrl+F"
        enabled: root.visible
        onActivated: { findField.forceActiveFocus(); findField.selectAll() }
    }
    readonly property bool anyPresent: panes.some(p => p && p.present)
    function paneWeight(index) { return !anyPresent || (panes[index] || {}).present ? 4 : 1 }
    readonly property real paneUnit: (paneRow.width - 2 * paneRow.spacing) / (paneWeight(0) + paneWeight(1) + paneWeight(2))
    // A pane with no dump gives most of its width to those with one.
    function sizePanes() {
        for (let i = 0; i < paneRepeater.count; ++i) {
            const pane = paneRepeater.itemAt(i)
            if (pane)
                pane.Layout.preferredWidth = paneWeight(i) * paneUnit
        }
    }
    onPaneUnitChanged: sizePanes()
    function load(id) {
        const entry = programs.find(p => p.id === id)
        program = id
        const base = ":/chapters/ir-stack/samples/"
        xray.loadSample(base + entry.id, base + entry.python + ".py")
    }
    // Leaving the panes keeps the last op hovered, so the card stays on it
    // while the mouse goes to the chip switch.
    function hover(pane, line) {
        if (line === 0 && hovering) {
            pickPane = hoverPane
            pickLine = hoverLine
        }
        hoverPane = line > 0 ? pane : -1
        hoverLine = line
    }
    function reset() {
        hoverPane = -1; hoverLine = 0; pickPane = -1; pickLine = 0
        followedLinks = ({})
        clearFound()
    }
    onActiveLinkChanged: {
        // Read the link afresh: `link` may not have re-evaluated yet.
        const current = links[activeLink]
        if (!current)
            return
        for (let p = 0; p < 3; ++p) {  // bring the counterparts into view
            const lines = current.lines[p]
            if (p !== activePane && lines.length)
                paneRepeater.itemAt(p).reveal(lines[0])
        }
        if (!ownProgram && !followedLinks[activeLink]) {
            const followed = followedLinks
            followed[activeLink] = true
            followedLinks = followed
            if (followedCount === links.length)
                mastery.setDone(true)
        }
    }
    Component.onCompleted: load(program)

    IrXrayModel {
        id: xray
        chip: root.chip
        onLoaded: root.reset()
    }
    RememberingFileDialog {
        id: picker
        objectName: "ex05Picker"
        kind: "dumps"
        purpose: "Open a jaxpr, StableHLO or HLO dump"
        nameFilters: ["IR dumps (*.txt *.jaxpr *.mlir *.hlo)", "All files (*)"]
        onAccepted: xray.loadFile(selectedFile)
    }
    PasteDialog {
        id: paste
        anchors.centerIn: parent
        width: root.width * 0.7
        height: root.height * 0.7
        onSubmitted: text => xray.loadText(text, "pasted")
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.gap

        // The programs and the actions on one line where they fit; in a
        // narrower frame (set into a chapter's text at 1216 px) the actions
        // take a line of their own rather than run past the frame's edge.
        Flow {
            id: toolbar
            Layout.fillWidth: true
            spacing: Theme.gap
            Row {
                id: programRow
                spacing: Theme.gap
                Caption { text: "program"; anchors.verticalCenter: parent.verticalCenter }
                ChoiceRow {
                    options: root.programs
                    current: root.ownProgram ? "" : root.program
                    namePrefix: "ex05program_"
                    onChosen: id => root.load(id)
                }
            }
            // Holds the actions at the right edge while they share the line.
            Item {
                width: Math.max(0, toolbar.width - programRow.width - actionRow.width - 2 * toolbar.spacing)
                height: 1
            }
            Row {
                id: actionRow
                spacing: Theme.gap
                SnugButton {
                    objectName: "ex05Bands"
                    text: root.bands ? "source colours on" : "source colours off"
                    mono: true
                    fillColor: root.bands ? Theme.inkHover : "transparent"
                    hoverColor: Theme.cardHover
                    textColor: root.bands ? Theme.inkText : Theme.inkFaint
                    onClicked: root.bands = !root.bands
                }
                PlainButton {
                    objectName: "ex05Open"
                    text: "open a dump…"; mono: true
                    fillColor: Theme.inkHover; hoverColor: Theme.cardHover; textColor: Theme.inkText
                    onClicked: picker.openHere()
                }
                PlainButton {
                    objectName: "ex05Paste"
                    text: "paste a dump…"; mono: true
                    fillColor: Theme.inkHover; hoverColor: Theme.cardHover; textColor: Theme.inkText
                    onClicked: paste.open()
                }
            }
        }
        Text {
            objectName: "ex05Refusal"
            Layout.fillWidth: true
            visible: xray.refusal.length > 0
            text: xray.refusal
            color: Theme.failed
            font.family: Theme.sans
            font.pixelSize: Theme.smallSize
            wrapMode: Text.WordWrap
        }

        RowLayout {
            Layout.fillWidth: true
            Layout.preferredHeight: Math.max(python.implicitHeight, card.implicitHeight)
            Layout.fillHeight: false
            spacing: Theme.gap
            PythonStrip {
                id: python
                Layout.preferredWidth: 2
                Layout.fillWidth: true
                Layout.fillHeight: true
                visible: xray.python.length > 0
                lines: xray.python
                file: xray.pythonFile
                litLine: root.link ? root.link.sourceLine : 0
                banded: root.bands ? root.bandedLines : []
            }
            LinkCard {
                id: card
                Layout.preferredWidth: 3
                Layout.fillWidth: true
                Layout.fillHeight: true
                link: root.link
                dot: root.dotChoice.dot
                dotLayer: root.dotChoice.layer
                chip: root.chip
                kernel: root.kernel
                uncalled: root.uncalled
                kernelProvenance: root.hloCost.provenance || ({})
                // A profile of the same program, imported earlier, times the kernel.
                measured: root.kernel && Course.revision >= 0 ? LabRuns.measuredInstruction(root.hloCost.module || "", root.kernel.name) : ({})
                // A line kept for it whenever a profile ran this program, so hovering never moves the panes.
                measuredLine: Course.revision >= 0 && LabRuns.profiledProgram(root.hloCost.module || "")
                followed: root.ownProgram || root.links.length === 0 ? ""
                          : "followed " + root.followedCount + " of " + root.links.length + " ops"
                shardings: root.shardings
                shardingLine: root.anyShardings
                onChipChosen: id => Course.chip = id
            }
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gap
            ThemedField {
                id: findField
                objectName: "ex05Find"
                Layout.preferredWidth: Theme.px(280)
                placeholderText: "find in the dumps (Ctrl+F)"
                // Escape clears a search first; from an empty field it leaves the page.
                readonly property bool keepsEscape: text !== ""
                onAccepted: root.findNext(text)
                Keys.onEscapePressed: { text = ""; root.clearFound() }
            }
            MonoText {
                objectName: "ex05FindState"
                Layout.fillWidth: true
                // Said here, not beside the actions, so a dump being read
                // never moves them (or the panes below) onto another line.
                text: xray.busy ? "parsing…" : root.findState
                color: xray.busy ? Theme.inkFaint : Theme.inkMuted
                elide: Text.ElideRight
            }
        }
        RowLayout {
            id: paneRow
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: Theme.gap
            Repeater {
                id: paneRepeater
                onItemAdded: root.sizePanes()
                model: 3
                delegate: IrPane {
                    required property int index
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    title: root.titles[index]
                    dump: root.panes[index] || ({})
                    price: root.prices[index] || ({})
                    // A linked op's lines in every pane; else the HLO line the card tells of.
                    litLines: root.link ? root.link.lines[index]
                              : index === 2 && root.activePane === 2 && (root.kernel || root.uncalled) ? [root.activeLine] : []
                    pickedLine: root.pickPane === index ? root.pickLine : 0
                    bandOf: root.bandsOf(root.panes[index])
                    onHovered: line => root.hover(index, line)
                    onPicked: line => { root.pickPane = index; root.pickLine = line }
                }
            }
        }
    }
}
