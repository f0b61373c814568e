import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend

// Every lab on one page, end to end: a TPU VM, the labs copied over, a run,
// its record (and profile) brought back and imported; then each lab's card
// with its commands, what the app checks, its runs and its gate's attempts.
Flickable {
    id: root
    objectName: "labsPage"
    signal back()
    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)
    readonly property var chapters: Course.chapters
    // What importing any record checks: said once here, each card then says what its lab adds.
    readonly property string everyRecord: {
        for (const c of chapters) {
            const labs = LabRuns.labsOfChapter(c.number)
            if (labs.length) return labs[0].checksOnEveryRecord || ""
        }
        return ""
    }
    // A path as one word of a shell command: quoted only when it must be.
    function shellWord(path) { return /^[A-Za-z0-9_\/.~+-]+$/.test(path) ? path : "'" + path.replace(/'/g, "'\\''") + "'" }
    // The route's commands, with the names a learner replaces in capitals.
    // The VM's shape is Google Cloud's own example [CL-TPUVM]: eight v5e
    // chips, enough for the collectives of L10 and L11.
    readonly property var steps: [
        { text: "Create a TPU VM in a zone where your project has TPU quota.",
          commands: ["gcloud compute tpus tpu-vm create MY_TPU --zone=ZONE --accelerator-type=v5litepod-8 --version=v2-alpha-tpuv5-lite"] },
        { text: LabRuns.labsFolder !== ""
                ? "Copy the labs over (on this machine they are in " + LabRuns.labsFolder + "), then log in."
                : "Copy the labs over (assets/labs in the course's source; this copy of the app has none beside it), then log in.",
          commands: ["gcloud compute tpus tpu-vm scp --recurse " + root.shellWord(LabRuns.labsFolder || "assets/labs")
                     + " MY_TPU:~ --zone=ZONE",
                     "gcloud compute tpus tpu-vm ssh MY_TPU --zone=ZONE"] },
        { text: "On the VM, install JAX within the range the labs are written for; each script checks it as it starts and says what to install when it is out of range.",
          commands: ["pip install -U 'jax[tpu]>=0.7,<0.12'", "cd labs"] },
        { text: "Run a lab with the commands on its card below; add --profile DIR to write a jax.profiler trace, so its gate is judged on the device's own time.",
          commands: ["python3 l07_tiled_matmul.py --out run-L07.json --profile prof-L07"] },
        { text: "Bring the record back, and its profile folder beside it.",
          commands: ["gcloud compute tpus tpu-vm scp MY_TPU:~/labs/run-L07.json . --zone=ZONE",
                     "gcloud compute tpus tpu-vm scp --recurse MY_TPU:~/labs/prof-L07 . --zone=ZONE"] },
        { text: "Import it: drop the file on this window, use its card's import button, or from a terminal:",
          commands: ["tpu-course --import-run run-L07.json"] }
    ]

    contentWidth: width
    contentHeight: column.implicitHeight + Theme.gapXXL * 2
    boundsBehavior: Flickable.StopAtBounds
    clip: true
    ScrollBar.vertical: ScrollBar { policy: ScrollBar.AsNeeded }

    Rectangle { width: root.width; height: Math.max(root.height, root.contentHeight); color: Theme.floor }

    ColumnLayout {
        id: column
        x: root.margin
        y: Theme.gapXL
        width: Math.min(root.width - 2 * root.margin, Theme.px(900))
        spacing: Theme.gapM

        PlainButton {
            text: "← the stack"; mono: true
            fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.inkMuted
            onClicked: root.back()
        }
        Text {
            objectName: "labsTitle"
            text: "The labs"
            font.family: Theme.sans; font.pixelSize: Theme.displaySize * 0.8; font.weight: Font.DemiBold
            color: Theme.inkText
        }
        Text {
            Layout.fillWidth: true
            text: "The only road to measured. Each lab is a script you run on a real TPU; it writes a run record that this app checks and keeps. A record made on a TPU is measured; a kernel lab run with --interpret on your own machine writes a record verified off-chip, which proves it correct and claims no speed. Gates pass only on measured runs, and every attempt is kept."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }

        MonoText { Layout.topMargin: Theme.gapL; text: "end to end"; color: Theme.inkFaint; font.pixelSize: Theme.tinySize }
        Repeater {
            model: root.steps
            ColumnLayout {
                id: step
                required property var modelData
                required property int index
                Layout.fillWidth: true
                spacing: Theme.gap / 2
                Text {
                    objectName: "labsStep"
                    Layout.fillWidth: true
                    text: (step.index + 1) + ". " + step.modelData.text
                    font.family: Theme.sans; font.pixelSize: Theme.bodySize
                    color: Theme.inkText
                    wrapMode: Text.WordWrap
                }
                Repeater {
                    model: step.modelData.commands
                    ShellCommand {
                        required property string modelData
                        Layout.fillWidth: true
                        command: modelData
                    }
                }
            }
        }

        MonoText { Layout.topMargin: Theme.gapL; text: "what every import checks"; color: Theme.inkFaint; font.pixelSize: Theme.tinySize }
        Text {
            objectName: "labsEveryRecord"
            Layout.fillWidth: true
            text: root.everyRecord
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; lineHeight: 1.3
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }

        MonoText { Layout.topMargin: Theme.gapL; text: "every lab, by chapter"; color: Theme.inkFaint; font.pixelSize: Theme.tinySize }
        Repeater {
            model: root.chapters
            ColumnLayout {
                id: chapterLabs
                required property var modelData
                readonly property var labs: Course.revision >= 0 ? LabRuns.labsOfChapter(modelData.number) : []
                visible: labs.length > 0
                Layout.fillWidth: true
                spacing: Theme.gapM
                MonoText {
                    text: "ch " + String(chapterLabs.modelData.number).padStart(2, "0") + " · " + chapterLabs.modelData.title
                    color: Theme.inkMuted
                }
                Repeater {
                    model: chapterLabs.labs
                    LabCard {
                        required property var modelData
                        Layout.fillWidth: true
                        lab: modelData
                        showEveryRecordChecks: false
                    }
                }
            }
        }
    }
}
