pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Profile

// The models against your own profiles: every imported device's ops that
// the simulator predicted, measured beside predicted, and how wrong.
ColumnLayout {
    id: root
    property var profiles: []
    // A file kept before, to open again on the profile page (and price it with this build).
    signal openAgain(string path)
    function refresh() { profiles = Profile.storedProfiles() }
    Component.onCompleted: refresh()
    onVisibleChanged: if (visible) refresh()
    Connections {
        target: Profile
        function onStoredChanged() { root.refresh() }
    }
    spacing: Theme.gapM

    Text {
        Layout.fillWidth: true
        Layout.topMargin: Theme.gapXL
        text: "On your own profiles"
        font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
        color: Theme.inkText
    }
    Text {
        Layout.fillWidth: true
        Layout.maximumWidth: Theme.px(860)
        text: root.profiles.length === 0
              ? "No profile imported yet. Open one on the profile page (or drop it on the window): each op the device measured is set beside what these models predict for it, and counts here."
              : "Each device of each profile you imported: the device's own time for an op's run, measured by the profiler, beside what the simulator predicted for it when it was imported, or when a later build opened the same file and predicted differently (each device says which). “open again” opens a file on the profile page and prices it with this build. Errors are left out where both are under a microsecond."
        font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
        color: Theme.inkMuted
        wrapMode: Text.WordWrap
    }
    Repeater {
        model: root.profiles
        delegate: ColumnLayout {
            id: block
            required property var modelData
            Layout.fillWidth: true
            spacing: Theme.gap / 2
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gap
                MonoText { text: block.modelData.title; color: Theme.accent }
                ProvenanceBadge { kind: "measured"; details: block.modelData.details }
                MonoText {
                    Layout.fillWidth: true
                    objectName: "profilePriced"
                    text: block.modelData.summary + " · " + block.modelData.priced
                    color: Theme.inkMuted; font.pixelSize: Theme.tinySize; wrapMode: Text.WordWrap
                }
                PlainButton {
                    objectName: "validationOpenAgain"
                    visible: block.modelData.firstOfFile && block.modelData.exists
                    text: "open again"
                    mono: true
                    onClicked: root.openAgain(block.modelData.path)
                }
            }
            OpLine { header: true }
            Repeater {
                model: block.modelData.ops
                delegate: OpLine {
                    required property var modelData
                    op: modelData
                }
            }
        }
    }

    // One op of a device, or with `header` set, the names of the columns.
    component OpLine: RowLayout {
        id: line
        property var op: ({})
        property bool header: false
        readonly property color headerInk: Theme.inkMuted
        Layout.fillWidth: true
        spacing: Theme.gapM
        MonoText {
            Layout.preferredWidth: Theme.px(260)
            text: line.header ? "op" : line.op.op
            color: line.header ? line.headerInk : Theme.inkText
            font.pixelSize: Theme.tinySize; wrapMode: Text.WrapAtWordBoundaryOrAnywhere
        }
        MonoText {
            Layout.preferredWidth: Theme.px(200)
            text: line.header ? "kind" : line.op.kind
            color: Theme.inkMuted
            font.pixelSize: Theme.tinySize; wrapMode: Text.WrapAtWordBoundaryOrAnywhere
        }
        MonoText {
            Layout.preferredWidth: Theme.px(100)
            text: line.header ? "measured" : line.op.measured
            color: line.header ? line.headerInk : Theme.measured
            font.pixelSize: Theme.tinySize; horizontalAlignment: Text.AlignRight
        }
        MonoText {
            Layout.preferredWidth: Theme.px(100)
            text: line.header ? "predicted" : line.op.predicted
            color: line.header ? line.headerInk : Theme.predicted
            font.pixelSize: Theme.tinySize; horizontalAlignment: Text.AlignRight
        }
        MonoText {
            Layout.preferredWidth: Theme.px(80)
            text: line.header ? "error" : line.op.errorText
            color: line.header ? line.headerInk : Theme.inkText
            font.pixelSize: Theme.tinySize; horizontalAlignment: Text.AlignRight
        }
        MonoText {
            Layout.fillWidth: true
            text: line.header ? "model" : line.op.model
            color: Theme.inkFaint
            font.pixelSize: Theme.tinySize; wrapMode: Text.WrapAtWordBoundaryOrAnywhere
        }
    }
}
