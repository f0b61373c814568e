pragma Singleton
import QtQuick

// Every colour, type size and spacing of the app. Pages use these names and
// never literal values, so the descent's palette is changed in one place.
QtObject {
    id: theme

    // One scale for type and spacing, chosen from the window's width and
    // height together (1 at 1440x900): a wide but short window must not grow
    // the type until pages no longer fit its height.
    property real zoom: 1.0
    function px(v: real): real { return Math.round(v * zoom) }
    // Type follows the scale one event later than spacing does: Qt Quick
    // Layouts that see their spacing and their texts' sizes change in the
    // same pass keep the texts' old sizes, and labels come out cut off.
    property real typeZoom: 1.0
    function tpx(v: real): real { return Math.round(v * typeZoom) }
    function fitWindow(width, height, atOnce) {
        zoom = Math.max(minimumZoom, Math.min(maximumZoom, width / 1440, height / 900))
        if (atOnce)
            typeZoom = zoom
        else    // Qt.callLater is a method; qmllint 6.4 reads it as a property.
            Qt.callLater(() => typeZoom = zoom) // qmllint disable type
    }
    readonly property real minimumZoom: 0.86
    readonly property real maximumZoom: 1.3

    // --- type
    readonly property string sans: "Inter"
    readonly property string mono: "JetBrains Mono"
    readonly property int displaySize: tpx(56)
    readonly property int titleSize: tpx(32)
    readonly property int headingSize: tpx(24)
    readonly property int subheadingSize: tpx(19)
    readonly property int bodySize: tpx(16)
    readonly property int smallSize: tpx(14)
    readonly property int tinySize: tpx(12)
    // Chapter prose: a size and leading for long reading, and the measure
    // (characters per line) its column is set to.
    // The learner's own factor on the reader's type (Ctrl+= and Ctrl+-).
    property real readerScale: 1.0
    readonly property int readerSize: tpx(18 * readerScale)
    readonly property real readerLeading: 1.3
    // A learner's note under a paragraph, a step below the prose, grown with it.
    readonly property int readerNoteSize: tpx(14 * readerScale)
    // The prose face's own line (ascent, descent and gap) per pixel of its
    // size, which a reading text's leading multiplies (ReaderText).
    readonly property FontMetrics sansMetrics: FontMetrics { font.family: theme.sans; font.pixelSize: 100 }
    readonly property real sansLineRatio: sansMetrics.height / 100
    readonly property real sansAscentRatio: sansMetrics.ascent / 100
    readonly property int readerMeasure: 68
    // Prose outside the reader's column (cards, lists) is set no wider
    // than this many characters (ProseMeasure.width).
    readonly property int cardMeasure: 80
    readonly property int codeSize: tpx(14)
    readonly property int codeSpanSize: tpx(16 * readerScale)   // code in a sentence: JetBrains Mono's letters run larger than Inter's

    // --- spacing and shape
    readonly property int gap: px(8)
    readonly property int gapM: px(16)
    readonly property int gapL: px(24)
    readonly property int gapXL: px(40)
    readonly property int gapXXL: px(64)
    readonly property int pageMargin: px(96)
    readonly property int contentWidth: px(1240)
    readonly property int radius: px(6)
    readonly property int pillRadius: px(14)
    readonly property int hairline: 1
    readonly property int focusWidth: 2
    readonly property int layerHeight: px(150)
    readonly property int progressWidth: px(160)
    readonly property int progressThickness: px(3)
    // The column a chapter's prose is set in, and where a page reflows.
    readonly property int readingWidth: px(720)
    readonly property int twoColumnMinimum: px(380)
    readonly property int explainWidth: px(380)
    // Scrolling: a wheel notch, an arrow key, and the scrollbar's thumb.
    readonly property int wheelStep: px(96)
    readonly property int arrowStep: px(48)
    readonly property int scrollBarWidth: px(10)
    // The chapter reader's margin (contents, chip) and its widest figures.
    readonly property int marginWidth: px(230)
    readonly property int figureWidth: px(1120)
    readonly property int inlinePieceHeight: px(680)

    // --- the learner's theme. Light reads the chapters on paper and starts
    // the descent there; dark sets the same pages on a dark ground, the
    // descent running from slate to the floor. Instruments, drills and the
    // workshop sit on their dark cards in both.
    property bool dark: false

    // --- the descent: paper at the top, ink at the floor
    readonly property color paper: "#f6f2ea"
    readonly property color ink: "#11151d"
    readonly property color floor: "#0a0d13"
    readonly property color card: "#141a24"
    readonly property color cardBorder: "#27303e"
    readonly property color cardHover: "#1b2330"
    // The mid bands stay light enough for dark ink (layers 4-5) or dark
    // enough for light ink (6 on): no grey where neither reads well.
    readonly property var layerColors: dark ? darkLayerColors : lightLayerColors
    readonly property var lightLayerColors: ["#f6f2ea", "#e6e1d7", "#d3cdc2", "#bdb7ad",
                                             "#a8a29a", "#4b5059", "#393e47", "#262a33", "#151922"]
    // Dark: the same descent, from slate (the page's own ground) to the floor.
    readonly property var darkLayerColors: ["#262a32", "#23272e", "#21242b", "#1e2128",
                                            "#1c1e24", "#191c21", "#17191e", "#14161a", "#111317"]
    readonly property color gapHatch: "#6f6c67"

    function layerColor(layer) { return layerColorIn(layer, dark) }
    function isDark(layer: int): bool { return isDarkIn(layer, dark) }
    function layerInk(layer: int): color { return layerInkIn(layer, dark) }
    function layerMuted(layer: int): color { return layerMutedIn(layer, dark) }
    // Actions and progress on a layer's ground; never amber, which says "predicted".
    function layerAccent(layer: int): color { return layerAccentIn(layer, dark) }
    readonly property color trackOnLight: "#26000000"
    readonly property color trackOnDark: "#30ffffff"
    function layerTrack(layer: int): color { return isDark(layer) ? trackOnDark : trackOnLight }
    // The same, for either theme (the contrast test asks for both).
    function layerColorIn(layer, darkTheme) {
        return (darkTheme ? darkLayerColors : lightLayerColors)[Math.max(0, Math.min(8, layer - 1))]
    }
    function isDarkIn(layer, darkTheme) { return darkTheme || layer >= 6 }
    function layerInkIn(layer, darkTheme) { return isDarkIn(layer, darkTheme) ? inkText : ink }
    function layerAccentIn(layer, darkTheme) { return isDarkIn(layer, darkTheme) ? accent : accentDeep }
    function layerMutedIn(layer, darkTheme) {
        if (isDarkIn(layer, darkTheme)) return "#c9ccd4"
        if (layer <= 3) return "#4f4a43"
        if (layer === 4) return "#36322d"
        return "#26231f"
    }

    // --- the reading page: the ground chapters, exhibits and the stack's
    // head are set on, and what is written on it, in either theme. Pages
    // name these, never paper or ink, so the theme reaches them.
    readonly property var lightPage: ({
        "ground": paper, "ink": ink, "muted": layerMutedIn(1, false), "accent": accentDeep, "rule": tableRule,
        "code": codeGround, "mark": searchMark, "pin": "#dcdff3", "pinHot": "#c3c9f2", "predicted": predictedOnLight, "failed": failedOnLight,
        "assumed": assumedOnLight, "track": trackOnLight, "thumb": scrollThumbOnLight, "hover": lightLayerColors[2],
        "codeColors": codeColors })
    readonly property var darkPage: ({
        "ground": darkLayerColors[0], "ink": "#e8e4dc", "muted": "#a9afba", "accent": accent, "rule": "#414958",
        "code": "#2e333d", "mark": "#2c557a", "pin": "#3b3f5e", "pinHot": "#4c548f", "predicted": predicted, "failed": "#ff7b72", "assumed": assumed,
        "track": trackOnDark, "thumb": scrollThumb, "hover": "#363c48",
        "codeColors": Object.assign({}, codeColorsOnDark, { "plain": "#e8e4dc", "comment": "#9ba3b2" }) })
    readonly property var pageColors: dark ? darkPage : lightPage
    readonly property color page: pageColors.ground
    readonly property color pageInk: pageColors.ink
    readonly property color pageMuted: pageColors.muted
    readonly property color pageAccent: pageColors.accent
    readonly property color pageRule: pageColors.rule
    readonly property color pageCode: pageColors.code
    readonly property color pageMark: pageColors.mark
    // Words an exhibit's note is pinned to in prose, and while its note is
    // pointed at. In code they are outlined in the accent instead: a tint
    // dark enough to see would take the code's dimmest colours under 4.5:1.
    readonly property color pagePin: pageColors.pin
    readonly property color pagePinHot: pageColors.pinHot
    readonly property color pagePredicted: pageColors.predicted
    readonly property color pageFailed: pageColors.failed
    readonly property color pageAssumed: pageColors.assumed
    readonly property color pageTrack: pageColors.track
    readonly property color pageThumb: pageColors.thumb
    readonly property color pageHover: pageColors.hover
    readonly property var pageCodeColors: pageColors.codeColors

    // --- text on the dark floor
    readonly property color inkText: "#f3f0e9"
    readonly property color inkMuted: "#a7adb9"
    readonly property color inkFaint: "#8b93a3"

    // --- accents. Selection, actions, links and ids use the accent; amber
    // is kept for predicted values alone, so it keeps meaning "predicted".
    readonly property color accent: "#a5b4fc"
    readonly property color accentHover: "#c7d2fe"
    readonly property color accentDeep: "#312e81"     // the accent on light grounds
    readonly property color accentSoft: "#33a5b4fc"   // a selected or lit row's ground
    readonly property color focus: "#4c9bff"
    readonly property color inkHover: "#2a3140"
    readonly property color hoverOnDark: "#14ffffff"
    readonly property color scrim: "#a00a0d13"
    readonly property color problemGround: "#3a1516"
    // Edges of fields and controls: 3:1 against the card, as WCAG asks of
    // the parts of a control.
    readonly property color fieldBorder: "#636f83"
    readonly property color scrollThumb: "#8b93a3"
    readonly property color scrollThumbOnLight: "#6b655c"

    // --- provenance: the same everywhere (LOOK.md)
    readonly property color predicted: "#f0b429"
    readonly property color predictedOnLight: "#8a5b00"   // amber darkened for paper
    readonly property color failedOnLight: "#c62828"

    // --- code on paper: one palette for the reader's blocks and the IR
    // panes' light variant (codecolours.h names the kinds)
    readonly property color codeGround: "#ebe6dc"
    readonly property color searchMark: "#bfe3ff"   // words a search found, on paper
    readonly property var codeColors: ({
        "plain": ink, "keyword": "#6d28d9", "string": "#166534", "number": "#1d4ed8",
        "comment": "#5b6472", "type": "#0e6173", "value": "#9d174d", "op": "#7a3b12", "attribute": "#4a5568" })
    readonly property color tableRule: "#c9c2b6"
    // The same kinds on the dark cards of the instruments (the IR x-ray).
    readonly property var codeColorsOnDark: ({
        "plain": inkMuted, "keyword": "#c4b5fd", "string": "#86efac", "number": "#93c5fd",
        "comment": inkFaint, "type": "#5eead4", "value": "#f9a8d4", "op": "#fecaca", "attribute": "#cbd5e1" })
    readonly property color verified: "#2ec4b6"
    readonly property color measured: "#4cc76a"
    readonly property color failed: "#ef5350"
    // "assumed": a figure the simulator takes where no source publishes one
    // (a scoped VMEM default, a fitted fraction); never a measurement.
    readonly property color assumed: "#e879f9"
    readonly property color assumedOnLight: "#a21caf"
    // "published": measured on a real chip too, but by someone else and
    // printed with its source; never the learner's own run.
    function provenanceColor(kind: string): color {
        if (kind === "measured" || kind === "published") return measured
        if (kind === "verified") return verified
        if (kind === "failed") return failed
        if (kind === "assumed") return assumed
        return predicted
    }

    // --- gate states
    function gateColor(state: string): color {
        if (state === "passed") return measured
        if (state === "attempted") return failed
        return inkMuted
    }

    readonly property int scrollDuration: 220

    // --- charts (ThemedChartView and its axes): grounds, grid, series.
    // Series colours stay clear of the provenance colours, which mean something.
    readonly property color chartPlot: "#0f141c"
    readonly property color chartGrid: "#2a3342"
    readonly property color chartMinorGrid: "#19202b"
    readonly property color chartRoof: "#f3f0e9"
    readonly property var seriesColors: ["#6ea8fe", "#e685b5", "#b197fc", "#f4845f"]
    function seriesColor(i) { return seriesColors[i % seriesColors.length] }

    // --- source bands: one hue per line of source, shared by everything it
    // became in other layers (the IR x-ray). Muted, and clear of amber, which
    // marks the active op.
    readonly property var bandColors: ["#5b8def", "#c470a8", "#4fb3a9", "#9b7fe0", "#d9825b", "#7fae5a", "#5fb0d8", "#c9a03e"]
    function bandColor(i) { return bandColors[((i % bandColors.length) + bandColors.length) % bandColors.length] }
    // A profile's op families (op_table.h's Family, in order): fusion,
    // matmul, Pallas kernel, custom call, copy, host transfer, collective,
    // async start, control, GPU kernel, other. No amber: that is predicted's.
    readonly property var opFamilyColors: ["#5b8def", "#c470a8", "#4fb3a9", "#9b7fe0", "#d9825b", "#7fae5a",
                                           "#5fb0d8", "#56606f", "#b5838d", "#e07a9b", "#8d99ae"]

    // --- contrast: every text colour the pages put on a ground, and the
    // edges of controls, as [what, foreground, ground, minimum ratio]. A
    // test checks each against WCAG 2's ratio: 4.5 for text, 3 for large
    // text and for the parts of controls.
    // A function, not a property: only the test asks, so start-up does not pay.
    // Both themes' pages and bands are listed, whichever is shown.
    function contrastPairs() {
        const pairs = []
        for (const darkTheme of [false, true]) {
            const theme = darkTheme ? "dark: " : "light: "
            for (let layer = 1; layer <= 9; ++layer) {
                const ground = layerColorIn(layer, darkTheme)
                pairs.push([theme + "layer " + layer + " ink", layerInkIn(layer, darkTheme), ground, 4.5])
                pairs.push([theme + "layer " + layer + " muted", layerMutedIn(layer, darkTheme), ground, 4.5])
                pairs.push([theme + "layer " + layer + " progress", layerAccentIn(layer, darkTheme), ground, 3])
            }
            const p = darkTheme ? darkPage : lightPage
            for (const t of ["ink", "muted", "accent", "predicted", "failed", "assumed"]) {
                pairs.push([theme + t + " on the page", p[t], p.ground, 4.5])
                pairs.push([theme + t + " on a code block", p[t], p.code, 4.5])
            }
            pairs.push([theme + "ink on a search mark", p.ink, p.mark, 4.5])
            for (const ground of ["pin", "pinHot"])
                pairs.push([theme + "ink on a note's words (" + ground + ")", p.ink, p[ground], 4.5])
            for (const kind in p.codeColors)
                pairs.push([theme + "code " + kind + " on its ground", p.codeColors[kind], p.code, 4.5])
            pairs.push([theme + "a note's words outlined in code", p.accent, p.code, 3])
        }
        const darkGrounds = [["floor", floor], ["card", card], ["card hover", cardHover]]
        const darkTexts = [["ink", inkText], ["muted", inkMuted], ["faint", inkFaint], ["accent", accent],
                           ["predicted", predicted], ["verified", verified], ["measured", measured], ["failed", failed],
                           ["assumed", assumed]]
        for (const g of darkGrounds)
            for (const t of darkTexts)
                pairs.push([t[0] + " on " + g[0], t[1], g[1], 4.5])
        for (const kind in codeColorsOnDark)
            pairs.push(["code " + kind + " on a card", codeColorsOnDark[kind], card, 4.5])
        pairs.push(["text on a chosen button", ink, accent, 4.5])
        pairs.push(["text on a button", inkText, inkHover, 4.5])
        pairs.push(["text on a stage pill", inkText, ink, 4.5])
        pairs.push(["locked gate on a stage pill", gateColor("locked"), ink, 4.5])
        pairs.push(["field edge on the floor", fieldBorder, floor, 3])
        pairs.push(["field edge on a card", fieldBorder, card, 3])
        pairs.push(["focus ring on a card", focus, card, 3])
        return pairs
    }
}
