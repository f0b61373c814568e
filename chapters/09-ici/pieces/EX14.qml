import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·14 shard a layer: one transformer MLP block trained on a slice of the
// course's chip. The slice, each axis's role (data or model), DP or FSDP on
// the data axes, whether TP's collectives wait or run as collective
// matmuls, the block and the batch in; the PartitionSpecs, the collectives
// XLA inserts with their bytes and times, one step on a timeline with the
// MXU's waits hatched, and libtpusim's verdict out. Inline in the chapter's
// text, `compact` drops the long header.
FocusScope {
    id: root
    readonly property bool choosesChip: false
    objectName: "ex14Piece"
    property bool compact: Object(parent).setIntoText === true
    Mastery { id: mastery; piece: "EX14" }
    readonly property var goals: mastery.goals
    // Goals count only the learner's own edits, not the opening state.
    property bool learnerEdited: false
    readonly property var plan: shardModel.plan

    implicitHeight: page.implicitHeight
    implicitWidth: Theme.px(640)

    LayerShardingModel {
        id: shardModel
        objectName: "ex14Model"
        chip: Course.chip
    }

    function devices() {
        return (root.plan.axes || []).reduce((n, a) => n * a.size, 1)
    }
    function judgeGoals() {
        if (!root.learnerEdited || root.plan.problem || !(root.plan.collectives || []).length)
            return
        if (root.devices() >= 256 && root.plan.exposedS === 0)
            mastery.reach("hidden")
        if (shardModel.dataMode === "fsdp" && root.plan.collectives.some(c => c.role === "data" && c.exposedS > 0))
            mastery.reach("fsdp-shows")
    }
    onPlanChanged: judgeGoals()

    ScrollPage {
        id: scroller
        anchors.fill: parent
        focus: true
        interactive: !root.compact
        contentHeight: page.implicitHeight

        ColumnLayout {
            id: page
            width: scroller.availableWidth
            spacing: Theme.gapL

            Text {
                objectName: "ex14Header"
                Layout.fillWidth: true
                visible: !root.compact
                text: "Give each axis of a slice a role, and XLA inserts the collectives that role needs: the data axes split the batch and sum gradients (DP) or also gather weight shards before each use (FSDP); the model axes split F and exchange activations (TP). Whether the step pays for them depends on whether a matmul is running while they move."
                font.family: Theme.sans
                font.pixelSize: Theme.bodySize
                lineHeight: 1.2
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }
            TwoColumns {
                Layout.fillWidth: true
                firstShare: 0.5
                minimumColumnWidth: Theme.px(400)

                ColumnLayout {
                    spacing: Theme.gapM
                    ShardControls {
                        Layout.fillWidth: true
                        model: shardModel
                        torusAxes: shardModel.torusAxes
                        onEdited: { root.learnerEdited = true; root.judgeGoals() }
                    }
                    Text {
                        objectName: "ex14Problem"
                        Layout.fillWidth: true
                        visible: !!root.plan.problem
                        text: root.plan.problem || ""
                        color: Theme.failed
                        font.family: Theme.sans
                        font.pixelSize: Theme.bodySize
                        wrapMode: Text.WordWrap
                    }
                }
                ColumnLayout {
                    spacing: Theme.gapM
                    ShardFigures {
                        Layout.fillWidth: true
                        visible: !root.plan.problem
                        plan: root.plan
                        busy: shardModel.busy
                    }
                    GoalList {
                        objectName: "ex14Mastery"
                        Layout.fillWidth: true
                        heading: "Shard it:"
                        goals: root.goals
                        chapter: mastery.chapter
                    }
                }
            }
            ShardTimeline {
                objectName: "ex14Timeline"
                Layout.fillWidth: true
                visible: !root.plan.problem
                plan: root.plan
            }
            ShardTransfers {
                objectName: "ex14Transfers"
                Layout.fillWidth: true
                visible: !root.plan.problem && (root.plan.collectives || []).length > 0
                collectives: root.plan.collectives || []
            }
        }
    }
}
