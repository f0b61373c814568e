import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// What the learner decides: the slice (shapes the chip's torus can form),
// each axis's role, whether the data axes keep whole weights (DP) or a
// shard (FSDP), whether TP's collectives wait or run under their matmuls,
// the block's sizes and the global batch. Every change is the learner's
// own and says so through `edited`.
GridLayout {
    id: root
    required property var model     // LayerShardingModel
    required property int torusAxes // 2 on v5e and v6e, 3 on v4, v5p and TPU7x
    signal edited()
    columns: 2
    columnSpacing: Theme.gapM
    // The axis rows sit outside the grid's first column; they share its width.
    readonly property real captionWidth: Theme.px(104)
    rowSpacing: Theme.gap

    function meshesFor(axes) {
        return axes >= 3 ? ["4x4x4", "8x8x8", "8x8x16", "16x16x16"] : ["16", "4x4", "8x8", "8x16", "16x16"]
    }
    readonly property var meshes: meshesFor(torusAxes)
    readonly property var axisSizes: root.model.mesh.split("x")
    // The last axis carries TP when the slice has more than one; a ring is all data.
    function rolesFor(mesh) {
        const n = mesh.split("x").length
        return n === 1 ? ["data"] : Array(n - 1).fill("data").concat(["model"])
    }
    function setMesh(mesh) {
        root.model.roles = rolesFor(mesh)
        root.model.mesh = mesh
    }
    function setRole(axis, role) {
        const roles = root.model.roles.slice()
        roles[axis] = role
        root.model.roles = roles
    }
    // A chip with another torus keeps the closest slice of its own.
    // (meshesFor, not `meshes`: that binding may not have caught up yet.)
    onTorusAxesChanged: if (meshesFor(torusAxes).indexOf(root.model.mesh) < 0) setMesh(torusAxes >= 3 ? "4x4x4" : "16x16")

    // Chapter 9's block, and the MLP of the Llama 3.1 70B dump that worked example 5 reads.
    readonly property var blocks: [{ id: "8192x32768", label: "D 8192, F 32768" },
                                   { id: "8192x28672", label: "D 8192, F 28672 (Llama 3.1 70B)" }]

    Caption { Layout.preferredWidth: root.captionWidth; text: "the slice" }
    ChoiceRow {
        namePrefix: "ex14Mesh_"
        options: root.meshes.map(m => ({ id: m, label: m.split("x").join(" × ") }))
        current: root.model.mesh
        onChosen: id => { root.setMesh(id); root.edited() }
    }
    ColumnLayout {   // the axes' rows, up to a 3D torus's three
        Layout.columnSpan: 2
        Layout.fillWidth: true
        spacing: Theme.gap
        ShardAxisRow {
            Layout.fillWidth: true
            visible: root.axisSizes.length > 0
            axis: 0
            size: root.axisSizes[0] || ""
            role: root.model.roles[0] || ""
            captionWidth: root.captionWidth
            onChosen: role => { root.setRole(0, role); root.edited() }
        }
        ShardAxisRow {
            Layout.fillWidth: true
            visible: root.axisSizes.length > 1
            axis: 1
            size: root.axisSizes[1] || ""
            role: root.model.roles[1] || ""
            captionWidth: root.captionWidth
            onChosen: role => { root.setRole(1, role); root.edited() }
        }
        ShardAxisRow {
            Layout.fillWidth: true
            visible: root.axisSizes.length > 2
            axis: 2
            size: root.axisSizes[2] || ""
            role: root.model.roles[2] || ""
            captionWidth: root.captionWidth
            onChosen: role => { root.setRole(2, role); root.edited() }
        }
    }
    Caption { Layout.preferredWidth: root.captionWidth; text: "data axes keep" }
    ChoiceRow {
        namePrefix: "ex14Mode_"
        options: [{ id: "dp", label: "whole weights (DP)" }, { id: "fsdp", label: "a shard (FSDP)" }]
        current: root.model.dataMode
        onChosen: id => { root.model.dataMode = id; root.edited() }
    }
    Caption { Layout.preferredWidth: root.captionWidth; text: "TP's collectives" }
    ChoiceRow {
        namePrefix: "ex14Tp_"
        options: [{ id: "wait", label: "the matmul waits" }, { id: "overlap", label: "collective matmul" }]
        current: root.model.overlapTp ? "overlap" : "wait"
        onChosen: id => { root.model.overlapTp = id === "overlap"; root.edited() }
    }
    Caption { Layout.preferredWidth: root.captionWidth; text: "the block" }
    ChoiceRow {
        namePrefix: "ex14Block_"
        options: root.blocks
        current: root.model.dModel + "x" + root.model.dFf
        onChosen: id => {
            const sizes = id.split("x")
            root.model.dModel = Number(sizes[0])
            root.model.dFf = Number(sizes[1])
            root.edited()
        }
    }
    Caption { Layout.preferredWidth: root.captionWidth; text: "global batch" }
    ScrubNumber {
        objectName: "ex14Batch"
        label: "rows (tokens)"
        Binding on value { value: root.model.batch }
        defaultValue: 65536; from: 1024; to: 8388608
        logarithmic: true; powersOnly: true; factor: 2
        onValueEdited: v => { root.model.batch = v; root.edited() }
    }
}
