pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend
import TpuCourse.Reading

// EX·04 the fusion map: a program's dataflow graph laid out by Graphviz
// (off the GUI thread) and painted as one picture, with libtpusim's XLA-like
// fusions as regions. Each fusion toggles on and off; the program's HBM bytes
// and time on the course's chip follow, before and after. Clicking an op says
// why it is not fused with its neighbours. Opens any HLO dump (file or drop).
FocusScope {
    id: root
    // Working out its figures off the GUI thread: the page waits for it.
    readonly property bool busy: map.busy
    // Set into a chapter's text, its page grows to its content instead of scrolling.
    readonly property bool setIntoText: Object(parent).setIntoText === true
    objectName: "ex04"
    Mastery { id: mastery; piece: "EX04" }
    readonly property var goals: mastery.goals
    property string program: "attention"
    readonly property var totals: map.totals
    readonly property var sel: map.selection
    readonly property var programs: [
        { id: "mlp", label: "MLP" }, { id: "softmax", label: "softmax" },
        { id: "attention", label: "attention" }, { id: "layernorm", label: "layer norm" }
    ]

    FusionMapModel {
        id: map
        objectName: "ex04Model"
        chip: Course.chip
    }
    Component.onCompleted: map.loadExample(root.program)

    // A program by its id, as chapter text names it (`::: piece EX04 preset=mlp`).
    function applyPresetNamed(name) {
        if (!root.programs.find(p => p.id === name))
            return false
        root.program = name
        map.loadExample(name)
        return true
    }
    // The shell hands over files dropped on the window; run records (.json)
    // go on to the importer.
    function openDroppedFile(url) {
        if (String(url).toLowerCase().endsWith(".json"))
            return false
        root.openFile(url)
        return true
    }
    function openFile(url) {
        root.program = ""
        root.ownDump = true
        map.loadFile(url)
    }
    property bool ownDump: false
    Connections {
        target: map
        function onLoaded() {
            if (root.ownDump && map.program !== "" && root.program === "")
                mastery.reach("dump")
        }
    }
    // The learner's own click on an op.
    function pick(node) {
        map.select(node)
        if (node >= 0 && root.sel.blockers && root.sel.blockers.length > 0)
            mastery.reach("why")
    }
    // The learner's own toggle of the selected op's fusion.
    function toggleSelected() {
        if (root.sel.group === undefined || root.sel.group < 0)
            return
        const wasOn = map.groupOn(root.sel.group)
        if (map.toggleGroup(root.sel.group) && wasOn)
            mastery.reach("split")
    }
    function search(text) {
        const n = map.find(text)
        if (n > 0)
            view.centerOn(map.selected)
    }

    RememberingFileDialog {
        id: picker
        kind: "dumps"
        purpose: "Open an HLO dump"
        nameFilters: ["HLO dumps (*.hlo *.txt)", "All files (*)"]
        onAccepted: root.openFile(selectedFile)
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
                text: "The program's dataflow graph, laid out in layers. Shaded regions are the fusions an XLA-like pass makes: inside one, values stay on chip; every bright edge is a value written to HBM and read back. Click an op to see its fusion and why it is not fused with its neighbours, then split or restore the fusion."
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                lineHeight: 1.2
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }
            Flow {
                Layout.fillWidth: true
                spacing: Theme.gapM
                ChoiceRow {
                    options: root.programs
                    current: root.program
                    namePrefix: "ex04Program_"
                    onChosen: id => root.applyPresetNamed(id)
                }
                PlainButton {
                    objectName: "ex04Open"
                    text: "Open an HLO dump…"
                    onClicked: picker.openHere()
                }
                ThemedField {
                    id: searchField
                    objectName: "ex04Search"
                    implicitWidth: Theme.px(220)
                    placeholderText: "find an op (name or opcode)"
                    onAccepted: root.search(text)
                }
            }
            Text {
                objectName: "ex04Problem"
                Layout.fillWidth: true
                visible: text !== ""
                text: map.problem
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                color: Theme.failed
            }
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gapL
                Caption {
                    objectName: "ex04Program"
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    text: map.busy ? "laying the graph out…"
                          : map.program + ": " + map.opCount.toLocaleString(Qt.locale("en_US"), "f", 0) + " ops, "
                            + (root.totals.fusions || 0) + " fusions; laid out by Graphviz in "
                            + (map.layoutMs >= 1000 ? (map.layoutMs / 1000).toFixed(1) + " s" : map.layoutMs.toFixed(0) + " ms") + ". Drag to pan; Ctrl+wheel, or + and −, to zoom; 0 to fit."
                }
                Caption {
                    objectName: "ex04Matches"
                    visible: searchField.text !== ""
                    text: map.matchCount + " found"
                }
            }
            FusionMapView {
                id: view
                objectName: "ex04View"
                Layout.fillWidth: true
                // A share of the page's view; in the text, where the view is
                // as tall as the page, its tallest, instead of chasing a
                // height it sets itself.
                Layout.preferredHeight: root.setIntoText ? Theme.px(640)
                                                         : Math.max(Theme.px(360), Math.min(scroller.height * 0.62, Theme.px(640)))
                model: map
                groundColor: Theme.chartPlot
                opColor: Theme.card
                textColor: Theme.inkText
                mutedColor: Theme.inkFaint
                fusedColor: Theme.seriesColors[0]
                hbmColor: Theme.seriesColors[3]
                selectColor: Theme.focus
                matchColor: Theme.predicted
                fontFamily: Theme.sans
                fontPixelSize: Theme.tinySize
                onNodeClicked: node => root.pick(node)
                onNodeDoubleClicked: node => { root.pick(node); root.toggleSelected() }
                Keys.onSpacePressed: root.toggleSelected()
                Accessible.role: Accessible.Graphic
                Accessible.name: "the program's dataflow graph with its fusions"
            }
            Caption {
                Layout.fillWidth: true
                wrapMode: Text.Wrap
                font.pixelSize: Theme.tinySize
                text: "blue: the ops of one fusion, one kernel (dashed: split into one kernel per op) · orange edge: a value written to HBM and read back · grey edge: stays on chip · double-click an op or press Space to split or restore its fusion"
            }
            TwoColumns {
                Layout.fillWidth: true
                firstShare: 0.55
                minimumColumnWidth: Theme.px(400)
                ColumnLayout {
                    spacing: Theme.gap
                    RowLayout {
                        spacing: Theme.gapM
                        Text {
                            text: "On " + Course.chip + ", kernels one after another"
                            font.family: Theme.sans; font.pixelSize: Theme.subheadingSize
                            color: Theme.inkText
                        }
                        ProvenanceBadge {
                            kind: (root.totals.provenance || {}).kind || "predicted"
                            details: (root.totals.provenance || {}).details || ""
                        }
                    }
                    GridLayout {
                        columns: 4
                        columnSpacing: Theme.gapL
                        rowSpacing: Theme.gap / 2
                        Caption { text: "" }
                        Caption { text: "HBM bytes" }
                        Caption { text: "time" }
                        Caption { text: "kernels" }
                        Caption { text: "no fusion" }
                        MonoText { objectName: "ex04UnfusedBytes"; text: ((root.totals.unfused || {}).bytesText) || ""; color: Theme.inkText }
                        MonoText { text: ((root.totals.unfused || {}).timeText) || ""; color: Theme.inkText }
                        MonoText { text: String(((root.totals.unfused || {}).kernels) || ""); color: Theme.inkText }
                        Caption { text: "as toggled (" + (root.totals.enabled || 0) + " of " + (root.totals.fusions || 0) + " on)" }
                        MonoText { objectName: "ex04Bytes"; text: ((root.totals.current || {}).bytesText) || ""; color: Theme.predicted }
                        MonoText { objectName: "ex04Time"; text: ((root.totals.current || {}).timeText) || ""; color: Theme.predicted }
                        MonoText { objectName: "ex04Kernels"; text: String(((root.totals.current || {}).kernels) || ""); color: Theme.inkText }
                        Caption { text: "every fusion" }
                        MonoText { text: ((root.totals.automatic || {}).bytesText) || ""; color: Theme.inkText }
                        MonoText { text: ((root.totals.automatic || {}).timeText) || ""; color: Theme.inkText }
                        MonoText { text: String(((root.totals.automatic || {}).kernels) || ""); color: Theme.inkText }
                    }
                    Flow {
                        Layout.fillWidth: true
                        spacing: Theme.gap
                        PlainButton { objectName: "ex04AllOff"; text: "Split every fusion"; onClicked: map.setAllGroups(false) }
                        PlainButton { objectName: "ex04AllOn"; text: "Fuse all again"; onClicked: map.setAllGroups(true) }
                    }
                    Repeater {
                        model: map.notes
                        delegate: Text {
                            required property string modelData
                            Layout.fillWidth: true
                            visible: root.program !== "" && modelData.startsWith("Not streaming")  // the built-in programs
                            text: modelData
                            wrapMode: Text.WordWrap
                            font.family: Theme.sans; font.pixelSize: Theme.smallSize
                            color: Theme.inkMuted
                        }
                    }
                }
                ColumnLayout {
                    spacing: Theme.gap
                    Text {
                        objectName: "ex04Selected"
                        Layout.fillWidth: true
                        wrapMode: Text.Wrap
                        text: root.sel.name === undefined ? "Click an op in the map."
                              : root.sel.name + " · " + root.sel.opcode + " " + root.sel.shape + ", " + root.sel.bytesText
                        font.family: Theme.sans; font.pixelSize: Theme.subheadingSize
                        color: Theme.inkText
                    }
                    Text {
                        objectName: "ex04Group"
                        Layout.fillWidth: true
                        visible: root.sel.name !== undefined
                        wrapMode: Text.Wrap
                        text: root.sel.group === undefined || root.sel.group < 0
                              ? "A kernel of its own: no fusion to toggle."
                              : root.sel.groupName + ", a " + root.sel.groupKind + " fusion of " + root.sel.groupOps + " ops, is "
                                + (root.sel.groupOn ? "on" : "split") + ". Fused, it saves " + root.sel.groupSavesBytesText
                                + " of HBM traffic and " + root.sel.groupSavesTimeText + " (predicted)."
                        font.family: Theme.sans; font.pixelSize: Theme.bodySize
                        color: Theme.inkMuted
                    }
                    PlainButton {
                        objectName: "ex04Toggle"
                        visible: root.sel.group !== undefined && root.sel.group >= 0
                        text: root.sel.groupOn ? "Split this fusion" : "Fuse it again"
                        onClicked: root.toggleSelected()
                    }
                    Repeater {
                        model: root.sel.blockers || []
                        delegate: Text {
                            required property var modelData
                            required property int index
                            objectName: "ex04Why_" + index
                            Layout.fillWidth: true
                            wrapMode: Text.WordWrap
                            text: (modelData.direction === "to" ? "→ " : "← ") + modelData.other + ": " + modelData.why
                            font.family: Theme.sans; font.pixelSize: Theme.smallSize
                            color: Theme.inkText
                        }
                    }
                    GoalList {
                        objectName: "ex04Mastery"
                        Layout.fillWidth: true
                        heading: "Fusion decisions, by your own hand:"
                        goals: root.goals
                        chapter: mastery.chapter
                    }
                }
            }
        }
    }
}
