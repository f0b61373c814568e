pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend
import TpuCourse.Shell

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
    ReaderStyle { id: style }
    readonly property var textStyle: style.textStyle
    readonly property var exhibit: String(folder) === "" ? ({}) : Reader.exhibit(folder, textStyle)
    readonly property var parts: exhibit.parts || []
    readonly property var charts: (exhibit.charts || []).filter(c => !c.anchor)
    readonly property var problems: exhibit.problems || []
    // Every block made: the tests and the screenshots wait for it.
    property int readyBlocks: 0
    // The note the pointer is on (its index among the notes), whose words
    // are then marked more strongly in the artifact; -1 for none.
    property int pointedNote: -1
    readonly property bool isBusy: readyBlocks < (exhibit.count || 0)

    // The shell's window (Main.qml), read untyped: its navigate() is its own.
    readonly property var shell: root.Window.window
    function open(place) {
        const w = root.shell
        if (w && typeof w.navigate === "function")
            w.navigate(place)
    }

    // Prose at the reader's measure, about 68 characters a line.
    readonly property real measure: ProseMeasure.readerWidth

    ScrollPage {
        id: scroller
        objectName: "exhibitScroller"
        anchors.fill: parent
        lightGround: !Theme.dark
        contentHeight: sheet.height
        focus: true

        Rectangle {
            id: sheet
            readonly property real pad: Theme.gapL
            width: scroller.availableWidth
            height: body.implicitHeight + 2 * pad
            color: Theme.page
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
                    color: Theme.pageInk
                }
                Flow {
                    Layout.fillWidth: true
                    spacing: Theme.gapM
                    Row {
                        spacing: Theme.gapM
                        MonoText { anchors.verticalCenter: parent.verticalCenter; text: "numbers for"; color: Theme.pageMuted }
                        ChipSwitcher { }
                    }
                    Text {
                        width: Math.min(implicitWidth, body.width)
                        height: Theme.gapXL
                        verticalAlignment: Text.AlignVCenter
                        textFormat: Text.RichText
                        wrapMode: Text.WordWrap
                        text: "<span style='color:" + Theme.pagePredicted + "'>amber</span>: predicted by the simulator for this chip"
                              + " · <b>ink</b>: a published figure, with its source · point at a figure to see which"
                        font.family: Theme.sans; font.pixelSize: Theme.smallSize
                        color: Theme.pageMuted
                    }
                }
                Text {
                    Layout.fillWidth: true
                    visible: root.problems.length > 0
                    text: "This exhibit has problems: " + root.problems.join("; ")
                    wrapMode: Text.WordWrap
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize
                    color: Theme.pageFailed
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
                        // Qt.callLater is a method; qmllint 6.4 reads it as a property.
                        onWidthChanged: { tooWide = false; Qt.callLater(measure) } // qmllint disable type
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
                                    // The block's item, read untyped: only some kinds have a natural width.
                                    readonly property var made: block.item
                                    readonly property bool tooWide: made !== null && made.naturalWidth !== undefined
                                                                    && made.naturalWidth > part.narrow + 1
                                    // Qt.callLater is a method; qmllint 6.4 reads it as a property.
                                    onTooWideChanged: if (tooWide) Qt.callLater(part.measure) // qmllint disable type
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
                                        pins: part.notes.filter(n => n.mark !== "" && n.markedBlock === block.index)
                                                        .map(n => ({ text: n.mark, hot: n.index === root.pointedNote }))
                                        onFirstLoaded: root.readyBlocks += 1
                                    }
                                }
                            }
                            Repeater {
                                model: (root.exhibit.charts || []).filter(c => c.kind === "kernels" && c.anchor === part.modelData.anchor)
                                delegate: ExhibitKernels {
                                    width: blocks.width
                                    folder: root.folder
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
                                    onPointedChanged: {
                                        if (pointed)
                                            root.pointedNote = modelData.index
                                        else if (root.pointedNote === modelData.index)
                                            root.pointedNote = -1
                                    }
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
                            readonly property var piece: Course.piece(modelData)
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
}
