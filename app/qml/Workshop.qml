pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

// The equipment below the stack: every piece, grouped by kind, each naming its chapter.
Rectangle {
    id: root
    signal openPlace(string place)
    color: Theme.floor
    implicitHeight: column.y + column.height + Theme.gapXXL

    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)
    readonly property var kinds: [
        { kind: "instrument", title: "Instruments", what: "live, scrubbed with the mouse, driven by the simulator" },
        { kind: "drill", title: "Drills", what: "generated questions, answers checked by the simulator" },
        { kind: "exhibit", title: "Museum exhibits", what: "annotated artifacts; every figure carries its badge" },
        { kind: "lab", title: "Labs", what: "scripts you run on a TPU VM; their records come back here" }
    ]
    // Course.pieces read into JavaScript once for the whole workshop, not
    // once a call: progress made anywhere re-reads it (a goal reached while
    // scrubbing a piece), and a dozen readings of its 35 rows stopped that frame.
    readonly property var allPieces: Course.pieces
    function count(kind) { return allPieces.filter(p => p.kind === kind).length }
    // Pieces with a page first; labs live on their chapter's page.
    function ofKind(kind) {
        const all = allPieces.filter(p => p.kind === kind)
        return kind === "lab" ? all : all.filter(p => p.hasPage).concat(all.filter(p => !p.hasPage))
    }

    // Positioners with widths known as they are made, not layouts: a
    // wrapping text laid out at one width and then moved to another is
    // shaped twice, and the cards' texts are most of the workshop's cost.
    Column {
        id: column
        // Room above the heading, so a jump here does not press it to the window's edge.
        y: Theme.gapXL
        x: root.margin
        width: root.width - 2 * root.margin
        spacing: Theme.gapM

        Text {
            text: "The workshop"
            font.family: Theme.sans
            font.pixelSize: Theme.titleSize
            font.weight: Font.DemiBold
            color: Theme.inkText
        }
        Text {
            width: parent.width
            text: root.count("instrument") + " instruments · " + root.count("drill") + " drills · "
                  + root.count("exhibit") + " museum exhibits · " + root.count("lab")
                  + " labs. Every one belongs to a chapter above; press Ctrl+K to jump anywhere."
            font.family: Theme.sans
            font.pixelSize: Theme.bodySize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }

        Repeater {
            model: root.kinds
            delegate: Column {
                id: group
                required property var modelData
                width: column.width
                topPadding: Theme.gapL
                spacing: Theme.gapM
                Row {
                    spacing: Theme.gapM
                    Text {
                        id: groupTitle
                        text: group.modelData.title
                        font.family: Theme.sans; font.pixelSize: Theme.subheadingSize; font.weight: Font.DemiBold
                        color: Theme.inkText
                    }
                    MonoText {
                        anchors.baseline: groupTitle.baseline
                        text: root.count(group.modelData.kind) + " · " + group.modelData.what
                        color: Theme.inkFaint
                    }
                }
                Grid {
                    id: grid
                    width: group.width
                    columns: Math.max(1, Math.floor(width / Theme.px(300)))
                    columnSpacing: Theme.gapM
                    rowSpacing: Theme.gapM
                    readonly property real cellWidth: (width - (columns - 1) * columnSpacing) / columns
                    Repeater {
                        id: cards
                        // By count: progress made anywhere (a goal reached while
                        // scrubbing a piece) re-fills the cards in place rather than
                        // making the whole workshop again under the page on show.
                        readonly property var pieces: root.ofKind(group.modelData.kind)
                        model: pieces.length
                        // Cards of a row share their height: the tallest one's.
                        function rowHeight(index) {
                            const first = index - index % grid.columns
                            let tallest = 0
                            for (let i = first; i < Math.min(first + grid.columns, cards.count); ++i) {
                                const card = cards.itemAt(i)
                                if (card)
                                    tallest = Math.max(tallest, card.implicitHeight)
                            }
                            return tallest
                        }
                        delegate: WorkshopCard {
                            required property int index
                            width: grid.cellWidth
                            height: cards.rowHeight(index)
                            piece: cards.pieces[index] || ({})
                            onOpenPlace: place => root.openPlace(place)
                        }
                    }
                }
            }
        }
    }
}
