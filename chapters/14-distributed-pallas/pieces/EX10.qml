import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim
import TpuCourse.Backend

// EX·10 the semaphore timeline: the ring all-gather on four devices, run by
// libtpusim's semaphore model as discrete events. Scrubbing picks an event;
// the model answers the state there. Editing the program (drop a statement,
// swap it with the next) re-runs the model, so a missing copy or signal
// steps straight into a deadlock.
FocusScope {
    id: root
    // Shows its own chip choice: the piece page's title bar leaves its out.
    readonly property bool choosesChip: true
    Mastery { id: mastery; piece: "EX10" }
    property int eventIndex: 0
    property int selected: -1
    property string editError: ""
    property bool credited: false
    readonly property string chip: Course.chip  // the course's one chip: its DMA and ICI figures time the events
    property string program: "ring_all_gather"
    readonly property var run: model.run
    readonly property var events: run.events || []
    readonly property var current: events[eventIndex] || ({})
    // Read again when the run changes, through `run` (converted for the
    // script engine once a run), not model.run (converted again each read).
    readonly property var state: run, model.stateAt(eventIndex)
    readonly property bool atEnd: eventIndex >= events.length - 1

    SemaphoreModel {
        id: model
        resource: ":/chapters/distributed-pallas/programs/" + root.program + ".sem"
        chip: root.chip
        // A working run starts at its first event; a broken one opens at its
        // end, where the devices are stuck. Editing a program into a
        // deadlock is the chapter's mastery item for this piece; opening a
        // shipped broken one does not count.
        onRunChanged: {
            const run = Object(model.run)   // a map from C++, read untyped
            root.eventIndex = run.status === "ok" ? 0 : Math.max(0, (run.events || []).length - 1)
            if (run.status === "deadlock" && edits.length > 0 && !root.credited)
                root.credited = mastery.setDone(true)
        }
    }

    function step(by) { eventIndex = Math.max(0, Math.min(events.length - 1, eventIndex + by)) }
    function edit(result) { editError = result }

    ScrollPage {
        id: scroller
        anchors.fill: parent
        focus: true
        contentHeight: page.implicitHeight

        ColumnLayout {
            id: page
            width: scroller.availableWidth
            spacing: Theme.gap

            ProgramChooser {
                Layout.fillWidth: true
                // An edited program is no longer the shipped one it started from.
                current: model.edits.length > 0 ? "" : root.program
                onChosen: id => { root.program = id; root.selected = -1; root.editError = "" }
            }
            Text {
                objectName: "ex10About"
                Layout.fillWidth: true
                text: model.about + "\n\nStep through the events, then break the program: drop a statement, or swap one with the next, and watch who ends up waiting on what."
                font.family: Theme.sans
                font.pixelSize: Theme.smallSize
                lineHeight: 1.2
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }

            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gapM
                Verdict { Layout.fillWidth: true; run: root.run }
                ChoiceRow {
                    Layout.alignment: Qt.AlignTop
                    namePrefix: "ex10Chip_"
                    options: Array.from(Sim.chips).map(c => ({ id: c.id, label: c.id }))
                    current: root.chip
                    onChosen: id => Course.chip = id
                }
            }

            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gap
                PlainButton {
                    objectName: "ex10Back"
                    text: "◀"; mono: true
                    Layout.preferredWidth: Theme.px(40)
                    onClicked: root.step(-1)
                }
                PlainButton {
                    objectName: "ex10Forward"
                    text: "▶"; mono: true
                    Layout.preferredWidth: Theme.px(40)
                    onClicked: root.step(1)
                }
                EventScrubber {
                    id: scrubber
                    objectName: "ex10Scrub"
                    Layout.fillWidth: true
                    count: Math.max(1, root.events.length)
                    value: root.eventIndex
                    onMoved: v => root.eventIndex = v
                }
                MonoText {
                    objectName: "ex10Now"
                    text: "event " + (root.eventIndex + 1) + "/" + root.events.length + " · t = " + (root.current.time || "")
                    color: Theme.accent
                    font.pixelSize: Theme.smallSize
                }
                ProvenanceBadge {
                    kind: root.run.provenance ? root.run.provenance.kind : "predicted"
                    details: root.run.provenance ? root.run.provenance.details : ""
                }
            }
            MonoText {
                objectName: "ex10EventText"
                Layout.fillWidth: true
                text: root.current.text ? root.current.kind + " · " + root.current.text : ""
                color: Theme.inkText
                font.pixelSize: Theme.smallSize
                wrapMode: Text.WrapAtWordBoundaryOrAnywhere
            }

            TwoColumns {
                Layout.fillWidth: true
                firstShare: 0.6
                spacing: Theme.gapM
                ColumnLayout {
                    spacing: Theme.gap
                    SemLanes {
                        Layout.fillWidth: true
                        spans: root.run.spans || []
                        events: root.events
                        eventIndex: root.eventIndex
                        devices: root.run.devices || 0
                        endS: root.run.endS || 1
                        endText: root.run.end || ""
                        nowS: root.current.timeS || 0
                        deadlock: root.run.deadlock || []
                        races: root.run.races || []
                        nonzero: root.run.nonzero || []
                        atEnd: root.atEnd
                    }
                    DeviceStates { Layout.fillWidth: true; state: root.state }
                }
                ColumnLayout {
                    spacing: Theme.gap
                    // The edit buttons sit above the program, so they stay
                    // put while statements come and go below them.
                    Flow {
                        Layout.fillWidth: true
                        spacing: Theme.gap
                        PlainButton {
                            objectName: "ex10Drop"
                            text: "drop"; mono: true
                            enabled: root.selected >= 0
                            onClicked: { root.edit(model.drop(root.selected)); root.selected = -1 }
                        }
                        PlainButton {
                            objectName: "ex10Swap"
                            text: "swap with next"; mono: true
                            enabled: root.selected >= 0
                            onClicked: root.edit(model.swapWithNext(root.selected))
                        }
                        PlainButton {
                            objectName: "ex10Reset"
                            text: "reset program"; mono: true
                            fillColor: "transparent"; textColor: Theme.accent
                            onClicked: { model.reset(); root.selected = -1; root.editError = "" }
                        }
                    }
                    ProgramList {
                        objectName: "ex10Program"
                        Layout.fillWidth: true
                        statements: model.statements
                        state: root.state
                        selected: root.selected
                        onPicked: i => root.selected = i
                    }
                    Text {
                        Layout.fillWidth: true
                        visible: text.length > 0
                        text: root.editError || Array.from(model.edits).join("\n")
                        color: root.editError ? Theme.failed : Theme.inkMuted
                        font.family: Theme.sans
                        font.pixelSize: Theme.smallSize
                        wrapMode: Text.Wrap
                    }
                }
            }
        }
    }
}
