import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Profile
import TpuCourse.Reading

// A learner's own profile, measured: what jax.profiler recorded on the
// device, op by op, beside what libtpusim predicts for the same op on the
// same chip. The finding first, then the op line in time, the longest ops
// on the roofline, and every op in a table.
ScrollPage {
    id: root
    objectName: "profilePage"
    signal back()
    signal openPlace(string place)
    // Asks the shell to show the program's HLO in the IR x-ray at an op.
    signal openInXray(string text, string origin, string op)

    readonly property var summary: Profile.summary
    readonly property bool ready: Profile.state === "ready"
    readonly property int margin: Math.max(Theme.gapL, (availableWidth - Theme.contentWidth) / 2)
    property int selectedRow: -1
    readonly property var detail: selectedRow >= 0 ? Profile.detail(selectedRow) : ({})
    // Kept while the page is built: a screenshot waits for a read under way.
    readonly property bool busy: Profile.state === "reading"

    function chooseFile() { made(dialogLoader).openHere() }
    readonly property var dialog: dialogLoader.item
    function made(loader) { loader.active = true; return loader.item }

    Connections {
        target: Profile
        function onDeviceChanged() { root.selectedRow = -1 }
        // However a profile came (the dialog, a drop, "open again"), the
        // dialog opens next in its folder.
        function onStateChanged() {
            if (Profile.state === "ready" && Profile.filePath !== "")
                LastFolders.rememberPath("profiles", Profile.filePath)
        }
    }

    contentHeight: column.implicitHeight + Theme.gapXXL * 2
    Rectangle { width: root.width; height: Math.max(root.height, root.contentHeight); color: Theme.floor }

    ColumnLayout {
        id: column
        x: root.margin
        y: Theme.gapXL
        width: root.availableWidth - 2 * root.margin
        spacing: Theme.gapM

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gapM
            PlainButton {
                text: "← back"; mono: true
                fillColor: "transparent"; hoverColor: Theme.cardHover; textColor: Theme.inkMuted
                onClicked: root.back()
            }
            Item { Layout.fillWidth: true }
            PlainButton {
                objectName: "profileOpen"
                text: root.ready ? "open another profile…" : "open a profile…"
                onClicked: root.chooseFile()
            }
        }
        Text {
            Layout.fillWidth: true
            text: "Your profile, measured"
            font.family: Theme.sans; font.pixelSize: Theme.displaySize * 0.8; font.weight: Font.DemiBold
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        MonoText {
            Layout.fillWidth: true
            visible: root.ready
            text: Profile.fileName + " · " + Profile.format + " · " + Profile.devices.length + " device" + (Profile.devices.length === 1 ? "" : "s")
            color: Theme.inkMuted
            elide: Text.ElideMiddle
        }

        ProfileWelcome {
            Layout.fillWidth: true
            visible: Profile.state === "empty" || (Profile.state === "failed" && !root.ready)
        }
        ProfileReading { Layout.fillWidth: true; visible: Profile.state === "reading" }
        ProfileProblem {
            Layout.fillWidth: true
            objectName: "profileProblem"
            visible: Profile.problem !== "" && Profile.state !== "reading"
            text: Profile.problem
        }

        // The device and what it measured.
        ColumnLayout {
            Layout.fillWidth: true
            visible: root.ready
            spacing: Theme.gapM
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gapM
                ChoiceRow {
                    Layout.fillWidth: true
                    namePrefix: "profileDevice_"
                    options: Array.from(Profile.devices).map((d, i) => ({ id: String(i), label: d.label + " · " + d.ops + " ops" }))
                    current: String(Profile.device)
                    onChosen: id => Profile.device = parseInt(id, 10)
                }
                ProvenanceBadge {
                    objectName: "profileMeasuredBadge"
                    kind: "measured"
                    details: root.summary.measuredDetails || ""
                }
            }
            ProfileFinding { Layout.fillWidth: true; summary: root.summary }
            ProfileTimelineCard {
                Layout.fillWidth: true
                litRow: root.selectedRow
                onPicked: row => root.selectedRow = row
            }
            TwoColumns {
                Layout.fillWidth: true
                Layout.preferredHeight: implicitHeight
                firstShare: 0.55
                spacing: Theme.gapL
                ProfileRooflineCard {
                    litRow: root.selectedRow
                    chipName: root.summary.chipName || ""
                    onPicked: row => root.selectedRow = row
                }
                ProfileOpDetail {
                    detail: root.detail
                    onOpenInXray: {
                        const target = Profile.xrayTarget(root.selectedRow)
                        if (target.text)
                            root.openInXray(target.text, target.origin, target.op)
                    }
                }
            }
            ProfileOpTable {
                Layout.fillWidth: true
                programs: root.summary.programNames || []
                selectedRow: root.selectedRow
                onPicked: row => root.selectedRow = row
            }
            Text {
                Layout.fillWidth: true
                visible: Profile.stored !== ""
                text: Profile.stored
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: Theme.inkMuted
                wrapMode: Text.WordWrap
            }
            Repeater {
                model: Profile.notes
                delegate: Text {
                    required property string modelData
                    Layout.fillWidth: true
                    text: modelData
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize
                    color: Theme.inkMuted
                    wrapMode: Text.WordWrap
                }
            }
        }
    }

    Loader {
        id: dialogLoader
        active: false
        sourceComponent: RememberingFileDialog {
            kind: "profiles"
            purpose: "Open a profile"
            nameFilters: ["Profiles (*.xplane.pb *.json *.json.gz)", "All files (*)"]
            onAccepted: Profile.open(String(selectedFile))
        }
    }
}
