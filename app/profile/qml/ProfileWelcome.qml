import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Profile

// What to open, and how to record it, before a profile is open; and the
// files opened before, to open again where they still are.
Rectangle {
    id: root
    implicitHeight: body.implicitHeight + 2 * Theme.gapL
    radius: Theme.radius
    color: Theme.card
    border.color: Theme.cardBorder

    ColumnLayout {
        id: body
        x: Theme.gapL
        y: Theme.gapL
        width: root.width - 2 * Theme.gapL
        spacing: Theme.gapM
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.readingWidth
            text: "Open what jax.profiler.trace wrote (the folder, or the .xplane.pb inside its plugins/profile/<run>/), or drop it on the window. Each op the device ran is set beside what the simulator predicts for it on the same chip: what was slow, by how much, and why."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize; lineHeight: 1.3
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        Rectangle {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.readingWidth
            implicitHeight: code.implicitHeight + 2 * Theme.gapM
            radius: Theme.radius
            color: Theme.floor
            MonoText {
                id: code
                x: Theme.gapM
                y: Theme.gapM
                width: parent.width - 2 * Theme.gapM
                text: "f(x).block_until_ready()            # compile and warm up outside the trace\nwith jax.profiler.trace(\"/tmp/profile\"):\n    for _ in range(10):\n        f(x).block_until_ready()"
                color: Theme.inkText
                wrapMode: Text.NoWrap
            }
        }
        Text {
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.readingWidth
            text: "The labs write one with --profile DIR. A trace JSON (perfetto_trace.json.gz) opens too, with times only: it carries no FLOPs or programs to predict from."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }

        ColumnLayout {
            id: before
            objectName: "profilesBefore"
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.readingWidth
            Layout.topMargin: Theme.gap
            visible: before.files.length > 0
            spacing: Theme.gapM
            property var files: []
            function refresh() { files = Profile.openedBefore(6) }
            Component.onCompleted: refresh()
            Connections {
                target: root
                function onVisibleChanged() { if (root.visible) before.refresh() }
            }
            Connections {
                target: Profile
                function onStoredChanged() { before.refresh() }
            }
            Text {
                text: "Opened before"
                font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
                color: Theme.inkText
            }
            Repeater {
                model: before.files
                delegate: RowLayout {
                    id: file
                    required property var modelData
                    Layout.fillWidth: true
                    spacing: Theme.gapM
                    ColumnLayout {
                        Layout.fillWidth: true
                        spacing: Theme.gap / 2
                        MonoText {
                            Layout.fillWidth: true
                            text: file.modelData.name
                            elide: Text.ElideMiddle
                            color: Theme.inkText
                        }
                        Text {
                            Layout.fillWidth: true
                            text: file.modelData.exists
                                  ? file.modelData.devices + (file.modelData.devices === 1 ? " device" : " devices")
                                    + (file.modelData.chip !== "" ? " · " + file.modelData.chip : "") + " · last opened " + file.modelData.when
                                  : "No longer at " + file.modelData.path + ". Its measured ops stay in your progress, on the validation page."
                            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
                            color: Theme.inkMuted
                            wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                        }
                    }
                    PlainButton {
                        objectName: "profileOpenAgain"
                        visible: file.modelData.exists
                        text: "open again"
                        mono: true
                        onClicked: Profile.open(file.modelData.path)
                    }
                }
            }
        }
    }
}
