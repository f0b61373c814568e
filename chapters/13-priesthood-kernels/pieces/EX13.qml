import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·13 the paged cache: one decode step of attention over a KV cache kept
// in pages of a shared pool. A batch of sequences, the page size, the pages
// one grid step copies, the query heads per K/V head and the cache's dtype
// in; the pool with each sequence's pages and its page table, and
// libtpusim's prediction of the step (bytes per token, the share of HBM's
// peak reached, the kernel against XLA's gather) out, on the course's chip.
// Inline in the chapter's text, `compact` drops the long header.
FocusScope {
    id: root
    readonly property bool choosesChip: false
    objectName: "ex13Piece"
    property bool compact: Object(parent).setIntoText === true
    Mastery { id: mastery; piece: "EX13" }
    readonly property var goals: mastery.goals
    // Goals count only the learner's own edits, not the opening state.
    property bool learnerEdited: false
    readonly property var cache: cacheModel.cache
    readonly property var figures: cache.figures || ({})

    implicitHeight: page.implicitHeight
    implicitWidth: Theme.px(640)

    PagedCacheModel {
        id: cacheModel
        objectName: "ex13Model"
        chip: Course.chip
        heads: 32
        kvHeads: 8
        pageSize: 16
        pagesPerBlock: 8
        Component.onCompleted: controls.applyBatch("ragged")
    }

    function judgeGoals() {
        if (!root.learnerEdited || root.cache.problem)
            return
        if ((root.figures.bandwidth || 0) >= 0.6)
            mastery.reach("roof")
        if (root.figures.timeS > 0 && root.figures.xlaTimeS >= 2 * root.figures.timeS)
            mastery.reach("xla")
    }
    onCacheChanged: judgeGoals()

    ScrollPage {
        id: scroller
        anchors.fill: parent
        focus: true
        interactive: !root.compact
        contentHeight: page.implicitHeight

        TwoColumns {
            id: page
            objectName: "ex13Columns"
            width: scroller.availableWidth
            firstShare: 0.45
            minimumColumnWidth: Theme.px(400)

            ColumnLayout {
                spacing: Theme.gapM
                Text {
                    objectName: "ex13Header"
                    Layout.fillWidth: true
                    visible: !root.compact
                    text: "Each new token's query row reads its sequence's whole K/V cache. The cache lives in fixed-size pages scattered through one pool; a page table per sequence says where, and the kernel reads it from SMEM to fetch each page. Decode does a few FLOPs per byte, so its speed is the bytes it moves and how close the copies come to HBM's peak."
                    font.family: Theme.sans
                    font.pixelSize: Theme.bodySize
                    lineHeight: 1.2
                    color: Theme.inkMuted
                    wrapMode: Text.WordWrap
                }
                DecodeControls {
                    id: controls
                    Layout.fillWidth: true
                    model: cacheModel
                    onEdited: { root.learnerEdited = true; root.judgeGoals() }
                }
                Text {
                    objectName: "ex13Problem"
                    Layout.fillWidth: true
                    visible: !!root.cache.problem
                    text: root.cache.problem || ""
                    color: Theme.failed
                    font.family: Theme.sans
                    font.pixelSize: Theme.bodySize
                    wrapMode: Text.WordWrap
                }
                DecodeFigures {
                    Layout.fillWidth: true
                    visible: !root.cache.problem
                    figures: root.figures
                    provenance: root.cache.provenance || ({})
                }
            }

            ColumnLayout {
                spacing: Theme.gapM
                PagePool {
                    Layout.fillWidth: true
                    cache: root.cache
                    pageSize: cacheModel.pageSize
                }
                GoalList {
                    objectName: "ex13Mastery"
                    Layout.fillWidth: true
                    heading: "Make the step fast:"
                    goals: root.goals
                    chapter: mastery.chapter
                }
            }
        }
    }
}
