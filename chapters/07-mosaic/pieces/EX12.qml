import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·12 the layout lens: an array's shape and dtype laid onto Mosaic's
// native tiles, (8,128) with sublane packing per dtype, the padding drawn
// in place; the waste of one dimension as it is scrubbed across its tile
// boundaries; and a relayout (a transpose, a reshape, a cast) as the bytes
// it moves and the time it takes on the course's chip, all from libtpusim.
// Inline in the chapter's text, `compact` drops the long header and the
// piece takes its content's height; `applyPresetNamed` opens a worked case.
FocusScope {
    id: root
    // Shows its own chip choice: the piece page's title bar leaves its out.
    readonly property bool choosesChip: true
    objectName: "ex12Piece"
    // Known from the moment it is made: set into a chapter's text, or not.
    property bool compact: Object(parent).setIntoText === true
    // The chapter's mastery item for this piece, goal by goal, as the store holds it.
    Mastery { id: mastery; piece: "EX12" }
    readonly property var goals: mastery.goals
    // A preset is the course's doing; only the learner's own edits count:
    // any edit for a relayout, an edit of the array itself for its tiles.
    property bool learnerEdited: false
    property bool arrayEdited: false
    readonly property var lens: lensModel.lens
    readonly property var layout: lens.layout || ({})
    readonly property var change: lens.change || ({})
    readonly property var profile: lens.profile || ({})

    implicitHeight: page.implicitHeight
    implicitWidth: Theme.px(640)

    LayoutLensModel {
        id: lensModel
        objectName: "ex12Model"
        chip: Course.chip
    }

    // Opens one of chapter 7's worked cases by id; false for an id it does not know.
    function applyPresetNamed(name) {
        const known = Array.from(lensModel.presets).some(p => p.id === name)
        if (!known)
            return false
        root.learnerEdited = false
        root.arrayEdited = false
        return lensModel.applyPreset(name)
    }

    // The learner's own change of a tiled dimension: across a tile boundary
    // the tile count changes, and the waste jumps with it.
    function dimensionEdited(index, value) {
        const shape = Array.from(lensModel.shape)
        const before = Number(shape[index])
        shape[index] = value
        root.learnerEdited = true
        root.arrayEdited = true
        lensModel.profileAxis = index
        lensModel.shape = shape
        const rank = shape.length
        const tiled = index === rank - 1 || (rank >= 2 && index === rank - 2)
        const tile = index === rank - 1 ? lensModel.tileLanes : lensModel.tileRows
        if (tiled && before >= 1 && value >= 1 && !root.lens.problem
                && Math.ceil(before / tile) !== Math.ceil(value / tile))
            mastery.reach("boundary")
        root.judgeGoals()
    }
    function judgeGoals() {
        if (!root.learnerEdited || root.lens.problem)
            return
        if (root.arrayEdited && root.layout.waste === 0 && root.layout.packing > 1)
            mastery.reach("packed")
        if (root.change.moves)
            mastery.reach("relayout")
    }

    ScrollPage {
        id: scroller
        anchors.fill: parent
        focus: true
        interactive: !root.compact
        contentHeight: page.implicitHeight

        TwoColumns {
            id: page
            objectName: "ex12Columns"
            width: scroller.availableWidth
            firstShare: 0.42
            minimumColumnWidth: Theme.px(420)

            ColumnLayout {
                spacing: Theme.gapM

                Text {
                    objectName: "ex12Header"
                    Layout.fillWidth: true
                    visible: !root.compact
                    text: "Mosaic lays the last two dimensions of every array onto tiles of 8 sublanes by 128 lanes of 32-bit words; narrow types pack 2 or 4 rows into a word, so a bf16 tile is (16, 128) and an int8 or fp8 tile (32, 128). Whatever does not fill a tile is padding, paid for in VMEM, vector work and copies. Shape an array, watch its tiles, then move it and price the move."
                    font.family: Theme.sans
                    font.pixelSize: Theme.bodySize
                    lineHeight: 1.2
                    color: Theme.inkMuted
                    wrapMode: Text.WordWrap
                }
                LensPresets {
                    Layout.fillWidth: true
                    model: lensModel
                    onChosen: id => root.applyPresetNamed(id)
                }
                ArrayControls {
                    Layout.fillWidth: true
                    model: lensModel
                    onDimensionEdited: (index, value) => root.dimensionEdited(index, value)
                    onEdited: { root.learnerEdited = true; root.arrayEdited = true; root.judgeGoals() }
                }
                RelayoutControls {
                    Layout.fillWidth: true
                    model: lensModel
                    onChipChosen: id => Course.chip = id
                    onEdited: { root.learnerEdited = true; root.judgeGoals() }
                }
                LayoutFigures {
                    Layout.fillWidth: true
                    visible: !root.lens.problem
                    layout: root.layout
                }
            }

            ColumnLayout {
                spacing: Theme.gapM

                TileMap {
                    objectName: "ex12Tiles"
                    Layout.fillWidth: true
                    layout: root.layout
                    problem: root.lens.problem || ""
                    title: "as laid out: one plane of the last two dimensions"
                }
                WasteSaw {
                    Layout.fillWidth: true
                    visible: !root.lens.problem
                    profile: root.profile
                    shapeRank: lensModel.shape.length
                    dtype: root.layout.dtype || ""
                    provenance: root.layout.provenance || ({})
                    onAxisChosen: axis => lensModel.profileAxis = axis
                    onPicked: value => root.dimensionEdited(root.profile.axis, value)
                }
                RelayoutCost {
                    Layout.fillWidth: true
                    visible: !root.lens.problem && root.change.kind !== "none"
                    change: root.change
                    chip: lensModel.chip
                }
                TileMap {
                    objectName: "ex12TilesAfter"
                    Layout.fillWidth: true
                    visible: !root.lens.problem && root.change.kind !== "none"
                    layout: root.change.to || ({})
                    title: "after the " + (root.change.kind || "") + ": " + ((root.change.to || {}).shapeText || "")
                           + " " + ((root.change.to || {}).dtype || "")
                }
                GoalList {
                    objectName: "ex12Mastery"
                    Layout.fillWidth: true
                    heading: "Tiles, packing and relayouts:"
                    goals: root.goals
                    chapter: mastery.chapter
                }
            }
        }
    }
}
