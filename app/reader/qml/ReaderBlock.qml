import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend
import TpuCourse.Shell   // BlockKinds, a singleton of this module
import "searchwords.js" as SearchWords

// One block of a chapter's text, drawn by its kind. It keeps the values of
// its inputs and fills its numbers again when one is dragged, with the same
// rules as the instruments' scrub numbers: a step per 8 px (40 px and a
// doubling for sizes), Shift for ten steps, snapped to the input's step.
Loader {
    id: root
    required property int index
    property int chapter: 0
    property real measure: 600         // the prose column
    property real wide: 900            // figures and tables
    property real full: 1200           // pieces: the whole reading area, margin included
    property real fullOffset: 0        // where that area starts, from the column's left
    property real viewTop: 0           // the visible part of the page, in reader coordinates
    property real viewBottom: 0        // (given to a piece only, which is made when near it)
    // Every block above is built and placed: until then a block's y is not
    // where it will be, and a piece must not take it as a reason to load.
    property bool settled: false
    property bool wanted: false        // the page opens at this block
    property bool ahead: false         // a piece: made now, wherever the view is (PiecesAhead)
    property var inputValues: ({})
    property var card: null            // the page's one explanation card
    property string markKey: ""        // its name for the learner's marks (ParagraphKeys)
    // Built once: the page counts each block the first time it loads.
    property bool built: false
    signal firstLoaded()
    onLoaded: {
        focusable = hasTabStop(item)
        showUnlessFar()
        if (!built) { built = true; firstLoaded() }
    }
    // Far from the view (the page's NearView): hidden, its place and height
    // kept, unless it holds anything to Tab to.
    property bool far: false
    property bool focusable: false
    onFarChanged: showUnlessFar()
    function showUnlessFar() { if (item) item.visible = !far || focusable }
    function hasTabStop(it) {
        if (!it) return false
        if (it.activeFocusOnTab) return true
        for (let i = 0; i < it.children.length; ++i)
            if (hasTabStop(it.children[i])) return true
        return false
    }
    signal openPlace(string place)
    signal inputsChanged(int index, var values)

    // The block, its numbers filled for the course's chip and these inputs:
    // a binding, so a chip chosen anywhere or an input dragged re-fills it.
    // fill() takes the text style's revision only so that the block is
    // filled again when the text is set in new colours (ReaderStyle).
    readonly property var block: active ? fill(Reader.textStyleRevision) : ({})
    function fill(revision) { return Reader.documentBlock(chapter, index, Course.chip, inputValues, Theme.codeSpanSize) }
    readonly property string kind: block.kind || ""
    readonly property bool isPiece: kind === "piece"
    readonly property string anchor: block.anchor || ""
    // The words of a search, marked where they stand in the text.
    property string mark: ""
    // The words an exhibit's notes are pinned to in this block, each
    // {text, hot}: tinted where they first stand, deeper while the
    // learner points at their note.
    property var pins: []
    readonly property var html: marked(pinned(block.html || [], pins), mark)
    function marked(parts, words) {
        return words === "" ? parts : SearchWords.mark(parts, words, '<span style="background-color:' + Theme.pageMark + ';">$1</span>')
    }
    function pinned(parts, notes) {
        for (const note of notes)
            parts = SearchWords.pin(parts, note.text, '<span style="background-color:' + (note.hot ? Theme.pagePinHot : Theme.pagePin) + ';">', "</span>")
        return parts
    }
    readonly property var details: block.details || []

    function inputOf(name) { return (block.inputs || []).find(i => i.name === name) }
    function valueOf(name) {
        const input = inputOf(name)
        return inputValues[name] !== undefined ? inputValues[name] : input ? input.value : 0
    }
    function settle(input, v) {
        v = input.logarithmic ? Math.pow(2, Math.round(Math.log2(Math.max(v, 1e-9))))
                              : Math.round(v / input.step) * input.step
        return Math.max(input.from, Math.min(input.to, v))
    }
    function setInput(name, v) {
        const input = inputOf(name)
        if (!input) return
        v = settle(input, v)
        if (v === valueOf(name)) return
        const next = Object.assign({}, inputValues)
        next[name] = v
        inputValues = next
        inputsChanged(index, inputValues)
    }
    function scrubTo(name, start, dx, modifiers) {
        const input = inputOf(name)
        if (!input) return
        const steps = Math.trunc(dx / Theme.px(input.logarithmic ? 40 : 8)) * (modifiers & Qt.ShiftModifier ? 10 : 1)
        setInput(name, input.logarithmic ? start * Math.pow(2, steps) : start + steps * input.step)
    }
    function resetInput(name) {
        const input = inputOf(name)
        if (input) setInput(name, input.value)
    }
    function stepInput(name, steps) {
        const input = inputOf(name)
        if (!input) return
        const v = valueOf(name)
        setInput(name, input.logarithmic ? v * Math.pow(2, steps) : v + steps * input.step)
    }
    // Each kind of block is drawn by a file of its own (BlockKinds); the
    // kind is not yet known while the block is unfilled.
    sourceComponent: BlockKinds.byKind[kind] || null
}
