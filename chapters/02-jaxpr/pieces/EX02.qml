pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·02 the tracer: a small JAX program stepped through tracing one Python
// line at a time by libtpusim (TracerModel): the tracers in the frame (shape,
// dtype, static or traced), each primitive appended to the jaxpr as its line
// records it, JAX's error when a Python if meets a traced value, and jit's
// cache keyed on shapes and static arguments.
FocusScope {
    id: root
    // Nothing here depends on a chip: the piece page shows no chip choice.
    readonly property bool usesChip: false
    objectName: "ex02Root"
    // The chapter's mastery item, goal by goal as the store holds it. Only
    // the learner's own steps, edits and choices count, never the opening
    // state or a preset.
    Mastery { id: mastery; piece: "EX02" }
    readonly property var goals: mastery.goals
    property bool sawError: false        // the learner stepped into the concretization error
    property bool learnerRetraced: false // a learner's edit retraced
    // The program's steps the learner has had on screen: its step goal asks
    // for every line, so "to the end" from the first line does not reach it.
    property var stepsSeen: [true]
    readonly property var trace: sim.trace
    readonly property var cur: sim.current
    readonly property var program: Array.from(sim.programs).find(p => p.id === sim.program) || ({ knobs: [] })
    readonly property var choiceKnob: program.knobs.find(k => k.choice) || null

    TracerModel {
        id: sim
        objectName: "ex02Model"
    }

    // A program by id, as chapter text names it (`::: piece EX02 preset=scan`);
    // "error" is the Python if on a traced value.
    function applyPresetNamed(name) {
        const id = name === "error" ? "traced-if" : name
        if (!sim.programs.some(p => p.id === id)) return false
        sim.program = id
        sim.reset()
        if (name === "error") sim.setChoice("branch", "python if")
        sim.step = 0
        root.stepsSeen = [true]
        root.sawError = false
        return true
    }
    // The learner's own step (a button, a key, a click on a line).
    function stepTo(s) {
        sim.step = s
        const seen = root.stepsSeen.slice()
        seen[sim.step] = true
        root.stepsSeen = seen
        const c = Object(sim.current)   // a map from C++, read untyped
        if (c.failed) root.sawError = true
        else if (c.last && root.trace.error === "" && root.everyStepSeen()) mastery.reach("step")
    }
    function everyStepSeen() {
        for (let i = 0; i < (root.trace.stepCount || 1); ++i)
            if (!root.stepsSeen[i]) return false
        return true
    }
    function chooseProgram(id) {
        sim.program = id
        sim.step = 0
        root.stepsSeen = [true]
    }
    function sizeEdited(knob, v) {
        sim.setSize(knob, v)
        root.judgeCache()
    }
    function choiceEdited(knob, v) {
        sim.setChoice(knob, v)
        root.judgeCache()
        if (sim.program === "static-if" && knob === "act")
            mastery.reach("static")
        if (sim.program === "traced-if" && root.sawError && v !== "python if")
            mastery.reach("concretize")
        if (v === "python if") root.sawError = false
    }
    // One binding of the frame, in words: a tracer, a static value or a weakly typed scalar.
    function describeBinding(b) {
        if (b.traced)
            return b.name + " is a tracer: " + b.aval + (b.value ? ", " + b.value : "") + "\n"
                   + "its shape and dtype are known now; its values only when the compiled program runs\n"
                   + "each jax.numpy call on it appends equations to the jaxpr instead of computing"
        if (b.weak)
            return b.name + " is a Python scalar with a weak type\n"
                   + "it takes the dtype of the array it meets instead of promoting it\n"
                   + "it appears in the jaxpr as an inline literal, not as an input"
        return b.name + " is static: " + b.value + ", a plain Python value while tracing\n"
               + "an if or a loop on it runs now and leaves only its effect in the jaxpr\n"
               + "a different value is a new trace and a new compile, as a new shape is"
    }
    function judgeCache() {
        if (root.trace.problem) return
        if (!sim.cacheHit) root.learnerRetraced = true
        else if (root.learnerRetraced) mastery.reach("retrace")
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
                text: "Tracing runs your Python once, with tracers in place of arrays: each carries a shape and a dtype but no numbers, and each jax.numpy call on them appends primitives to the jaxpr. Step a program line by line, change its shapes and static arguments, and watch the jaxpr follow."
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                lineHeight: 1.2
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }

            GridLayout {
                Layout.fillWidth: true
                columns: 2
                columnSpacing: Theme.gapM
                rowSpacing: Theme.gap
                Caption { text: "program" }
                ChoiceRow {
                    Layout.fillWidth: true
                    options: Array.from(sim.programs).map(p => ({ id: p.id, label: p.title }))
                    current: sim.program
                    namePrefix: "ex02Program_"
                    onChosen: id => root.chooseProgram(id)
                }
                Caption { text: "shapes" }
                Flow {
                    Layout.fillWidth: true
                    spacing: Theme.gapM
                    Repeater {
                        model: root.program.knobs.filter(k => !k.choice)
                        delegate: ScrubNumber {
                            id: sizeKnob
                            required property var modelData
                            objectName: "ex02Size_" + modelData.id
                            label: modelData.label
                            Binding on value { value: sim.sizes[sizeKnob.modelData.id] || 0; restoreMode: Binding.RestoreNone }
                            defaultValue: modelData.value
                            // 0 is reachable, so the piece can say in place why a size must be positive.
                            from: 0; to: 65536; stepSize: 8; fineStep: 1; minimumDigits: 4
                            pixelsPerStep: 6
                            onValueEdited: v => root.sizeEdited(modelData.id, v)
                        }
                    }
                }
                // Each program has at most one static argument to choose.
                Caption {
                    visible: root.choiceKnob !== null
                    text: root.choiceKnob ? root.choiceKnob.label + " (static)" : ""
                }
                ChoiceRow {
                    Layout.fillWidth: true
                    visible: root.choiceKnob !== null
                    options: root.choiceKnob ? root.choiceKnob.choices.map(c => ({ id: c, label: c })) : []
                    current: root.choiceKnob ? (sim.choices[root.choiceKnob.id] || "") : ""
                    namePrefix: root.choiceKnob ? "ex02Choice_" + root.choiceKnob.id + "_" : ""
                    onChosen: id => root.choiceEdited(root.choiceKnob.id, id)
                }
            }

            Text {
                objectName: "ex02Problem"
                Layout.fillWidth: true
                visible: text !== ""
                text: root.trace.problem || ""
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                color: Theme.failed
            }

            // The step bar: ← → step, Home and End jump.
            FocusScope {
                id: stepBar
                objectName: "ex02Steps"
                Layout.fillWidth: true
                visible: !root.trace.problem
                implicitHeight: stepRow.implicitHeight
                activeFocusOnTab: true
                Keys.onLeftPressed: root.stepTo(sim.step - 1)
                Keys.onRightPressed: root.stepTo(sim.step + 1)
                Keys.onPressed: event => {
                    if (event.key === Qt.Key_Home) { root.stepTo(0); event.accepted = true }
                    else if (event.key === Qt.Key_End) { root.stepTo((root.trace.stepCount || 1) - 1); event.accepted = true }
                }
                FocusFrame {}
                RowLayout {
                    id: stepRow
                    width: parent.width
                    spacing: Theme.gap
                    SnugButton {
                        objectName: "ex02Back"
                        text: "← back"
                        enabled: sim.step > 0
                        onClicked: { stepBar.forceActiveFocus(); root.stepTo(sim.step - 1) }
                    }
                    SnugButton {
                        objectName: "ex02Next"
                        text: "step →"
                        enabled: !root.cur.last
                        onClicked: { stepBar.forceActiveFocus(); root.stepTo(sim.step + 1) }
                    }
                    SnugButton {
                        objectName: "ex02End"
                        text: "to the end"
                        enabled: !root.cur.last
                        onClicked: { stepBar.forceActiveFocus(); root.stepTo((root.trace.stepCount || 1) - 1) }
                    }
                    MonoText {
                        objectName: "ex02StepText"
                        Layout.leftMargin: Theme.gap
                        color: Theme.inkText
                        text: "step " + ((root.cur.index || 0) + 1) + " of " + (root.trace.stepCount || 0) + " · line " + (root.cur.line || 0)
                    }
                    Item { Layout.fillWidth: true }
                    MonoText {
                        objectName: "ex02Cache"
                        color: sim.cacheHit ? Theme.verified : Theme.inkMuted
                        font.pixelSize: Theme.tinySize
                        text: "jit cache: " + sim.traceCount + (sim.traceCount === 1 ? " trace" : " traces") + " · "
                              + (sim.cacheHit ? "these shapes and static args: cache hit, no retrace"
                                              : "new shapes or static args: retraced")
                    }
                }
            }

            Text {
                objectName: "ex02Note"
                Layout.fillWidth: true
                visible: !root.trace.problem
                text: root.cur.note || ""
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.bodySize
                lineHeight: 1.2
                color: Theme.inkText
            }

            TwoColumns {
                Layout.fillWidth: true
                visible: !root.trace.problem
                firstShare: 0.5
                minimumColumnWidth: Theme.px(420)

                ColumnLayout {
                    spacing: Theme.gap
                    Caption { text: "Python, as the tracer runs it" }
                    Rectangle {
                        Layout.fillWidth: true
                        implicitHeight: source.implicitHeight + Theme.gap * 2
                        color: Theme.card
                        border.color: Theme.cardBorder
                        radius: Theme.radius
                        Column {
                            id: source
                            x: Theme.gap; y: Theme.gap
                            width: parent.width - Theme.gap * 2
                            // By count, as the frame rows below: a retrace with as
                            // many lines re-fills these rather than making them again.
                            Repeater {
                                model: (root.trace.lines || []).length
                                delegate: Rectangle {
                                    id: codeLine
                                    required property int index
                                    readonly property string modelData: (root.trace.lines || [])[index] || ""
                                    readonly property bool lit: index + 1 === root.cur.line
                                    objectName: "ex02Line_" + (index + 1)
                                    width: source.width
                                    height: lineText.implicitHeight + Theme.px(2)
                                    color: lit ? (root.cur.failed ? Theme.problemGround : Theme.accentSoft) : "transparent"
                                    radius: Theme.px(2)
                                    MonoText {
                                        width: Theme.px(22)
                                        horizontalAlignment: Text.AlignRight
                                        anchors.verticalCenter: parent.verticalCenter
                                        text: codeLine.index + 1
                                        color: parent.lit ? Theme.accent : Theme.inkFaint
                                        font.pixelSize: Theme.tinySize
                                    }
                                    MonoText {
                                        id: lineText
                                        x: Theme.px(32)
                                        width: parent.width - x
                                        anchors.verticalCenter: parent.verticalCenter
                                        text: Reader.codeStyled(codeLine.modelData, "python", Theme.codeColorsOnDark)
                                        textFormat: Text.StyledText
                                        elide: Text.ElideRight
                                        color: Theme.inkMuted
                                        font.pixelSize: Theme.tinySize
                                    }
                                }
                            }
                        }
                    }
                    Caption { text: "the frame after this line: traced names hold tracers, static ones plain Python values" }
                    // By count: each step of the scrub re-fills the rows in place;
                    // made again from a new array, the rows (and their cards)
                    // were made and dropped on every step.
                    Repeater {
                        model: (root.cur.frame || []).length
                        delegate: RowLayout {
                            id: frameRow
                            required property int index
                            readonly property var modelData: (root.cur.frame || [])[index] || ({})
                            objectName: "ex02FrameRow_" + modelData.name
                            Layout.fillWidth: true
                            spacing: Theme.gapM
                            HoverHandler { id: frameHover }
                            // Pointing at a name says what kind of value it is during tracing.
                            ExplainCard {
                                objectName: "ex02FrameCard_" + frameRow.modelData.name
                                target: frameRow
                                shown: frameHover.hovered
                                delay: 0
                                text: root.describeBinding(frameRow.modelData)
                            }
                            MonoText {
                                Layout.preferredWidth: Theme.px(120)
                                text: frameRow.modelData.name
                                color: Theme.inkText
                                elide: Text.ElideRight
                            }
                            MonoText {
                                Layout.preferredWidth: Theme.px(70)
                                text: frameRow.modelData.traced ? "traced" : (frameRow.modelData.weak ? "weak" : "static")
                                color: frameRow.modelData.traced ? Theme.accent : Theme.inkMuted
                            }
                            MonoText {
                                objectName: "ex02Frame_" + frameRow.modelData.name
                                Layout.fillWidth: true
                                text: frameRow.modelData.traced ? frameRow.modelData.aval + (frameRow.modelData.value ? "  " + frameRow.modelData.value : "") : frameRow.modelData.value
                                color: Theme.inkText
                                wrapMode: Text.Wrap
                            }
                        }
                    }
                }

                ColumnLayout {
                    spacing: Theme.gap
                    Caption {
                        text: root.cur.added && root.cur.added.length > 0
                              ? "this line appended " + root.cur.added.length + (root.cur.added.length === 1 ? " equation" : " equations")
                              : (root.cur.innerLabel ? "this line recorded into a sub-jaxpr (" + root.cur.innerLabel + ")" : "this line appended nothing")
                    }
                    Rectangle {
                        Layout.fillWidth: true
                        visible: (root.cur.added && root.cur.added.length > 0) || root.cur.inner !== ""
                        implicitHeight: addedText.implicitHeight + Theme.gap * 2
                        color: Theme.card
                        border.color: Theme.accent
                        radius: Theme.radius
                        Text {
                            id: addedText
                            objectName: "ex02Added"
                            x: Theme.gap; y: Theme.gap
                            width: parent.width - Theme.gap * 2
                            text: Reader.codeStyled(root.cur.inner ? root.cur.inner : (root.cur.added || []).join("\n"), "jaxpr", Theme.codeColorsOnDark)
                            textFormat: Text.StyledText
                            wrapMode: Text.WrapAnywhere
                            font.family: Theme.mono; font.pixelSize: Theme.tinySize
                            color: Theme.inkMuted
                        }
                    }
                    Caption { text: root.cur.last && !root.cur.failed ? "the finished jaxpr" : "the jaxpr so far" }
                    Rectangle {
                        Layout.fillWidth: true
                        implicitHeight: jaxprText.implicitHeight + Theme.gap * 2
                        color: Theme.card
                        border.color: Theme.cardBorder
                        radius: Theme.radius
                        Text {
                            id: jaxprText
                            objectName: "ex02Jaxpr"
                            x: Theme.gap; y: Theme.gap
                            width: parent.width - Theme.gap * 2
                            text: Reader.codeStyled(root.cur.jaxpr || "", "jaxpr", Theme.codeColorsOnDark)
                            textFormat: Text.StyledText
                            wrapMode: Text.WrapAnywhere
                            font.family: Theme.mono; font.pixelSize: Theme.tinySize
                            color: Theme.inkMuted
                        }
                    }
                }
            }

            // JAX's error, where the trace stopped, and what to write instead.
            Rectangle {
                objectName: "ex02ErrorCard"
                Layout.fillWidth: true
                visible: !root.trace.problem && root.cur.failed === true
                implicitHeight: errorColumn.implicitHeight + Theme.gapM * 2
                color: Theme.problemGround
                border.color: Theme.failed
                radius: Theme.radius
                ColumnLayout {
                    id: errorColumn
                    x: Theme.gapM; y: Theme.gapM
                    width: parent.width - Theme.gapM * 2
                    spacing: Theme.gap
                    Text {
                        objectName: "ex02Error"
                        Layout.fillWidth: true
                        text: root.trace.error || ""
                        wrapMode: Text.WrapAnywhere
                        font.family: Theme.mono; font.pixelSize: Theme.tinySize
                        color: Theme.inkText
                    }
                    Text {
                        Layout.fillWidth: true
                        text: "The if asks the tracer s > 0 for True or False, and a tracer has no value until the program runs. Branch on data without asking: jnp.where records both sides and a select_n; lax.cond records one cond equation holding both branches. Pick one above, under “branch with”."
                        wrapMode: Text.WordWrap
                        font.family: Theme.sans; font.pixelSize: Theme.smallSize
                        color: Theme.inkMuted
                    }
                }
            }

            TwoColumns {
                Layout.fillWidth: true
                firstShare: 0.6
                minimumColumnWidth: Theme.px(400)
                Text {
                    text: "The jaxprs are libtpusim's model of JAX's tracing, printed as current JAX prints them and checked op for op against shipped jaxpr texts. Nothing here runs JAX or times anything."
                    wrapMode: Text.WordWrap
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize
                    color: Theme.inkFaint
                }
                GoalList {
                    objectName: "ex02Mastery"
                    heading: "Tracing, step by step:"
                    goals: root.goals
                    chapter: mastery.chapter
                }
            }
        }
    }
}
