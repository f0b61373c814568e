pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// A drill's round, the same for every drill: what is due, the question
// (its givens and, when it has one, its code), a field per answer, and once
// checked, each answer against the model's and the worked explanation, every
// figure predicted, or assumed where it is a chip figure no source
// publishes. It works from the keyboard alone: type, Enter to the next empty
// field, Enter once all are answered to check, Enter again for the next
// question.
// The piece owns the data: it sets `question`, `result` and `stats`, and
// answers `checkRequested`, `nextRequested` and `regradeRequested` (the
// learner's own grade for a right answer, which replaces the one given).
ColumnLayout {
    id: root
    property var question: ({})
    property var result: null          // the check, null until answered
    property string refusal: ""        // one sentence when an answer could not be read
    property var stats: ({})
    property string codeHtml: ""       // the question's code, coloured by the piece
    property string intro: ""
    property bool compact: false
    readonly property var fields: question.fields || []
    readonly property bool answered: result !== null && result !== undefined
    property double startedAt: Date.now()

    signal checkRequested(var answers, int elapsedMs)
    signal nextRequested()
    signal regradeRequested(string grade)

    spacing: Theme.gapM

    // Set into a chapter's text (compact), the round takes the keyboard only
    // once the learner has answered in it: opening the chapter leaves the
    // keys to the reader.
    property bool engaged: false
    onQuestionChanged: {
        startedAt = Date.now()
        refusal = ""
        // A moment later: the round's fields are made after its question.
        Qt.callLater(() => { if (!root.compact || root.engaged) root.focusFirstField() })
    }
    // Qt.callLater is a method; qmllint 6.4 reads it as a property.
    onAnsweredChanged: if (answered) Qt.callLater(() => nextButton.forceActiveFocus()) // qmllint disable type

    function fieldItem(i) {
        const row = fieldRows.itemAt(i)
        return row ? Object(row).input : null   // the row's alias: itemAt() is typed Item
    }
    function focusFirstField() {
        const f = fieldItem(0)
        if (f) f.forceActiveFocus()
    }
    function answers() {
        const out = {}
        for (let i = 0; i < fields.length; ++i) {
            const f = fieldItem(i)
            out[fields[i].id] = f ? f.text : ""
        }
        return out
    }
    // A field asked only for some answers ("reason" when "legal" is no) is
    // skipped on the way through when the typed answer does not need it.
    function needed(i) {
        const f = fields[i]
        if (!f.onlyWhenField) return true
        for (let j = 0; j < fields.length; ++j)
            if (fields[j].id === f.onlyWhenField) {
                const typed = (fieldItem(j) ? fieldItem(j).text : "").trim().toLowerCase()
                const no = ["no", "n", "illegal", "false", "not legal"]
                return f.onlyWhenValue === "no" ? no.indexOf(typed) >= 0 : typed === f.onlyWhenValue
            }
        return true
    }
    // Enter goes on to the next needed field still empty, round to the
    // first; once every one holds an answer, it checks. So a refused
    // answer, retyped, is checked at once, not walked through again.
    function advanceFrom(i) {
        for (let step = 1; step < fields.length; ++step) {
            const j = (i + step) % fields.length
            const f = fieldItem(j)
            if (f && needed(j) && f.text.trim() === "") {
                f.forceActiveFocus()
                return
            }
        }
        submit()
    }
    // An answer that could not be read: the sentence shown, and the keys
    // back in the field it was about, its text selected to retype.
    function refuse(sentence, fieldId) {
        refusal = sentence
        const i = fields.findIndex(f => f.id === fieldId)
        const f = fieldItem(i >= 0 ? i : 0)
        if (f) {
            f.forceActiveFocus()
            f.selectAll()
        }
    }
    function submit() {
        if (answered) return
        engaged = true
        root.checkRequested(answers(), Math.round(Date.now() - startedAt))
    }

    // The drill's introduction over the question's column, held to a
    // reading measure, and over the answers' column what is due, the level
    // and how the drill has gone: side by side they take no more height
    // than the introduction did across the window.
    RowLayout {
        objectName: "drillHead"
        Layout.fillWidth: true
        spacing: columns.spacing

        Text {
            objectName: "drillIntro"
            Layout.fillWidth: true
            Layout.preferredWidth: columns.sideBySide ? columns.firstWidth : ProseMeasure.width(font.pixelSize, Theme.cardMeasure)
            Layout.maximumWidth: Layout.preferredWidth
            Layout.alignment: Qt.AlignTop
            rightPadding: Math.max(0, width - ProseMeasure.width(font.pixelSize, Theme.cardMeasure))
            visible: !root.compact && root.intro !== ""
            text: root.intro
            wrapMode: Text.WordWrap
            lineHeight: 1.2
            font.family: Theme.sans; font.pixelSize: Theme.bodySize
            color: Theme.inkMuted
        }

        // What is due, the level, and how the drill has gone.
        RowLayout {
            objectName: "drillStats"
            // What the introduction leaves, and at least a short line's room.
            Layout.fillWidth: true
            Layout.preferredWidth: 0
            Layout.minimumWidth: Theme.px(280)
            Layout.alignment: Qt.AlignTop
            spacing: Theme.gapL

            // A positioner, not a layout: wrapped lines in a column layout
            // keep the height of an earlier wrapping, spread out in it.
            Column {
                id: dueColumn
                Layout.fillWidth: true
                Layout.alignment: Qt.AlignTop
                spacing: Theme.gap / 2
                Text {
                    objectName: "drillDue"
                    width: dueColumn.width
                    text: root.stats.ahead
                          ? "Ahead of the path: chapter " + root.stats.chapter + " is not open yet, so nothing here is due. Its " + root.stats.kinds + " card kinds are new: practise them now if you like."
                          : root.stats.due > 0
                            ? root.stats.due + " of " + root.stats.kinds + " card kinds due today: " + (root.stats.dueKinds || []).join(", ")
                            : "Nothing due today; practice goes on with the kind seen longest ago."
                    wrapMode: Text.WordWrap
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
                    color: Theme.inkText
                }
                Text {
                    objectName: "drillRecord"
                    width: dueColumn.width
                    text: "level " + (root.stats.level || 1) + " of " + (root.stats.maxLevel || 3)
                          + "  ·  " + (root.stats.reviews || 0) + (root.stats.reviews === 1 ? " review" : " reviews")
                          + "  ·  accuracy " + (root.stats.reviews ? Math.round(100 * root.stats.accuracy) + " %" : "–")
                          + "  ·  retention " + (root.stats.retention !== undefined && root.stats.retention !== null
                                                 ? Math.round(100 * root.stats.retention) + " %" : "–")
                    wrapMode: Text.WordWrap
                    font.family: Theme.mono; font.pixelSize: Theme.tinySize + 1
                    color: Theme.inkMuted
                }
            }
            // Reviews per day, the last 14 days.
            Column {
                objectName: "drillPerDay"
                spacing: Theme.gap / 2
                Layout.alignment: Qt.AlignTop
                Row {
                    spacing: Theme.px(3)
                    height: Theme.px(28)
                    Repeater {
                        model: root.stats.perDay || []
                        Rectangle {
                            required property var modelData
                            width: Theme.px(7)
                            height: Math.max(1, Theme.px(28) * modelData.reviews / Math.max(1, root.stats.mostPerDay || 1))
                            y: Theme.px(28) - height
                            color: modelData.reviews > 0 ? Theme.accent : Theme.cardBorder
                            radius: 1
                        }
                    }
                }
                Text {
                    text: "reviews a day, 14 days"
                    font.family: Theme.sans; font.pixelSize: Theme.tinySize
                    color: Theme.inkMuted
                }
            }
        }
    }

    TwoColumns {
        id: columns
        Layout.fillWidth: true
        Layout.preferredHeight: implicitHeight
        firstShare: 0.5
        minimumColumnWidth: Theme.px(400)

        // The question and the answer fields.
        ColumnLayout {
            spacing: Theme.gapM

            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gapM
                MonoText {
                    objectName: "drillKind"
                    text: (root.question.kindName || "") + "  ·  level " + (root.question.level || 1)
                    color: Theme.accent
                    font.pixelSize: Theme.tinySize + 1
                }
                Item { Layout.fillWidth: true }
            }
            Text {
                objectName: "drillPrompt"
                Layout.fillWidth: true
                text: root.question.prompt || root.question.error || ""
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
                color: Theme.inkText
            }
            GridLayout {
                objectName: "drillGivens"
                Layout.fillWidth: true
                columns: 2
                columnSpacing: Theme.gapM
                rowSpacing: Theme.gap / 2
                Repeater {
                    model: (root.question.givens || []).length * 2
                    Text {
                        required property int index
                        readonly property var given: root.question.givens[Math.floor(index / 2)]
                        readonly property bool isLabel: index % 2 === 0
                        Layout.fillWidth: !isLabel
                        Layout.alignment: Qt.AlignTop
                        text: isLabel ? given.label : given.value
                        wrapMode: isLabel ? Text.NoWrap : Text.Wrap
                        font.family: isLabel ? Theme.sans : Theme.mono
                        font.pixelSize: Theme.smallSize
                        color: isLabel ? Theme.inkMuted : Theme.inkText
                    }
                }
            }
            Rectangle {
                objectName: "drillCode"
                Layout.fillWidth: true
                visible: root.codeHtml !== ""
                implicitHeight: codeView.height + 2 * Theme.gapM
                color: Theme.floor
                radius: Theme.radius
                border.color: Theme.cardBorder
                // A line too long for the box scrolls sideways, as the reader's code does.
                SidewaysScroll {
                    id: codeView
                    objectName: "drillCodeView"
                    barName: "drillCodeBar"
                    x: Theme.gapM; y: Theme.gapM
                    width: parent.width - 2 * Theme.gapM
                    contentWidth: codeText.implicitWidth
                    contentHeight: codeText.implicitHeight
                    Text {
                        id: codeText
                        text: root.codeHtml
                        textFormat: Text.StyledText
                        font.family: Theme.mono; font.pixelSize: Theme.codeSize
                        color: Theme.inkText
                    }
                }
            }

            Repeater {
                id: fieldRows
                model: root.fields
                ColumnLayout {
                    id: row
                    required property var modelData
                    required property int index
                    property alias input: input
                    Layout.fillWidth: true
                    spacing: Theme.gap / 2
                    Text {
                        Layout.fillWidth: true
                        text: row.modelData.type === "choice"
                              ? row.modelData.label + ": " + row.modelData.choices.join(", ")
                                + (row.modelData.onlyWhenField ? " (only when not legal)" : "")
                              : row.modelData.type === "shape" ? row.modelData.label + ", like (8, 128, 512)"
                              : row.modelData.type === "dims" ? row.modelData.label + ", like [2] x [1]"
                              : row.modelData.type === "count" ? row.modelData.label + " (within " + Math.round(100 * row.modelData.tolerance) + " % counts)"
                              : row.modelData.label + " (in " + row.modelData.unit + " unless you write a unit; within "
                                + Math.round(100 * row.modelData.tolerance) + " % counts)"
                        wrapMode: Text.WordWrap
                        font.family: Theme.sans; font.pixelSize: Theme.smallSize
                        color: Theme.inkMuted
                    }
                    ThemedField {
                        id: input
                        objectName: "drillField_" + row.modelData.id
                        Layout.fillWidth: true
                        font.family: Theme.mono
                        readOnly: root.answered
                        placeholderText: row.modelData.type === "choice" ? row.modelData.choices.join(" / ")
                                       : row.modelData.type === "time" ? "e.g. 4.1 ms"
                                       : row.modelData.type === "bytes" ? "e.g. 4.5 MiB"
                                       : row.modelData.type === "shape" ? "e.g. (8, 128, 512)"
                                       : row.modelData.type === "dims" ? "e.g. [2] x [1]"
                                       : row.modelData.type === "count" ? "e.g. 1.07e9"
                                       : "e.g. 240"
                        Keys.onReturnPressed: root.advanceFrom(row.index)
                        Keys.onEnterPressed: root.advanceFrom(row.index)
                        Connections {
                            target: root
                            function onQuestionChanged() { input.text = "" }
                        }
                    }
                }
            }

            Text {
                objectName: "drillRefusal"
                Layout.fillWidth: true
                visible: root.refusal !== ""
                // The learner's own words are quoted in it: shown as typed, never as markup.
                textFormat: Text.PlainText
                text: root.refusal + " Not counted."
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: Theme.failed
            }
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gapM
                PlainButton {
                    objectName: "drillCheck"
                    visible: !root.answered
                    text: "Check (Enter)"
                    fillColor: Theme.accent
                    hoverColor: Theme.accentHover
                    textColor: Theme.ink
                    onClicked: root.submit()
                }
                PlainButton {
                    id: nextButton
                    objectName: "drillNext"
                    visible: root.answered
                    text: "Next question (Enter)"
                    fillColor: Theme.accent
                    hoverColor: Theme.accentHover
                    textColor: Theme.ink
                    onClicked: root.nextRequested()
                }
                Item { Layout.fillWidth: true }
            }
        }

        // The answers against the model's, and the worked explanation.
        ColumnLayout {
            objectName: "drillResult"
            spacing: Theme.gapM

            Text {
                Layout.fillWidth: true
                visible: !root.answered
                text: "Answer, then press Enter: each answer is checked against the simulator's, and a worked explanation follows."
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: Theme.inkMuted
            }
            Text {
                objectName: "drillVerdict"
                Layout.fillWidth: true
                visible: root.answered
                text: !root.answered ? ""
                      : (root.result.correct ? "Right" : "Not quite: " + root.result.fieldsRight + " of " + root.result.fieldsAsked + " right")
                        + ".  Graded " + root.result.grade + "; this kind comes back "
                        + (root.result.relearnMinutes > 0 ? "in " + root.result.relearnMinutes + " minutes, in this session."
                           : "in " + root.result.intervalDays + (root.result.intervalDays === 1 ? " day." : " days."))
                wrapMode: Text.WordWrap
                font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
                color: root.answered && !root.result.correct ? Theme.failed : Theme.inkText
            }
            // A right answer's grade is the learner's to change: "easy" puts
            // the kind off for longer, "again" ("I guessed") brings it back
            // in this session. A wrong one stays "again".
            Row {
                objectName: "drillGrades"
                visible: root.answered && root.result.correct === true
                spacing: Theme.gapM
                Text {
                    anchors.verticalCenter: parent.verticalCenter
                    text: "your grade"
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize
                    color: Theme.inkMuted
                }
                ChoiceRow {
                    options: [{ id: "again", label: "again" }, { id: "hard", label: "hard" },
                              { id: "good", label: "good" }, { id: "easy", label: "easy" }]
                    current: root.answered ? root.result.grade || "" : ""
                    namePrefix: "drillGrade:"
                    // The keys stay with "next": Enter still moves on.
                    onChosen: grade => { root.regradeRequested(grade); nextButton.forceActiveFocus() }
                }
            }
            Repeater {
                model: root.answered ? root.result.fields.filter(f => f.asked) : []
                RowLayout {
                    id: check
                    required property var modelData
                    Layout.fillWidth: true
                    spacing: Theme.gap
                    Text {
                        Layout.alignment: Qt.AlignTop
                        text: check.modelData.correct ? "✓" : "✗"
                        font.family: Theme.mono; font.pixelSize: Theme.smallSize
                        color: check.modelData.correct ? Theme.inkText : Theme.failed
                    }
                    Text {
                        Layout.fillWidth: true
                        textFormat: Text.PlainText
                        text: check.modelData.label + ": you " + (check.modelData.readAs || "(nothing)") + ";  model " + check.modelData.expected
                        wrapMode: Text.Wrap
                        font.family: Theme.mono; font.pixelSize: Theme.smallSize
                        color: Theme.inkText
                    }
                    ProvenanceBadge {
                        Layout.alignment: Qt.AlignTop
                        kind: "predicted"
                        details: "predicted by libtpusim: the model's answer to this question"
                    }
                }
            }
            Text {
                Layout.fillWidth: true
                visible: root.answered
                text: "Worked"
                font.family: Theme.sans; font.pixelSize: Theme.smallSize; font.weight: Font.DemiBold
                color: Theme.inkMuted
            }
            Repeater {
                objectName: "drillSteps"
                model: root.answered ? root.result.steps : []
                RowLayout {
                    id: step
                    required property var modelData
                    required property int index
                    Layout.fillWidth: true
                    spacing: Theme.gap
                    MonoText {
                        Layout.alignment: Qt.AlignTop
                        // Padded to the longest number, so that "10." lines up with "9.".
                        text: String(step.index + 1).padStart(String(root.result.steps.length).length, " ") + "."
                        color: Theme.inkMuted
                    }
                    Text {
                        Layout.fillWidth: true
                        text: step.modelData.text
                        wrapMode: Text.Wrap
                        font.family: Theme.sans; font.pixelSize: Theme.smallSize
                        color: Theme.inkText
                    }
                    MonoText {
                        Layout.alignment: Qt.AlignTop
                        visible: step.modelData.figure !== ""
                        text: step.modelData.figure
                        color: step.modelData.assumed ? Theme.assumed : Theme.predicted
                    }
                    ProvenanceBadge {
                        Layout.alignment: Qt.AlignTop
                        visible: step.modelData.figure !== ""
                        kind: step.modelData.assumed ? "assumed" : "predicted"
                        details: step.modelData.assumed ? "the simulator's own figure: no source publishes one"
                                                        : "predicted by libtpusim"
                    }
                }
            }
        }
    }
}
