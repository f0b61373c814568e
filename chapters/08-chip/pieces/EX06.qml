import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·06 the systolic array: an MXU of the course's chip (128 x 128, or
// 256 x 256 on v6e and TPU7x) streaming a GEMM, stepped cycle by cycle by
// libtpusim (SystolicModel): weights loading, rows of x entering skewed,
// partial sums flowing down; fill, steady state and drain; utilization from
// the closed form, the same run stepped register by register, and
// SCALE-Sim's fold count.
FocusScope {
    id: root
    // Shows its own chip choice: the piece page's title bar leaves its out.
    readonly property bool choosesChip: true
    // The chapter's mastery item, goal by goal as the store holds it. Only
    // the learner's own edits and scrubs count, never the opening state or a preset.
    Mastery { id: mastery; piece: "EX06" }
    readonly property var goals: mastery.goals
    property bool learnerShape: false   // the shape is the learner's own edit
    property var phasesSeen: []         // phases the learner's own cursor landed in, this shape
    property string preset: "tile"
    // Read once per change, and by the bindings below: each read of the
    // model's maps converts the whole of them for the script engine.
    readonly property var run: sim.run
    readonly property var frame: sim.frame

    readonly property var presets: ({
        tile: [128, 128, 128], skinny: [8, 128, 128], ragged: [100, 300, 200], long: [1024, 128, 128]
    })

    SystolicModel {
        id: sim
        objectName: "ex06Model"
        chip: root.courseChip
        onRunChanged: {
            const run = Object(sim.run)     // the map read untyped, as it changes
            if (run.cycles !== undefined && sim.cycle > run.cycles - 1)
                sim.cycle = run.cycles - 1
        }
        onSteppedChanged: root.judgeRagged()
    }
    readonly property string courseChip: Course.chip

    Component.onCompleted: root.showWave()

    // A shape by its preset id, as chapter text names it (`::: piece EX06 preset=ragged`).
    function applyPresetNamed(name) {
        const p = presets[name]
        if (!p) return false
        scrub.stop()
        root.learnerShape = false
        root.phasesSeen = []
        root.preset = name
        sim.m = p[0]; sim.k = p[1]; sim.n = p[2]
        root.showWave()
        return true
    }
    // The cursor a few cycles after the first row enters: the skew in view.
    function showWave() {
        const run = Object(sim.run)     // the map read untyped, fresh
        if (run.firstStart !== undefined)
            sim.cycle = run.firstStart + 6
    }
    // The learner moved the cursor (scrub, keys, a step, the strip, or play).
    function moveCycle(c) {
        sim.cycle = c
        const phase = Object(sim.frame).phase
        if (Array.of("fill", "steady state", "drain").indexOf(phase) >= 0 && root.phasesSeen.indexOf(phase) < 0)
            root.phasesSeen = root.phasesSeen.concat([phase])
        if (root.phasesSeen.length === 3)
            mastery.reach("phases")
    }
    function shapeEdited(what) {
        root.phasesSeen = []
        if (what === "chip" || what === "mode")
            return
        root.learnerShape = true
        root.preset = ""
        if (what === "m" && Object(sim.run).problem === undefined && sim.m <= 8)
            mastery.reach("skinny")
        root.judgeRagged()
    }
    function judgeRagged() {
        const s = Object(sim.stepped), a = Object(sim.run).array || 0   // maps, read untyped
        if (!root.learnerShape || s.state !== "done" || !s.agrees || a <= 0)
            return
        if (sim.k % a !== 0 || sim.n % a !== 0)
            mastery.reach("ragged")
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
                text: "One MXU, weight-stationary: a tile of w sits in the cells, rows of x enter at the left one array row later each, and partial sums flow down to leave as finished dot products. Scrub the cycle to watch the wave fill the array, hold, and drain."
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                lineHeight: 1.2
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }
            SystolicControls {
                Layout.fillWidth: true
                model: sim
                preset: root.preset
                onChipChosen: id => Course.chip = id
                onPresetChosen: id => root.applyPresetNamed(id)
                onEdited: what => root.shapeEdited(what)
            }
            Text {
                objectName: "ex06Problem"
                Layout.fillWidth: true
                visible: text !== ""
                text: root.run.problem ? root.run.problem + "." : ""
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                color: Theme.failed
            }
            CycleScrub {
                id: scrub
                Layout.fillWidth: true
                visible: !root.run.problem
                cycle: sim.cycle
                cycles: root.run.cycles || 0
                phase: root.frame.phase || ""
                activity: sim.activity
                marks: root.run.problem ? [] : [{ at: root.run.firstStart }, { at: root.run.fillEnd }, { at: root.run.drainStart }]
                onMoved: c => root.moveCycle(c)
            }
            Caption {
                Layout.fillWidth: true
                visible: !root.run.problem
                wrapMode: Text.Wrap
                font.pixelSize: Theme.tinySize
                text: "busy cells per cycle over the run; ticks: rows start entering (" + (root.run.firstStart || 0) + "), "
                      + (root.run.fills ? "the array is full (" + root.run.fillEnd + ")" : "the wave never fills the array: M < 2S − 1")
                      + ", the last row has entered (" + (root.run.drainStart || 0) + "); drain runs to the end"
            }
            TwoColumns {
                Layout.fillWidth: true
                visible: !root.run.problem
                firstShare: 0.5
                minimumColumnWidth: Theme.px(440)
                SystolicCorner {
                    frame: root.frame
                }
                HeatView {
                    model: sim
                }
            }
            TwoColumns {
                Layout.fillWidth: true
                visible: !root.run.problem
                firstShare: 0.6
                minimumColumnWidth: Theme.px(400)
                SystolicFigures {
                    run: root.run
                    frame: root.frame
                    stepped: sim.stepped
                    mode: sim.mode
                }
                GoalList {
                    objectName: "ex06Mastery"
                    heading: "Fill, drain, and the shapes that waste the array:"
                    goals: root.goals
                    chapter: mastery.chapter
                }
            }
        }
    }
}
