pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Shell   // its C++ items (GapHatch) come with the module, not with the folder

// One layer of the stack: its chapter, one line, progress, and the stages
// pinned at it. The gap is drawn as a gap: hatched and empty.
Rectangle {
    id: root
    objectName: "layer_" + (chapter.number || 0)
    property var chapter: ({})
    property var stages: []
    signal openPlace(string place)

    readonly property int depth: chapter.layer || 1
    readonly property bool isGap: chapter.slug === "gap"
    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)

    implicitHeight: Math.max(Theme.layerHeight, body.implicitHeight + Theme.gapXL * 2)
    color: Theme.layerColor(depth)
    activeFocusOnTab: true
    Accessible.role: Accessible.Button
    Accessible.name: "chapter " + chapter.number + ", " + chapter.title + ", " + Math.round(chapter.progress * 100) + " percent"
    Keys.onReturnPressed: openPlace("ch" + String(chapter.number).padStart(2, "0"))
    Keys.onEnterPressed: openPlace("ch" + String(chapter.number).padStart(2, "0"))
    Keys.onSpacePressed: openPlace("ch" + String(chapter.number).padStart(2, "0"))

    // Made for the gap alone: a painted band costs a window-wide image.
    Loader {
        anchors.fill: parent
        active: root.isGap
        source: "GapHatchBand.qml"  // by file: this file's components are bound to it
    }

    MouseArea {
        id: mouse
        anchors.fill: parent
        hoverEnabled: true
        cursorShape: Qt.PointingHandCursor
        onClicked: root.openPlace("ch" + String(root.chapter.number).padStart(2, "0"))
    }

    Rectangle {
        // Hover and focus: a rule along the left edge.
        x: root.margin - Theme.gapL
        width: 3
        height: parent.height
        color: Theme.layerAccent(root.depth)
        visible: mouse.containsMouse || root.activeFocus
    }

    // The chapter's number, its title and line, and the stages at the right.
    Item {
        id: body
        x: root.margin
        width: root.width - 2 * root.margin
        implicitHeight: Math.max(number.y + number.implicitHeight, words.implicitHeight, pins.implicitHeight)
        height: implicitHeight
        anchors.verticalCenter: parent.verticalCenter

        MonoText {
            id: number
            y: Theme.px(8)
            width: Theme.px(64)
            text: "ch " + String(root.chapter.number).padStart(2, "0")
            color: Theme.layerMuted(root.depth)
        }

        Column {
            id: words
            x: number.width + Theme.gapL
            width: pins.x - Theme.gapL - x
            spacing: Theme.gap
            Text {
                width: parent.width
                text: root.chapter.title || ""
                font.family: Theme.sans
                font.pixelSize: Theme.titleSize
                font.weight: Font.Medium
                color: Theme.layerInk(root.depth)
            }
            Text {
                width: Math.min(parent.width, Theme.px(560))
                text: root.chapter.layerLine + (root.isGap ? " Stage 3 teaches you to cross on foot." : "")
                font.family: Theme.sans
                font.pixelSize: Theme.bodySize
                color: Theme.layerMuted(root.depth)
                wrapMode: Text.WordWrap
            }
            Item {  // a gap more above the progress than between the lines
                width: progress.implicitWidth
                height: progress.implicitHeight + Theme.gap
                ProgressLine {
                    id: progress
                    y: Theme.gap
                    value: root.chapter.progress || 0
                    fillColor: Theme.layerAccent(root.depth)
                    trackColor: Theme.layerTrack(root.depth)
                    textColor: Theme.layerMuted(root.depth)
                }
            }
        }

        Column {
            id: pins
            x: body.width - width
            anchors.verticalCenter: parent.verticalCenter
            spacing: Theme.gap
            // By count: progress re-fills the pills in place rather than
            // making every layer's pills again.
            Repeater {
                model: root.stages.length
                delegate: StagePill {
                    required property int index
                    stage: root.stages[index] || ({})
                    darkGround: Theme.isDark(root.depth)
                    onOpenPlace: place => root.openPlace(place)
                }
            }
        }
    }
}
