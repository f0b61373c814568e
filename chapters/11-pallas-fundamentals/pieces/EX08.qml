import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·08 the pipeline: a tiled bf16 matmul's grid walked step by step by
// libtpusim's pipeline model (the same one as `tpusim pipeline` and the
// chapter's {{pipeline}} numbers), each step's copies in, compute and
// copies out on a timeline of the whole call: the launch, the prologue,
// the bubbles where the MXU waits (on copies, or on a step's fixed time),
// the epilogue. Scrub the blocks and the grid order and watch the bubbles
// move; export the schedule as a Chrome trace for Perfetto.
FocusScope {
    id: root
    // Shows its own chip choice: the piece page's title bar leaves its out.
    readonly property bool choosesChip: true
    // Working out its figures off the GUI thread: the page waits for it.
    readonly property bool busy: sim.busy
    objectName: "ex08"
    // The chapter's mastery item, goal by goal as the store holds it. Only
    // the learner's own edits, points and exports count, never the opening
    // state or a preset.
    Mastery { id: mastery; piece: "EX08" }
    readonly property var goals: mastery.goals
    property string preset: "docs"
    property string lastEdit: ""        // what the learner changed last: "blocks", "order", "size"
    property bool sawBubbles: false     // a run on show had the MXU idle in a quarter of its steps' time
    readonly property string courseChip: Course.chip
    readonly property var run: sim.run

    // The chapter's worked examples: [M, K, N, bm, bk, bn, order, what the timeline opens on]
    readonly property var presets: ({
        "128": [4096, 4096, 4096, 128, 128, 128, "mnk", "first"],
        "512": [4096, 4096, 4096, 512, 512, 512, "mnk", "first"],
        "docs": [4096, 4096, 4096, 512, 1024, 1024, "mnk", "whole"],
        "kfirst": [4096, 4096, 4096, 512, 1024, 1024, "kmn", "first"],
        "launch": [1024, 1024, 1024, 512, 1024, 1024, "mnk", "whole"],
        "uneven": [1536, 4096, 4096, 512, 1024, 1024, "mnk", "whole"],
        "huge": [8192, 8192, 8192, 128, 128, 128, "mnk", "whole"]
    })

    PipelineModel {
        id: sim
        objectName: "ex08Model"
        chip: root.courseChip
        onRunChanged: root.judge()
    }

    // A schedule by its preset id, as chapter text names it (`::: piece EX08 preset=128`).
    function applyPresetNamed(name) {
        const p = presets[name]
        if (!p) return false
        root.lastEdit = ""
        root.preset = name
        sim.m = p[0]; sim.k = p[1]; sim.n = p[2]
        sim.bm = p[3]; sim.bk = p[4]; sim.bn = p[5]
        sim.order = p[6]
        lanes.viewMode = p[7]
        return true
    }
    function edited(what) {
        if (what === "chip")
            return
        root.preset = ""
        root.lastEdit = what
    }
    // Goals for what the learner's own change brought on show.
    function judge() {
        const r = Object(sim.run)   // a map from C++, read untyped
        if (r.problem !== undefined || r.steps === undefined)
            return
        if (r.stepBubbleShare >= 0.25)
            root.sawBubbles = true
        if (root.lastEdit === "blocks" && root.sawBubbles && r.steps >= 8 && r.stepBubbleShare < 0.10)
            mastery.reach("remove")
        if (root.lastEdit === "order" && r.outputCopies > 0 && sim.order !== "mnk")
            mastery.reach("order")
    }
    // The learner pointed at (or picked) a step whose MXU idles.
    function pointed(detail) {
        if (detail && detail.bubble)
            mastery.reach("find")
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
                text: "A tiled bf16 matmul's grid, step by step: while the MXU computes on one set of blocks, the DMA engine copies the next set in and the last finished output block out. Where the copies take longer than the compute, or a step's fixed time is longer than both, the MXU waits: those are the bubbles. Scrub the blocks and the grid order and watch them move."
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                lineHeight: 1.2
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }
            PipelineControls {
                Layout.fillWidth: true
                model: sim
                preset: root.preset
                onPresetChosen: id => root.applyPresetNamed(id)
                onChipChosen: id => Course.chip = id
                onEdited: what => root.edited(what)
            }
            Text {
                objectName: "ex08Problem"
                Layout.fillWidth: true
                visible: text !== ""
                text: root.run.problem ? root.run.problem + "." : ""
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                color: Theme.failed
            }
            PipelineLanes {
                id: lanes
                Layout.fillWidth: true
                visible: !root.run.problem
                model: sim
                onPointed: detail => root.pointed(detail)
            }
            TwoColumns {
                Layout.fillWidth: true
                visible: !root.run.problem
                firstShare: 0.6
                minimumColumnWidth: Theme.px(400)
                PipelineFigures {
                    model: sim
                }
                ColumnLayout {
                    spacing: Theme.gapM
                    TraceExport {
                        Layout.fillWidth: true
                        model: sim
                        onExported: mastery.reach("export")
                    }
                    GoalList {
                        objectName: "ex08Mastery"
                        Layout.fillWidth: true
                        heading: "Find the bubbles, then remove them:"
                        goals: root.goals
                        chapter: mastery.chapter
                    }
                }
            }
        }
    }
}
