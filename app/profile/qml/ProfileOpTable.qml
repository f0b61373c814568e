pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Profile

// Every op of the device: filter by words or program, sort by a column,
// pick a row for its story.
Rectangle {
    id: root
    property var programs: []
    property int selectedRow: -1
    signal picked(int row)
    readonly property var model: Profile.ops
    // Columns: key (for sorting, "" when not sortable), title, share of the
    // width left after the name column, right-aligned.
    readonly property var columns: [
        { key: "kind", title: "kind", share: 1.5, right: false },
        { key: "", title: "program", share: 1.7, right: false },
        { key: "count", title: "count", share: 0.5, right: true },
        { key: "perCall", title: "self / run", share: 0.85, right: true },
        { key: "time", title: "self total", share: 0.85, right: true },
        { key: "", title: "share", share: 0.55, right: true },
        { key: "", title: "FLOP/s", share: 1.1, right: true },
        { key: "", title: "B/s", share: 0.9, right: true },
        { key: "", title: "predicted", share: 0.85, right: true },
        { key: "error", title: "error", share: 0.7, right: true }
    ]
    readonly property real rowHeight: Theme.px(30)
    readonly property int rowsShown: Math.min(Math.max(model.count, 1), 16)
    implicitHeight: body.implicitHeight + 2 * Theme.gapL
    radius: Theme.radius
    color: Theme.card
    border.color: Theme.cardBorder

    ColumnLayout {
        id: body
        x: Theme.gapL
        y: Theme.gapL
        width: root.width - 2 * Theme.gapL
        spacing: Theme.gapM
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gapM
            Text {
                text: "Every op"
                font.family: Theme.sans; font.pixelSize: Theme.subheadingSize; font.weight: Font.DemiBold
                color: Theme.inkText
            }
            MonoText {
                text: root.model.count === root.model.total ? root.model.total + " ops" : root.model.count + " of " + root.model.total + " ops"
                color: Theme.inkMuted
                font.pixelSize: Theme.tinySize
            }
            Item { Layout.fillWidth: true }
            ThemedField {
                objectName: "profileFilter"
                Layout.preferredWidth: Theme.px(280)
                placeholderText: "filter: fusion, copy, jit_f, dot_general…"
                onTextChanged: root.model.filter = text
            }
        }
        ChoiceRow {
            Layout.fillWidth: true
            visible: root.programs.length > 1
            namePrefix: "profileProgram_"
            options: [{ id: "", label: "all programs" }, ...root.programs.map(p => ({ id: p, label: p }))]
            current: root.model.program
            onChosen: id => root.model.program = id
        }
        ProfileOpRow {
            Layout.fillWidth: true
            header: true
            columns: root.columns
            sortKey: root.model.sortKey
            onSortBy: key => root.model.sortKey = key
        }
        ListView {
            id: list
            objectName: "profileOpList"
            Layout.fillWidth: true
            Layout.preferredHeight: root.rowsShown * root.rowHeight
            clip: true
            model: root.model
            // No current item, so no highlight: ListView would otherwise make one
            // and grow it towards the current line's width at 400 px/s, a frame
            // every 16 ms for as long as that takes (minutes for a wide dump).
            currentIndex: -1
            highlightFollowsCurrentItem: false
            boundsBehavior: Flickable.StopAtBounds
            interactive: count > root.rowsShown
            delegate: ProfileOpRow {
                required property int index
                required property var model
                width: list.width
                height: root.rowHeight
                columns: root.columns
                row: model
                selected: model.tableRow === root.selectedRow
                onClicked: root.picked(model.tableRow)
            }
        }
        Text {
            Layout.fillWidth: true
            text: "Self time leaves out the ops nested inside an op. Error is predicted ÷ measured − 1: below zero, the simulator expects less time than the device took. Errors are left out where both times are under a microsecond. Predicted is each op as the validation page prices published runs: its units' times at the chip's peaks taken at the fractions of those peaks real runs reach, plus the least time of an op (and of a collective), all fitted on published timings, the ops of the course's sample v6e profile among them; an op's card gives its time at the peaks too."
            font.family: Theme.sans; font.pixelSize: Theme.tinySize; lineHeight: 1.2
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
    }
}
