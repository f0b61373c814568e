import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// What a decode step is made of: the batch's lengths (one preset each),
// the page size and the pages one grid step copies, both scrubbed through
// powers of two, how many query heads share a K/V head, and the cache's
// dtype. Every change is the learner's own and says so through `edited`.
GridLayout {
    id: root
    required property var model      // PagedCacheModel
    property string batch: "ragged"
    signal edited()
    columns: 2
    columnSpacing: Theme.gapM
    rowSpacing: Theme.gap

    // Eight sequences in each, as a serving batch mid-generation holds them.
    readonly property var batches: ({
        "even": [4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096],
        "ragged": [4096, 3547, 3035, 2523, 2011, 1499, 987, 475],
        "one long": [16384, 512, 512, 512, 512, 512, 512, 512]
    })
    function applyBatch(id) {
        root.batch = id
        root.model.lengths = root.batches[id]
    }

    Caption { text: "the batch" }
    ChoiceRow {
        namePrefix: "ex13Batch_"
        options: [{ id: "even", label: "8 × 4096" }, { id: "ragged", label: "ragged" }, { id: "one long", label: "one long" }]
        current: root.batch
        onChosen: id => { root.applyBatch(id); root.edited() }
    }
    Caption { text: "page" }
    ScrubNumber {
        objectName: "ex13PageSize"
        label: "tokens a page"
        Binding on value { value: root.model.pageSize }
        defaultValue: 16; from: 16; to: 1024
        logarithmic: true; powersOnly: true; factor: 2
        onValueEdited: v => { root.model.pageSize = v; root.edited() }
    }
    Caption { text: "a grid step" }
    ScrubNumber {
        objectName: "ex13PagesPerBlock"
        label: "pages copied"
        Binding on value { value: root.model.pagesPerBlock }
        defaultValue: 8; from: 1; to: 256
        logarithmic: true; powersOnly: true; factor: 2
        onValueEdited: v => { root.model.pagesPerBlock = v; root.edited() }
    }
    Caption { text: "K/V heads" }
    ChoiceRow {
        namePrefix: "ex13KvHeads_"
        options: [{ id: "32", label: "32 (one each)" }, { id: "8", label: "8" }, { id: "4", label: "4" }, { id: "1", label: "1" }]
        current: String(root.model.kvHeads)
        onChosen: id => { root.model.kvHeads = Number(id); root.edited() }
    }
    Caption { text: "cache" }
    ChoiceRow {
        namePrefix: "ex13Dtype_"
        options: [{ id: "bf16", label: "bf16" }, { id: "int8", label: "int8 + scales" }]
        current: root.model.kvDtype
        onChosen: id => { root.model.kvDtype = id; root.edited() }
    }
}
