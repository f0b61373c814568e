import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

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
    readonly property var html: marked(block.html || [], mark)
    function marked(parts, words) {
        const terms = words.split(/\s+/).filter(t => t.length >= 3).map(t => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        if (!terms.length)
            return parts
        const rx = new RegExp("(" + terms.join("|") + ")", "gi")
        const span = '<span style="background-color:' + Theme.pageMark + ';">$1</span>'
        // Only the words: never inside a tag or an entity.
        return parts.map(h => h.split(/(<[^>]*>|&[#a-zA-Z0-9]+;)/).map(s => s.startsWith("<") || s.startsWith("&") ? s : s.replace(rx, span)).join(""))
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
    sourceComponent: kind === "heading" ? heading
                   : kind === "paragraph" ? paragraph
                   : kind === "list" ? list
                   : kind === "quote" ? quote
                   : kind === "code" ? code
                   : kind === "table" ? table
                   : kind === "piece" ? piece
                   : kind === "rule" ? rule
                   : kind === "figure" ? figure
                   : null   // not yet known: the chapter is set as the block is made

    Component {
        id: heading
        Item {
            width: root.measure
            implicitHeight: headingText.implicitHeight + (root.block.level <= 3 ? Theme.gapXL : Theme.gapL)
            Text {
                id: headingText
                objectName: "heading:" + root.anchor
                anchors.bottom: parent.bottom
                width: parent.width
                text: root.block.title || ""
                wrapMode: Text.WordWrap
                font.family: Theme.sans
                // Headings grow with the learner's text size, as the prose does.
                font.pixelSize: (root.block.level <= 2 ? Theme.headingSize * 1.1 : root.block.level === 3 ? Theme.headingSize
                                                                                                         : Theme.subheadingSize) * Theme.readerScale
                font.weight: Font.DemiBold
                color: Theme.pageInk
                Accessible.role: Accessible.Heading
            }
        }
    }
    Component {
        id: paragraph
        MarkedBlock {
            chapter: root.chapter
            markKey: root.markKey
            html: root.html[0] || ""
            gutterOnLeft: -root.fullOffset >= gutter
            ReaderText {
                objectName: "readerParagraph"
                width: root.measure
                text: root.html[0] || ""
                details: root.details
                owner: root
                card: root.card
            }
        }
    }
    Component {
        id: list
        Column {
            width: root.measure
            spacing: Theme.gap
            Repeater {
                model: root.html
                delegate: Row {
                    id: entry
                    required property string modelData
                    required property int index
                    spacing: Theme.gap
                    Text {
                        width: Theme.gapL
                        horizontalAlignment: Text.AlignRight
                        text: root.block.ordered ? (root.block.start + entry.index) + "." : "•"
                        font.family: Theme.sans; font.pixelSize: Theme.readerSize
                        lineHeight: Theme.readerLeading
                        color: Theme.pageMuted
                    }
                    ReaderText {
                        width: root.measure - Theme.gapL - Theme.gap
                        text: entry.modelData
                        details: root.details
                        owner: root
                        card: root.card
                    }
                }
            }
        }
    }
    Component {
        id: quote
        Item {
            width: root.measure
            implicitHeight: quoteText.implicitHeight + Theme.gapM * 2
            Rectangle { width: Theme.px(4); height: parent.height; radius: 2; color: Theme.pageAccent }
            Rectangle {
                x: Theme.px(4); width: parent.width - x; height: parent.height
                color: Theme.pageCode
            }
            ReaderText {
                id: quoteText
                x: Theme.gapL; y: Theme.gapM
                width: parent.width - Theme.gapL - Theme.gapM
                text: root.html[0] || ""
                details: root.details
                owner: root
                card: root.card
            }
        }
    }
    Component {
        id: code
        ReaderCode {
            // As wide as its longest line, from the column's measure up to the figures' width.
            width: Math.min(root.wide, Math.max(root.measure, naturalWidth))
            code: root.block.code || ""
            styled: root.block.styled || []
            language: root.block.language || ""
        }
    }
    Component {
        id: table
        ReaderTable {
            width: Math.min(root.wide, naturalWidth)
            available: root.wide
            columns: root.block.columns || 1
            cells: root.html
            leftParts: root.block.left || []
            rightParts: root.block.right || []
            numeric: root.block.numeric || []
            details: root.details
            owner: root
            card: root.card
        }
    }
    Component {
        id: piece
        ReaderPiece {
            x: root.fullOffset
            width: root.full
            pieceId: root.block.pieceId || ""
            args: root.block.args || ({})
            // An exhibit is built as soon as the text above it is placed, wherever
            // the view is: shown whole, it is far taller than a piece's placeholder,
            // and growing later would move every heading below it.
            near: root.wanted || root.ahead || root.settled && (isExhibit
                                                  || root.y < root.viewBottom + Theme.inlinePieceHeight
                                                     && root.y + Theme.inlinePieceHeight > root.viewTop - Theme.inlinePieceHeight)
            onOpenPlace: place => root.openPlace(place)
        }
    }
    Component {
        id: figure
        ReaderFigure {
            available: root.wide
            source: root.block.source || ""
            path: root.block.path || ""
            caption: root.block.caption || ""
        }
    }
    Component {
        id: rule
        Item {
            width: root.measure
            implicitHeight: Theme.gapL
            Rectangle { y: parent.height / 2; width: parent.width; height: 1; color: Theme.pageRule }
        }
    }
}
