pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui

// A table of the text: a header row, padded cells, rules between rows, and
// columns of numbers right-aligned on their decimal point. Columns take
// their natural width when the table fits `available`; otherwise the
// widest columns of words wrap and the numbers keep theirs.
Column {
    id: root
    property var cells: []       // rich text per cell, header row first
    property var leftParts: []        // each cell up to its decimal point
    property var rightParts: []       // and from it
    property var numeric: []     // per column
    property var details: []
    property var owner: null
    property var card: null
    property int columns: 1
    property real available: 600
    readonly property int rows: columns > 0 ? Math.floor(cells.length / columns) : 0
    readonly property real pad: Theme.gapM * 0.75

    // Natural widths each cell reports: whole, and its two halves. Noted
    // as each cell is made and published once they all are: published per
    // cell, every note re-sized every column and re-set every cell made so
    // far, a table's cells laid out as many times as it has (150 ms for
    // one of chapter 9's tables).
    property var measured: ({ "n": [], "l": [], "r": [] })
    readonly property var naturals: measured.n
    readonly property var lefts: measured.l
    readonly property var rights: measured.r
    property var noted: ({ "n": [], "l": [], "r": [] })
    function note(list, i, w) {
        if (noted[list][i] === w)
            return
        noted[list][i] = w
        Qt.callLater(publish) // qmllint disable type
    }
    function publish() {
        measured = { "n": noted.n.slice(), "l": noted.l.slice(), "r": noted.r.slice() }
    }
    function columnMax(list, c) {
        let m = 0
        for (let r = 0; r < rows; ++r) m = Math.max(m, list[r * columns + c] || 0)
        return m
    }
    readonly property var leftWidths: { const w = []; for (let c = 0; c < columns; ++c) w.push(columnMax(lefts, c)); return w }
    readonly property var rightWidths: { const w = []; for (let c = 0; c < columns; ++c) w.push(columnMax(rights, c)); return w }
    readonly property real naturalWidth: widths.reduce((a, b) => a + b, 0)

    // The narrowest a column of words may get: its longest word, a
    // parenthesised group such as "(256, 200)" counting as one.
    FontMetrics { id: bodyMetrics; font.family: Theme.sans; font.pixelSize: Theme.bodySize }
    FontMetrics { id: headMetrics; font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold }
    FontMetrics { id: monoMetrics; font.family: Theme.mono; font.pixelSize: Theme.bodySize }
    function longestWord(html, header) {
        const plain = String(html).replace(/<[^>]*>/g, "").replace(/&nbsp;/g, "\u00a0")
                                  .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
        const words = plain.match(/\([^)]*\)|[^\s(]+/g) || []
        let widest = 0
        for (const w of words)
            widest = Math.max(widest, (header ? headMetrics : bodyMetrics).advanceWidth(w), monoMetrics.advanceWidth(w))
        return widest
    }
    readonly property var minimumWidths: {
        const m = []
        for (let c = 0; c < columns; ++c) {
            let w = 0
            for (let r = 0; r < rows; ++r)
                w = Math.max(w, longestWord(cells[r * columns + c] || "", r === 0))
            m.push(Math.ceil(w) + 2 * pad)
        }
        return m
    }
    readonly property var widths: {
        const natural = []
        let total = 0, fixed = 0
        for (let c = 0; c < columns; ++c) {
            // A numeric column's header may be wider than its numbers.
            const body = numeric[c] ? leftWidths[c] + rightWidths[c] : columnMax(naturals, c)
            const w = Math.ceil(Math.max(body, naturals[c] || 0, minimumWidths[c] || 0)) + 2 * pad
            natural.push(w)
            total += w
            if (numeric[c]) fixed += w
        }
        if (total <= available)
            return natural
        // Too wide: the widest columns of words give way first, down to a
        // common width (not below their longest word while those fit), so a short column
        // such as "(4096, 4096) bf16" keeps its line while the long
        // sentences beside it wrap; the numbers keep their width.
        const spare = available - fixed
        let floors = natural.map((w, c) => Math.min(w, minimumWidths[c] || 0))
        // Where even the longest words do not fit side by side (code such
        // as "{devices=[16,1,16]<=[256]" in a narrow window), they give way
        // in proportion, and each cell breaks its word where it must.
        const floorsUsed = floors.reduce((sum, w, c) => numeric[c] ? sum : sum + w, 0)
        if (floorsUsed > spare && floorsUsed > 0)
            floors = floors.map(w => Math.floor(w * Math.max(0, spare) / floorsUsed))
        const used = cap => natural.reduce((sum, w, c) => numeric[c] ? sum : sum + Math.max(floors[c], Math.min(w, cap)), 0)
        let low = 0, high = Math.max(...natural)
        for (let step = 0; step < 24; ++step) {
            const mid = (low + high) / 2
            if (used(mid) <= spare) low = mid; else high = mid
        }
        return natural.map((w, c) => numeric[c] ? w : Math.floor(Math.max(floors[c], Math.min(w, low))))
    }

    Rectangle { width: root.naturalWidth; height: 2; color: Theme.pageInk }
    Repeater {
        model: root.rows
        delegate: Column {
            id: rowItem
            required property int index
            readonly property bool header: index === 0
            Row {
                Repeater {
                    model: root.columns
                    delegate: Item {
                        id: cell
                        required property int index
                        readonly property int at: rowItem.index * root.columns + index
                        readonly property bool numberCell: root.numeric[index] === true && !rowItem.header
                        width: root.widths[index] || 0
                        height: content.height + 2 * root.pad * 0.6
                        Loader {
                            id: content
                            y: root.pad * 0.6
                            // A number's cell is drawn in two halves that meet at the
                            // column's decimal point; any other cell whole.
                            readonly property string file: cell.numberCell ? "TableCellHalves.qml" : "TableCellWhole.qml"
                            function place() {
                                setSource(file, { "table": root, "cell": cell, "at": cell.at, "column": cell.index,
                                                  "header": rowItem.header })
                            }
                            onFileChanged: place()
                            Component.onCompleted: place()
                        }
                    }
                }
            }
            Rectangle {
                width: root.naturalWidth
                height: rowItem.header ? 2 : 1
                color: rowItem.header ? Theme.pageInk : Theme.pageRule
            }
        }
    }
}
