import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·11 the mesh, hop by hop: a collective on a slice of chips, cut into
// chunks that cross the ICI links one hop at a time. libtpusim runs it
// (MeshModel) and prices it twice: the closed form and the simulation.
FocusScope {
    id: root
    // Shows its own chip choice: the piece page's title bar leaves its out.
    readonly property bool choosesChip: true
    // Working out its figures off the GUI thread: the page waits for it.
    readonly property bool busy: mesh.busy
    property real time: 0
    // The mastery item: a collective run over a wrapped and an unwrapped
    // axis, goal by goal as the store holds them. Only runs the learner
    // asked for count, not the one the piece opens with.
    Mastery { id: mastery; piece: "EX11" }
    readonly property var goals: mastery.goals
    property bool learnerRan: false
    readonly property var result: mesh.result
    readonly property var view: mesh.view     // a map from C++, read untyped

    // The course's one chip, wherever it was chosen; a slice with more axes
    // than the chip's torus has, or longer ones than its pod, is cut down to
    // fit it first.
    readonly property string courseChip: Course.chip
    onCourseChipChanged: fitChip(courseChip)
    Component.onCompleted: fitChip(courseChip)
    function fitChip(id) {
        const k = mesh.maxAxes(id)
        const s = Array.from(mesh.shape).slice(0, k)
        for (let i = 0; i < s.length; ++i)
            s[i] = Math.min(s[i], mesh.largestAxis(id, s, i))
        if (String(s) !== String(mesh.shape)) mesh.shape = s
        if (mesh.axis >= mesh.shape.length) mesh.axis = 0
        mesh.chip = id
    }

    MeshModel {
        id: mesh
        objectName: "ex11Model"
        // A third of the way in, chunks are on the wire wherever the cursor starts.
        onViewChanged: root.time = (Object(mesh.view).endS || 0) / 3    // the map read untyped, as it changes
        onResultChanged: {
            const info = (mesh.result.axes || [])[mesh.axis] || ({})
            if (!root.learnerRan || info.wraps === undefined)
                return
            mastery.reach(info.wraps ? "wrapped" : "unwrapped")
        }
    }

    ScrollPage {
        id: scroller
        anchors.fill: parent
        focus: true
        contentHeight: page.implicitHeight

        ColumnLayout {
            id: page
            width: scroller.availableWidth
            spacing: Theme.gapM

            Text {
                Layout.fillWidth: true
                text: "Each chip holds a shard; a collective cuts it into chunks that cross the ICI links one hop at a time. Links are coloured by the bytes they carried; the time cursor shows the chunks on the wire."
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                lineHeight: 1.25
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }
            SliceControls {
                Layout.fillWidth: true
                chip: mesh.chip
                shape: mesh.shape
                maxAxes: mesh.maxAxes(mesh.chip)
                axisLimits: Array.from(mesh.shape).map((n, i) => mesh.largestAxis(mesh.chip, mesh.shape, i))
                plane: root.view.plane || 0
                planes: root.view.planes || 1
                onChipChosen: id => { root.learnerRan = true; Course.chip = id }
                onShapeEdited: s => {
                    root.learnerRan = true
                    if (mesh.axis >= s.length) mesh.axis = s.length - 1
                    mesh.shape = s
                }
                onPlaneEdited: p => mesh.plane = p
            }
            CollectiveControls {
                Layout.fillWidth: true
                kind: mesh.kind
                bytes: mesh.bytes
                bidirectional: mesh.bidirectional
                axis: mesh.axis
                shape: mesh.shape
                bytesText: root.result.bytesText || ""
                onKindChosen: k => { root.learnerRan = true; mesh.kind = k }
                onBytesEdited: b => { root.learnerRan = true; mesh.bytes = b }
                onBidirectionalChosen: on => { root.learnerRan = true; mesh.bidirectional = on }
                onAxisChosen: a => { root.learnerRan = true; mesh.axis = a }
            }
            WrapStatement {
                Layout.fillWidth: true
                result: root.result
                axis: mesh.axis
            }
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gapL
                ColumnLayout {
                    Layout.preferredWidth: page.width * 0.55
                    Layout.maximumWidth: page.width * 0.55
                    Layout.alignment: Qt.AlignTop
                    spacing: Theme.gap
                    MeshView {
                        objectName: "ex11Mesh"
                        Layout.fillWidth: true
                        Layout.preferredHeight: Theme.px(360)
                        model: mesh
                        time: root.time
                        opacity: mesh.busy ? 0.4 : 1
                        chipColor: Theme.card
                        chipEdgeColor: Theme.inkFaint
                        idleColor: Theme.cardBorder
                        loadColor: Theme.accent
                        chunkColor: Theme.seriesColors[0]
                        margin: Theme.gapL
                        Accessible.role: Accessible.Graphic
                        Accessible.name: "the slice's chips and links, links coloured by the bytes they carried, chunks in flight as dots"
                    }
                    Caption {
                        Layout.fillWidth: true
                        wrapMode: Text.WordWrap
                        color: Theme.inkFaint
                        text: (mesh.shape.length === 1 ? "axis 0 runs left to right"
                               : "rows are axis 0, columns axis 1" + (mesh.shape.length === 3 ? "; plane " + (root.view.plane || 0) + " of axis 2 (its links leave the page)" : ""))
                              + " · each link drawn once per direction · a link's colour is the bytes it carried, brightest = busiest · dots = chunks in flight"
                              + (root.view.repeatHops ? " (one line simulated, its chunks drawn on every " + (root.view.repeatHops === "rows" ? "row" : "column") + ")" : "")
                    }
                    TimeScrub {
                        Layout.fillWidth: true
                        end: root.view.endS || 0
                        time: root.time
                        onMoved: t => root.time = t
                    }
                }
                CollectiveTimes {
                    Layout.fillWidth: true
                    Layout.alignment: Qt.AlignTop
                    result: root.result
                    busy: mesh.busy
                }
            }
            GoalList {
                objectName: "ex11Mastery"
                Layout.fillWidth: true
                goals: root.goals
                chapter: mastery.chapter
            }
        }
    }
}
