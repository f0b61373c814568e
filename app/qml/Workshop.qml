pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend

// The equipment below the stack: every piece, grouped by kind, each naming its chapter.
Rectangle {
    id: root
    signal openPlace(string place)
    color: Theme.floor
    implicitHeight: column.y + column.implicitHeight + Theme.gapXXL

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

    ColumnLayout {
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
            Layout.fillWidth: true
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
            delegate: ColumnLayout {
                id: group
                required property var modelData
                Layout.fillWidth: true
                Layout.topMargin: Theme.gapL
                spacing: Theme.gapM
                Row {
                    spacing: Theme.gapM
                    Text {
                        text: group.modelData.title
                        font.family: Theme.sans; font.pixelSize: Theme.subheadingSize; font.weight: Font.DemiBold
                        color: Theme.inkText
                    }
                    MonoText {
                        anchors.baseline: parent.children[0].baseline
                        text: root.count(group.modelData.kind) + " · " + group.modelData.what
                        color: Theme.inkFaint
                    }
                }
                GridLayout {
                    Layout.fillWidth: true
                    columns: Math.max(1, Math.floor((root.width - 2 * root.margin) / Theme.px(300)))
                    columnSpacing: Theme.gapM
                    rowSpacing: Theme.gapM
                    Repeater {
                        id: cards
                        // By count: progress made anywhere (a goal reached while
                        // scrubbing a piece) re-fills the cards in place rather than
                        // making the whole workshop again under the page on show.
                        readonly property var pieces: root.ofKind(group.modelData.kind)
                        model: pieces.length
                        // Cards of a row share their top edge and their height.
                        delegate: WorkshopCard {
                            required property int index
                            Layout.fillWidth: true
                            Layout.fillHeight: true
                            Layout.alignment: Qt.AlignTop
                            Layout.preferredWidth: Theme.px(300)
                            piece: cards.pieces[index] || ({})
                            onOpenPlace: place => root.openPlace(place)
                        }
                    }
                }
            }
        }
    }
}
