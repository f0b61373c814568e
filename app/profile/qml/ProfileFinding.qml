import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// What took the device's time and why, then the figures behind it: the
// device's busy and idle time, the host link, the programs, the longest gaps.
Rectangle {
    id: root
    property var summary: ({})
    readonly property var groups: [
        { title: "host link", lines: root.summary.hostLink || [] },
        { title: "programs", lines: root.summary.programs || [] },
        { title: "longest idle gaps", lines: (root.summary.gaps || []).slice(0, 4) }
    ].filter(g => g.lines.length > 0)
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
            objectName: "profileFinding"
            Layout.fillWidth: true
            Layout.maximumWidth: Theme.px(1000)
            // A figure stays with its unit, and a rate's unit stays whole.
            text: (root.summary.finding || "").replace(/(\d) (?=[A-Za-zµ%])/g, "$1\u00a0").replace(/\//g, "/\u2060")
            font.family: Theme.sans; font.pixelSize: Theme.subheadingSize; lineHeight: 1.25
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        Flow {
            Layout.fillWidth: true
            spacing: Theme.gapXL
            Repeater {
                model: [
                    { label: "busy", value: root.summary.busy },
                    { label: "idle between ops", value: root.summary.idle },
                    { label: "first op to last", value: root.summary.span },
                    { label: "op events", value: (root.summary.opEvents || 0).toLocaleString(Qt.locale("en_US"), "f", 0) + " on " + (root.summary.opsLine || "") }
                ]
                delegate: Column {
                    id: figure
                    required property var modelData
                    spacing: Theme.gap / 2
                    MonoText { text: figure.modelData.label; color: Theme.inkMuted; font.pixelSize: Theme.tinySize }
                    MonoText { text: figure.modelData.value || "–"; color: Theme.measured; font.pixelSize: Theme.bodySize }
                }
            }
        }
        // Side by side where the width allows, one under another where not.
        GridLayout {
            Layout.fillWidth: true
            columns: Math.max(1, Math.min(root.groups.length, Math.floor(body.width / Theme.px(330))))
            columnSpacing: Theme.gapL
            rowSpacing: Theme.gapM
            Repeater {
                model: root.groups
                delegate: ColumnLayout {
                    id: group
                    required property var modelData
                    Layout.fillWidth: true
                    Layout.alignment: Qt.AlignTop
                    Layout.preferredWidth: 1
                    spacing: Theme.gap / 2
                    MonoText { text: group.modelData.title; color: Theme.accent; font.pixelSize: Theme.tinySize }
                    Repeater {
                        model: group.modelData.lines
                        delegate: Text {
                            required property var modelData
                            Layout.fillWidth: true
                            text: modelData.text
                            font.family: Theme.sans; font.pixelSize: Theme.smallSize
                            color: Theme.inkMuted
                            wrapMode: Text.WordWrap
                        }
                    }
                }
            }
        }
        Text {
            Layout.fillWidth: true
            visible: (root.summary.chipNote || "") !== ""
            text: root.summary.chipNote || ""
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
    }
}
