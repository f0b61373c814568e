pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Reading
import TpuCourse.Backend

// The top of the page: what the course is, where the learner stands, the way in.
Rectangle {
    id: root
    signal openPlace(string place)
    color: Theme.page
    implicitHeight: content.implicitHeight + Theme.gapXXL * 2

    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)
    readonly property var next: Array.from(Course.chapters).find(c => c.number === Course.nextChapter)
    // Where the learner left off reading, when they have read anywhere:
    // the path continues there rather than at the first chapter not done.
    readonly property var resume: Reading.lastChapter > 0 ? Array.from(Course.chapters).find(c => c.number === Reading.lastChapter) : undefined

    // Plain positioners, not Qt Quick Layouts: each text gets its width as
    // it is made, so it is shaped once, not again when a layout settles.
    Item {
        id: content
        x: root.margin
        y: Theme.gapXXL
        width: root.width - 2 * root.margin
        implicitHeight: Math.max(intro.implicitHeight, aside.implicitHeight)

        Column {
            id: intro
            width: aside.x - Theme.gapXL
            spacing: Theme.gapM

            MonoText {
                text: "a mastery course · one path · down the stack"
                color: Theme.pageMuted
            }
            Text {
                width: parent.width
                text: "Learn to make TPUs fast."
                font.family: Theme.sans
                font.pixelSize: Theme.displaySize
                font.weight: Font.DemiBold
                font.letterSpacing: -1
                color: Theme.pageInk
                wrapMode: Text.WordWrap
            }
            Text {
                objectName: "stackIntro"
                width: Math.min(parent.width, Theme.px(640))
                text: "This page is the stack. Scroll and you descend it: four layers of compiler land on paper, the gap, then the shaded depths where kernels live. Each layer is a chapter with its mastery work; the stages are pinned where they belong; your progress rides on every entry."
                font.family: Theme.sans
                font.pixelSize: Theme.bodySize
                lineHeight: 1.35
                color: Theme.pageMuted
                wrapMode: Text.WordWrap
            }
            Row {
                spacing: Theme.gapL
                MonoText {
                    objectName: "gatesPassed"
                    text: Course.gatesPassed + "/" + Course.gateCount + " gates passed"
                    font.pixelSize: Theme.bodySize
                }
                MonoText {
                    objectName: "chaptersDone"
                    text: "your progress " + Course.chaptersDone + "/" + Course.chapterCount + " chapters"
                    font.pixelSize: Theme.bodySize
                }
            }
            // The drills' card kinds due today, each a way into its drill.
            Row {
                objectName: "drillsDue"
                spacing: Theme.gapM
                // Read through revision, so progress (an answer, a chapter opened) re-counts them.
                readonly property var drills: Drills.revision >= 0 ? Drills.dueToday() : []
                visible: drills.length > 0
                MonoText {
                    text: "drills due today"
                    font.pixelSize: Theme.bodySize
                    height: dueButtons.count > 0 && dueButtons.itemAt(0) ? dueButtons.itemAt(0).height : implicitHeight
                    verticalAlignment: Text.AlignVCenter
                }
                Repeater {
                    id: dueButtons
                    model: parent.drills
                    delegate: SnugButton {
                        required property var modelData
                        objectName: "due_" + modelData.id
                        mono: true
                        text: modelData.id + " · " + modelData.due
                        Accessible.name: modelData.id + " " + modelData.name + ": " + modelData.due + " card kinds due today"
                        onClicked: root.openPlace(modelData.id)
                    }
                }
            }
            PlainButton {
                objectName: "startButton"
                text: root.resume
                      ? "continue → chapter " + root.resume.number
                        + (Reading.lastTitle ? " at “" + Reading.lastTitle + "”" : " · " + root.resume.title)
                      : (Course.started ? "continue → " : "start the path → ")
                        + (root.next ? "chapter " + root.next.number + " · " + root.next.title : "")
                onClicked: root.openPlace("ch" + String(root.resume ? root.resume.number : Course.nextChapter).padStart(2, "0"))
            }
            Column {
                spacing: Theme.gap
                topPadding: Theme.gap
                Repeater {
                    model: [
                        { n: "01", goal: "Read any IR on sight", how: "narrate unfamiliar dumps, decode any dot_general", place: "ch12" },
                        { n: "02", goal: "Write kernels that beat XLA", how: "derived, differential-tested, benchmarked", place: "ch11" },
                        { n: "03", goal: "Treat the cluster as one kernel", how: "communication hidden behind compute", place: "ch14" }
                    ]
                    delegate: Row {
                        id: aim
                        required property var modelData
                        spacing: Theme.gapM
                        MonoText { text: aim.modelData.n; color: Theme.pageAccent; font.pixelSize: Theme.bodySize }
                        Text {
                            text: aim.modelData.goal
                            font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
                            color: Theme.pageInk
                        }
                        Text {
                            text: "· " + aim.modelData.how
                            font.family: Theme.sans; font.pixelSize: Theme.bodySize
                            color: Theme.pageMuted
                        }
                    }
                }
            }
        }

        // EX·03 running live, then the honesty rule: what every number on the page is.
        Column {
            id: aside
            x: content.width - width
            width: Theme.px(420)
            spacing: Theme.gapM
            LiveAttentionCard {
                width: parent.width
                onOpenPlace: place => root.openPlace(place)
            }
            Rectangle {
                width: parent.width
                implicitHeight: rule.implicitHeight + Theme.gapL * 2
                radius: Theme.radius
                color: Theme.ink
                Column {
                    id: rule
                    objectName: "honestyRule"
                    x: Theme.gapL; y: Theme.gapL
                    width: parent.width - 2 * Theme.gapL
                    spacing: Theme.gapM
                    MonoText { text: "the honesty rule"; color: Theme.inkMuted }
                    Text {
                        width: parent.width
                        text: "Gates pass only on real hardware, and failures stay published. Every value in this course states what it is."
                        font.family: Theme.sans; font.pixelSize: Theme.bodySize; lineHeight: 1.3
                        color: Theme.inkText
                        wrapMode: Text.WordWrap
                    }
                    Repeater {
                        model: Provenance.kinds
                        delegate: Item {
                            id: kindRow
                            required property var modelData
                            width: rule.width
                            height: Math.max(badge.height, what.implicitHeight)
                            ProvenanceBadge {
                                id: badge
                                width: Theme.px(150)
                                anchors.verticalCenter: parent.verticalCenter
                                kind: kindRow.modelData.kind
                            }
                            Text {
                                id: what
                                x: badge.width + Theme.gapM
                                width: parent.width - x
                                anchors.verticalCenter: parent.verticalCenter
                                text: kindRow.modelData.brief
                                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                                color: Theme.inkMuted
                                wrapMode: Text.WordWrap
                            }
                        }
                    }
                }
            }
        }
    }
}
