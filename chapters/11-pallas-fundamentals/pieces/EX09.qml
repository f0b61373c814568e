import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·09 the BlockSpec sandbox: a Pallas matmul schedule (sizes, blocks,
// grid, semantics and three index maps) judged live by libtpusim: each
// block's legality with Mosaic's reason, which grid step writes which
// output block (gaps and races in the failure colour), VMEM against the
// limit, and the pipeline's predicted time. "verify off-chip" runs the
// schedule numerically on the host.
FocusScope {
    id: root
    // Working out its figures off the GUI thread: the page waits for it.
    readonly property bool busy: sandbox.busy
    // The chapter's mastery item for this piece, goal by goal, as the store holds it.
    Mastery { id: mastery; piece: "EX09" }
    readonly property var goals: mastery.goals
    // A schedule broken by a preset is the course's doing, not the learner's:
    // "break" counts only after an edit of the learner's own.
    property bool learnerEdited: false
    // A preset by its id, as chapter text names it (`::: piece EX09 preset=race`).
    function applyPresetNamed(name) {
        const preset = schedulePresets.presets.find(p => p.id === name)
        if (preset) schedulePresets.apply(preset)
        return preset !== undefined
    }

    // Read once per report: each read of a model's map or list property
    // converts the whole of it for the script engine.
    readonly property var coverage: sandbox.coverage
    readonly property var operands: sandbox.operands

    BlockSpecModel {
        id: sandbox
        objectName: "ex09Model"
        chip: Course.chip
    }
    Connections {
        target: sandbox
        function onReportChanged() {
            if (sandbox.broken && root.learnerEdited)
                mastery.reach("break")
        }
        function onVerificationChanged() {
            if (Object(sandbox.verification).passed && sandbox.sound)    // a map from C++, read untyped
                mastery.reach("verify")
        }
    }

    ScrollPage {
        id: scroller
        anchors.fill: parent
        focus: true
        contentHeight: page.implicitHeight

        TwoColumns {
            id: page
            width: scroller.availableWidth
            firstShare: 0.55
            minimumColumnWidth: Theme.px(440)

            ColumnLayout {
                spacing: Theme.gapM

                Text {
                    Layout.fillWidth: true
                    text: "x [M, K] @ y [K, N] → out [M, N], as the Pallas docs tile it. Change the blocks, the grid and the index maps; libtpusim judges every change. Then break it on purpose."
                    font.family: Theme.sans
                    font.pixelSize: Theme.bodySize
                    lineHeight: 1.2
                    color: Theme.inkMuted
                    wrapMode: Text.WordWrap
                }
                SchedulePresets { id: schedulePresets; Layout.fillWidth: true; model: sandbox; onChoosing: root.learnerEdited = false }
                ShapeControls { Layout.fillWidth: true; model: sandbox; onEdited: root.learnerEdited = true }
                ColumnLayout {
                    Layout.fillWidth: true
                    spacing: Theme.gap
                    Caption { text: "index maps: grid indices → block indices" }
                    IndexMapField {
                        Layout.fillWidth: true
                        operand: "x"
                        text: sandbox.xMap
                        error: root.operands.length ? root.operands[0].mapError : ""
                        onEdited: t => { root.learnerEdited = true; sandbox.xMap = t }
                    }
                    IndexMapField {
                        Layout.fillWidth: true
                        operand: "y"
                        text: sandbox.yMap
                        error: root.operands.length ? root.operands[1].mapError : ""
                        onEdited: t => { root.learnerEdited = true; sandbox.yMap = t }
                    }
                    IndexMapField {
                        Layout.fillWidth: true
                        operand: "out"
                        text: sandbox.outMap
                        error: root.operands.length ? root.operands[2].mapError : ""
                        onEdited: t => { root.learnerEdited = true; sandbox.outMap = t }
                    }
                }
                LegalityLines { Layout.fillWidth: true; operands: root.operands }
                Text {
                    objectName: "ex09Error"
                    Layout.fillWidth: true
                    visible: sandbox.error !== ""
                    text: sandbox.error
                    wrapMode: Text.Wrap
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize
                    color: Theme.failed
                }
            }

            ColumnLayout {
                spacing: Theme.gapM

                ColumnLayout {
                    Layout.fillWidth: true
                    spacing: Theme.gap
                    RowLayout {
                        Layout.fillWidth: true
                        Caption {
                            Layout.fillWidth: true
                            text: "output blocks (rows: M / bm, columns: N / bn), by the grid steps that write them"
                            wrapMode: Text.Wrap
                        }
                        MonoText {
                            objectName: "ex09CoverageStatus"
                            text: sandbox.busy ? "judging a large grid…"
                                  : root.coverage.error ? "unknown"
                                  : root.coverage.ok ? "covered, race-free" : "broken"
                            color: root.coverage.ok ? Theme.inkText : Theme.failed
                        }
                    }
                    CoverageMap { Layout.fillWidth: true; coverage: root.coverage; model: sandbox }
                    Text {
                        objectName: "ex09Problems"
                        Layout.fillWidth: true
                        // Two lines kept whether or not there is a problem to
                        // say, so the panels below do not jump as it comes and goes.
                        Layout.preferredHeight: Math.max(implicitHeight, 2 * fontInfo.pixelSize * 1.4)
                        text: root.coverage.error || (root.coverage.problems || []).join("\n")
                        wrapMode: Text.Wrap
                        font.family: Theme.sans; font.pixelSize: Theme.smallSize
                        color: Theme.failed
                    }
                }
                VmemBar { Layout.fillWidth: true; vmem: sandbox.vmem }
                ScheduleVerdict { Layout.fillWidth: true; model: sandbox }
                GoalList {
                    objectName: "ex09Mastery"
                    Layout.fillWidth: true
                    goals: root.goals
                    chapter: mastery.chapter
                }
            }
        }
    }
}
