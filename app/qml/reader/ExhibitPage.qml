import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// A museum exhibit (chapters/api/include/chapters/exhibit.h): a real artifact
// drawn block by block as the reader draws a chapter, the notes pinned to
// each part in the margin beside it (below it when the window is narrow),
// its small charts with one bar per chip, and every figure badged: amber for
// the simulator's prediction on the course's chip, ink for a published
// figure; pointing at one says what it is and where it comes from. A
// chapter's piece is this page given its folder:
//     ExhibitPage { folder: Qt.resolvedUrl("../exhibits/M1/") }
FocusScope {
    id: root
    // Shows its own chip choice: the piece page's title bar leaves its out.
    readonly property bool choosesChip: true
    property url folder
    readonly property var textStyle: ({
        "font": Theme.sans, "mono": Theme.mono, "predicted": Theme.predictedOnLight, "fact": Theme.ink,
        "problem": Theme.failedOnLight, "input": Theme.accentDeep, "codeInk": Theme.ink, "code": Theme.codeColors })
    readonly property var exhibit: folder.toString() === "" ? ({}) : Course.exhibit(folder, textStyle)
    readonly property var parts: exhibit.parts || []
    readonly property var charts: (exhibit.charts || []).filter(c => !c.anchor)
    readonly property var problems: exhibit.problems || []
    // Every block made: the tests and the screenshots wait for it.
    property int readyBlocks: 0
    readonly property bool isBusy: readyBlocks < (exhibit.count || 0)

    function open(place) {
        const w = root.Window.window
        if (w && typeof w.navigate === "function")
            w.navigate(place)
    }

    // Prose at the reader's measure, about 68 characters a line.
    TextMetrics {
        id: sample
        font.family: Theme.sans
        font.pixelSize: Theme.readerSize
        text: "The matrix units do hundreds of multiply-adds for every byte that HBM delivers to them."
    }
    readonly property real measure: Math.round(Theme.readerMeasure * sample.advanceWidth / sample.text.length)

    ScrollPage {
        id: scroller
        objectName: "exhibitScroller"
        anchors.fill: parent
        onLight: true
        contentHeight: sheet.height
        focus: true

        Rectangle {
            id: sheet
            readonly property real pad: Theme.gapL
            width: scroller.availableWidth
            height: body.implicitHeight + 2 * pad
            color: Theme.paper
            radius: Theme.radius

            ColumnLayout {
                id: body
                x: sheet.pad; y: sheet.pad
                width: sheet.width - 2 * sheet.pad
                spacing: Theme.gapL
                // The notes go beside the artifact when both fit.
                readonly property real noteWidth: Math.round(Theme.marginWidth * 1.35)
                readonly property bool beside: width >= Theme.px(560) + noteWidth + Theme.gapL

                Text {
                    Layout.fillWidth: true
                    Layout.maximumWidth: root.measure
                    visible: text !== ""
                    text: root.exhibit.lead || ""
                    wrapMode: Text.WordWrap
                    font.family: Theme.sans; font.pixelSize: Theme.readerSize
                    lineHeight: Theme.readerLeading
                    color: Theme.ink
                }
                Flow {
                    Layout.fillWidth: true
                    spacing: Theme.gapM
                    Row {
                        spacing: Theme.gapM
                        MonoText { anchors.verticalCenter: parent.verticalCenter; text: "numbers for"; color: Theme.layerMuted(1) }
                        ChipSwitcher { }
                    }
                    Text {
                        width: Math.min(implicitWidth, body.width)
                        height: Theme.gapXL
                        verticalAlignment: Text.AlignVCenter
                        textFormat: Text.RichText
                        wrapMode: Text.WordWrap
                        text: "<span style='color:" + Theme.predictedOnLight + "'>amber</span>: predicted by the simulator for this chip"
                              + " · <b>ink</b>: a published figure, with its source · point at a figure to see which"
                        font.family: Theme.sans; font.pixelSize: Theme.smallSize
                        color: Theme.layerMuted(1)
                    }
                }
                Text {
                    Layout.fillWidth: true
                    visible: root.problems.length > 0
                    text: "This exhibit has problems: " + root.problems.join("; ")
                    wrapMode: Text.WordWrap
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize
                    color: Theme.failedOnLight
                }

                // The ratios, one small chart each, a bar per chip.
                Flow {
                    id: chartFlow
                    Layout.fillWidth: true
                    visible: root.charts.length > 0
                    spacing: Theme.gapM
                    readonly property int perRow: Math.max(1, Math.floor((width + spacing) / (Theme.px(250) + spacing)))
                    Repeater {
                        model: root.charts
                        delegate: ExhibitChart {
                            width: Math.floor((chartFlow.width - (chartFlow.perRow - 1) * chartFlow.spacing) / chartFlow.perRow)
                            card: valueCard
                        }
                    }
                }

                Repeater {
                    model: root.parts
                    delegate: Item {
                        id: part
                        required property var modelData
                        readonly property var notes: modelData.notes || []
                        // Beside the artifact's part when it fits in what the notes leave;
                        // a wide table or code block puts its notes below it instead.
                        readonly property real narrow: width - body.noteWidth - Theme.gapXL
                        // Set, not bound: a table's width follows the room it is given,
                        // and the room follows this. Measured again when the page resizes.
                        property bool tooWide: false
                        function measure() {
                            for (let i = 0; i < blockRepeater.count; ++i) {
                                const b = blockRepeater.itemAt(i)
                                if (b && b.tooWide) tooWide = true
                            }
                        }
                        onWidthChanged: { tooWide = false; Qt.callLater(measure) }
                        readonly property bool side: body.beside && notes.length > 0 && !tooWide
                        Layout.fillWidth: true
                        implicitHeight: side ? Math.max(blocks.height, notesColumn.height)
                                             : blocks.height + (notes.length ? Theme.gapM + notesColumn.height : 0)
                        Column {
                            id: blocks
                            // Beside notes, no wider than a figure needs, so the notes sit near it.
                            width: part.side ? Math.min(part.narrow, Math.round(Math.max(root.measure, Theme.readingWidth) * 1.25)) : part.width
                            spacing: Theme.gapM
                            Repeater {
                                id: blockRepeater
                                model: part.modelData.last - part.modelData.first
                                delegate: Item {
                                    required property int index
                                    readonly property bool tooWide: block.item !== null && block.item.naturalWidth !== undefined
                                                                    && block.item.naturalWidth > part.narrow + 1
                                    onTooWideChanged: if (tooWide) Qt.callLater(part.measure)
                                    width: blocks.width
                                    height: block.height
                                    ReaderBlock {
                                        id: block
                                        index: part.modelData.first + parent.index
                                        chapter: root.exhibit.key || 0
                                        measure: Math.min(blocks.width, root.measure)
                                        wide: blocks.width
                                        full: blocks.width
                                        settled: true
                                        card: valueCard
                                        onFirstLoaded: root.readyBlocks += 1
                                    }
                                }
                            }
                            Repeater {
                                model: (root.exhibit.charts || []).filter(c => c.kind === "kernels" && c.anchor === part.modelData.anchor)
                                delegate: ExhibitKernels {
                                    width: blocks.width
                                    card: valueCard
                                }
                            }
                            Repeater {
                                model: (root.exhibit.charts || []).filter(c => c.kind === "timeline" && c.anchor === part.modelData.anchor)
                                delegate: ExhibitTimeline {
                                    width: Math.min(blocks.width, Theme.figureWidth)
                                    card: valueCard
                                }
                            }
                        }
                        Column {
                            id: notesColumn
                            x: part.side ? blocks.width + Theme.gapXL : 0
                            y: part.side ? (part.modelData.anchor !== "" ? Theme.gapL : 0) : blocks.height + Theme.gapM
                            width: part.side ? body.noteWidth : Math.min(part.width, root.measure)
                            spacing: Theme.gapM
                            Repeater {
                                model: part.notes
                                delegate: ExhibitNote {
                                    width: notesColumn.width
                                    notesKey: root.exhibit.notesKey || 0
                                    card: valueCard
                                }
                            }
                        }
                    }
                }

                // Where the exhibit leads: the instruments it is linked to.
                Flow {
                    Layout.fillWidth: true
                    visible: (root.exhibit.links || []).length > 0
                    spacing: Theme.gapM
                    Repeater {
                        model: root.exhibit.links || []
                        delegate: PlainButton {
                            required property string modelData
                            readonly property var piece: Course.pieces.find(p => p.id === modelData) || ({})
                            objectName: "exhibitLink_" + modelData
                            text: (piece.displayId || modelData) + " " + (piece.name || "") + " ↗"
                            mono: true
                            fillColor: Theme.ink; hoverColor: Theme.inkHover; textColor: Theme.accent
                            onClicked: root.open(modelData)
                        }
                    }
                }
            }
        }
    }

    // The one card that says what a figure is.
    ExplainCard { id: valueCard; objectName: "exhibitValueCard" }
    Connections {
        target: Course
        function onChipChanged() { valueCard.shown = false }
    }

    // One note in the margin: the words it marks in its part, then the note.
    component ExhibitNote: Item {
        id: note
        required property var modelData
        property int notesKey: 0
        property var card: null
        readonly property var block: Course.documentBlock(notesKey, modelData.index, Course.chip, ({}))
        implicitHeight: noteColumn.height
        height: implicitHeight
        Rectangle { width: Theme.px(3); height: parent.height; color: Theme.accentDeep }
        Column {
            id: noteColumn
            x: Theme.gapM
            width: parent.width - x
            spacing: Theme.gap / 2
            Text {
                width: parent.width
                visible: note.modelData.mark !== ""
                text: note.modelData.mark
                wrapMode: Text.WrapAnywhere
                font.family: Theme.mono; font.pixelSize: Theme.tinySize
                color: Theme.accentDeep
            }
            ReaderText {
                objectName: "exhibitNote"
                width: parent.width
                pixelSize: Theme.smallSize
                text: (note.block.html || [""])[0]
                details: note.block.details || []
                card: note.card
            }
        }
    }

    // A figure on every chip of the simulator's table, as bars; the
    // course's chip in bold; a figure no source publishes says so.
    component ExhibitChart: Rectangle {
        id: chart
        required property var modelData
        property var card: null
        readonly property var values: Sim.chips.map(c => ({ chip: c.id, v: Course.liveFigure(modelData.figure, c.id) }))
        readonly property real peak: Math.max(...values.map(x => isFinite(x.v.number) ? x.v.number : 0), 1e-30)
        implicitHeight: chartColumn.implicitHeight + 2 * Theme.gapM
        radius: Theme.radius
        color: Theme.codeGround
        Column {
            id: chartColumn
            x: Theme.gapM; y: Theme.gapM
            width: parent.width - 2 * Theme.gapM
            spacing: Theme.gap / 2
            Text {
                width: parent.width
                text: chart.modelData.title
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
                color: Theme.ink
            }
            Repeater {
                model: chart.values
                delegate: Item {
                    id: bar
                    required property var modelData
                    readonly property bool mine: modelData.chip === Course.chip
                    readonly property bool known: isFinite(modelData.v.number)
                    // The simulator's own choice where no source gives the figure.
                    readonly property bool assumed: (modelData.v.details || "").startsWith("assumption")
                    width: chartColumn.width
                    height: Theme.gapL
                    Text {
                        id: chipName
                        width: Theme.px(40)
                        anchors.verticalCenter: parent.verticalCenter
                        text: bar.modelData.chip
                        font.family: Theme.mono; font.pixelSize: Theme.tinySize; font.bold: bar.mine
                        color: Theme.ink
                    }
                    Rectangle {
                        id: fill
                        x: chipName.width + Theme.gap
                        anchors.verticalCenter: parent.verticalCenter
                        height: Theme.px(8)
                        readonly property real room: bar.width - x - valueText.width - Theme.gap
                        width: bar.known ? Math.max(2, room * bar.modelData.v.number / chart.peak) : 0
                        color: bar.modelData.v.isFact ? Theme.ink : Theme.predictedOnLight
                        opacity: bar.mine ? 1 : 0.55
                    }
                    Text {
                        id: valueText
                        x: fill.x + fill.width + Theme.gap
                        anchors.verticalCenter: parent.verticalCenter
                        text: bar.modelData.v.text + (bar.assumed ? " · assumed" : "")
                        font.family: Theme.mono; font.pixelSize: Theme.tinySize; font.bold: bar.mine
                        color: !bar.known ? Theme.layerMuted(1) : bar.modelData.v.isFact ? Theme.ink : Theme.predictedOnLight
                    }
                    HoverHandler {
                        id: hover
                        onHoveredChanged: {
                            if (!chart.card) return
                            if (hovered) {
                                chart.card.target = bar
                                chart.card.heading = ""
                                chart.card.text = bar.modelData.v.details || bar.modelData.v.problem || ""
                                chart.card.targetRect = Qt.rect(0, 0, bar.width, bar.height)
                                chart.card.shown = true
                            } else if (chart.card.target === bar) {
                                chart.card.shown = false
                            }
                        }
                    }
                }
            }
            Text {
                width: parent.width
                visible: text !== ""
                text: chart.modelData.note
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.tinySize
                color: Theme.layerMuted(1)
            }
        }
    }

    // An HLO dump's kernels costed on the course's chip, one row each, in
    // program order; the ones under a microsecond counted in one line.
    component ExhibitKernels: Rectangle {
        id: kernels
        required property var modelData
        property var card: null
        readonly property var cost: Course.hloKernels(root.folder, modelData.figure, Course.chip)
        readonly property var rows: (cost.kernels || []).filter(k => k.seconds >= 1e-6)
        readonly property int small: (cost.kernels || []).length - rows.length
        readonly property var columns: [
            { key: "line", title: "line", width: 48, right: true },
            { key: "name", title: "kernel", width: 190, right: false },
            { key: "kind", title: "kind", width: 150, right: false },
            { key: "engine", title: "unit", width: 48, right: false },
            { key: "flops", title: "FLOPs", width: 110, right: true },
            { key: "read", title: "reads", width: 96, right: true },
            { key: "written", title: "writes", width: 96, right: true },
            { key: "time", title: "time", width: 86, right: true },
            { key: "bound", title: "bound", width: 80, right: false }]
        readonly property real natural: columns.reduce((a, c) => a + Theme.px(c.width), 0)
        readonly property real scale: Math.min(1, (width - 2 * Theme.gapM) / natural)
        implicitHeight: kernelColumn.implicitHeight + 2 * Theme.gapM
        radius: Theme.radius
        color: Theme.codeGround
        border.color: Theme.tableRule
        Column {
            id: kernelColumn
            x: Theme.gapM; y: Theme.gapM
            width: parent.width - 2 * Theme.gapM
            spacing: Theme.gap / 2
            Text {
                width: parent.width
                text: kernels.modelData.title + " · predicted on " + Course.chip + (kernels.cost.time ? " · " + kernels.cost.time + " in all" : "")
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
                color: Theme.ink
            }
            Text {
                width: parent.width
                visible: !!kernels.cost.problem
                text: kernels.cost.problem || ""
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: Theme.failedOnLight
            }
            Repeater {
                model: [null].concat(kernels.rows)
                delegate: Row {
                    id: kernelRow
                    required property var modelData
                    required property int index
                    readonly property bool header: index === 0
                    Repeater {
                        model: kernels.columns
                        delegate: Text {
                            required property var modelData
                            width: Theme.px(modelData.width) * kernels.scale
                            horizontalAlignment: modelData.right ? Text.AlignRight : Text.AlignLeft
                            rightPadding: modelData.right ? Theme.gap : 0
                            leftPadding: modelData.right ? 0 : Theme.gap / 2
                            elide: modelData.right ? Text.ElideLeft : Text.ElideRight
                            text: kernelRow.header ? modelData.title : String(kernelRow.modelData[modelData.key])
                            font.family: kernelRow.header ? Theme.sans : Theme.mono
                            font.pixelSize: Theme.tinySize
                            font.weight: kernelRow.header ? Font.DemiBold : Font.Normal
                            color: !kernelRow.header && (modelData.key === "time" || modelData.key === "bound") ? Theme.predictedOnLight : Theme.ink
                        }
                    }
                    HoverHandler {
                        enabled: !kernelRow.header
                        onHoveredChanged: {
                            if (!kernels.card) return
                            if (hovered) {
                                kernels.card.target = kernelRow
                                kernels.card.heading = ""
                                kernels.card.text = kernels.cost.details || ""
                                kernels.card.targetRect = Qt.rect(0, 0, kernelRow.width, kernelRow.height)
                                kernels.card.shown = true
                            } else if (kernels.card.target === kernelRow) {
                                kernels.card.shown = false
                            }
                        }
                    }
                }
            }
            Text {
                width: parent.width
                visible: kernels.small > 0
                text: "and " + kernels.small + " scalar kernels of under a microsecond each (index arithmetic, the loop counter)"
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.tinySize
                color: Theme.layerMuted(1)
            }
            Text {
                width: parent.width
                visible: text !== ""
                text: kernels.modelData.note
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.tinySize
                color: Theme.layerMuted(1)
            }
        }
    }

    // A collective matmul's two schedules on the course's chip, to one time
    // scale: the gather and then the whole matmul; and the chunked form, the
    // MXU's steps above the link's transfers, the part of a transfer that
    // outlasts its step's matmul marked exposed.
    component ExhibitTimeline: Rectangle {
        id: timeline
        required property var modelData
        property var card: null
        readonly property string base: modelData.figure.replace(/:.*$/, ": ")
        function fig(field) { return Course.liveFigure(base + field, Course.chip) }
        readonly property var tc: fig("step_compute")
        readonly property var tx: fig("step_transfer")
        readonly property var total: fig("time")
        readonly property var computeOnly: fig("compute_only")
        readonly property var gatherFirst: fig("gather_then_matmul")
        readonly property var exposed: fig("exposed")
        readonly property int devices: { const m = /devices=(\d+)/.exec(modelData.figure); return m ? parseInt(m[1]) : 4 }
        readonly property real span: Math.max(gatherFirst.number || 0, total.number || 0, 1e-12)
        readonly property real step: Math.max(tc.number || 0, tx.number || 0)
        readonly property real labelWidth: Theme.px(150)
        readonly property real track: width - 2 * Theme.gapM - labelWidth - Theme.gap
        function px(t) { return track * t / span }
        implicitHeight: timelineColumn.implicitHeight + 2 * Theme.gapM
        radius: Theme.radius
        color: Theme.codeGround
        border.color: Theme.tableRule

        Column {
            id: timelineColumn
            x: Theme.gapM; y: Theme.gapM
            width: parent.width - 2 * Theme.gapM
            spacing: Theme.gap / 2
            Text {
                width: parent.width
                text: timeline.modelData.title + " · predicted on " + Course.chip
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
                color: Theme.ink
            }
            Lane {
                line: timeline
                label: "gather, then multiply"
                Span {
                    line: timeline
                    from: 0; length: (timeline.gatherFirst.number || 0) - (timeline.computeOnly.number || 0)
                    color: Theme.accentDeep; label: "all-gather"; value: timeline.gatherFirst
                }
                Span {
                    line: timeline
                    from: (timeline.gatherFirst.number || 0) - (timeline.computeOnly.number || 0); length: timeline.computeOnly.number || 0
                    color: Theme.ink; label: "matmul"; value: timeline.computeOnly
                }
            }
            Lane {
                line: timeline
                label: "chunked: the MXU"
                Repeater {
                    model: timeline.devices
                    delegate: Span {
                        required property int index
                        line: timeline
                        from: index * timeline.step; length: timeline.tc.number || 0
                        color: Theme.ink; label: "chunk " + index; value: timeline.tc
                    }
                }
            }
            Lane {
                line: timeline
                label: "chunked: the link"
                Repeater {
                    model: timeline.devices - 1
                    delegate: Span {
                        required property int index
                        line: timeline
                        from: index * timeline.step; length: timeline.tx.number || 0
                        color: Theme.accentDeep; label: "→ " + (index + 1); value: timeline.tx
                    }
                }
                Repeater {
                    model: (timeline.tx.number || 0) > (timeline.tc.number || 0) ? timeline.devices - 1 : 0
                    delegate: Span {
                        required property int index
                        line: timeline
                        from: index * timeline.step + (timeline.tc.number || 0); length: (timeline.tx.number || 0) - (timeline.tc.number || 0)
                        color: Theme.failedOnLight; label: "exposed"; value: timeline.exposed
                    }
                }
            }
            Text {
                width: parent.width
                textFormat: Text.RichText
                wrapMode: Text.WordWrap
                readonly property string amber: "<span style='color:" + Theme.predictedOnLight + "'><b>"
                text: "gather, then multiply " + amber + timeline.gatherFirst.text + "</b></span> · chunked " + amber + timeline.total.text
                      + "</b></span> against " + amber + timeline.computeOnly.text + "</b></span> of compute alone · each step's matmul "
                      + amber + timeline.tc.text + "</b></span>, its transfer " + amber + timeline.tx.text + "</b></span>"
                font.family: Theme.sans; font.pixelSize: Theme.tinySize
                color: Theme.ink
            }
            Text {
                width: parent.width
                visible: text !== ""
                text: timeline.modelData.note
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.tinySize
                color: Theme.layerMuted(1)
            }
        }
    }

    // A row of the timeline: its label, then its spans on the time scale.
    component Lane: Item {
        id: lane
        property Item line: null
        property string label: ""
        default property alias bars: track.data
        width: parent ? parent.width : 0
        height: Theme.gapL + Theme.gap
        Text {
            width: lane.line ? lane.line.labelWidth : 0
            anchors.verticalCenter: parent.verticalCenter
            text: lane.label
            elide: Text.ElideRight
            font.family: Theme.sans; font.pixelSize: Theme.tinySize
            color: Theme.ink
        }
        Item { id: track; x: (lane.line ? lane.line.labelWidth : 0) + Theme.gap; width: lane.line ? lane.line.track : 0; height: parent.height }
    }
    // One span of a lane: a step's matmul, a transfer, the exposed rest.
    component Span: Rectangle {
        id: span
        property Item line: null
        property real from: 0
        property real length: 0
        property string label: ""
        property var value: ({})
        x: span.line ? span.line.px(from) : 0; y: Theme.px(3)
        width: span.line ? Math.max(1, span.line.px(length) - 1) : 0; height: parent.height - Theme.px(6)
        radius: 2
        Text {
            anchors.centerIn: parent
            width: parent.width - Theme.gap
            horizontalAlignment: Text.AlignHCenter
            visible: width > Theme.px(40)
            text: span.label
            elide: Text.ElideRight
            font.family: Theme.mono; font.pixelSize: Theme.tinySize
            color: Theme.paper
        }
        HoverHandler {
            onHoveredChanged: {
                const card = span.line ? span.line.card : null
                if (!card) return
                if (hovered) {
                    card.target = span
                    card.heading = ""
                    card.text = span.value.details || ""
                    card.targetRect = Qt.rect(0, 0, span.width, span.height)
                    card.shown = true
                } else if (card.target === span) {
                    card.shown = false
                }
            }
        }
    }
}
