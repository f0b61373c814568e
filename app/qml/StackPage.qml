import QtQuick
import QtQuick.Controls
import TpuCourse.Ui
import TpuCourse.Backend

// The stack as one scrolling page: the header, nine layers darkening with
// depth with the six stages pinned beside theirs, the floor, the workshop.
ScrollPage {
    id: root
    signal openPlace(string place)

    contentHeight: column.height
    focus: true

    // The first screen (the header and the first layer) is made before the
    // window's first frame; the other layers, the workshop and the notes
    // below them right after it, so the window opens at once.
    property bool restMade: false
    Connections {
        target: root.Window.window
        enabled: !root.restMade
        function onFrameSwapped() { root.restMade = true }
    }

    // Jumps (no glide) to the top or to the workshop, its heading clear of the window's edge.
    property string pendingJump: ""
    function jumpTo(where) {
        restMade = true
        pendingJump = where
        applyJump()
    }
    function applyJump() {
        const target = pendingJump === "workshop" && workshopLoader.item ? workshopLoader.y : 0
        // From contentHeight itself: this runs as it changes, before maximumY follows.
        contentY = Math.max(0, Math.min(target, contentHeight - height))
    }
    // The workshop's place is known once the layers above it are laid out.
    onContentHeightChanged: if (pendingJump === "workshop") applyJump()

    // The layer chapters (1-9) in order, and the stages grouped by the layer they are pinned at.
    readonly property var layers: Course.chapters.filter(c => !c.isStage)
    function stagesAt(layer) { return Course.chapters.filter(c => c.isStage && c.layer === layer) }

    Column {
        id: column
        width: root.width

        StackHeader {
            width: parent.width
            onOpenPlace: place => root.openPlace(place)
        }

        ProblemBanner { width: parent.width }

        Rectangle {
            width: parent.width
            height: Theme.px(44)
            color: Theme.layerColors[1]
            MonoText {
                x: Math.max(Theme.gapL, (parent.width - Theme.contentWidth) / 2)
                anchors.verticalCenter: parent.verticalCenter
                text: "↓ the descent · nine layers · six stages pinned along the way"
                color: Theme.layerMuted(2)
            }
        }

        Repeater {
            model: root.layers
            delegate: Loader {
                required property var modelData
                required property int index
                width: column.width
                active: index === 0 || root.restMade
                sourceComponent: LayerBand {
                    width: column.width
                    chapter: modelData
                    stages: root.stagesAt(modelData.layer)
                    onOpenPlace: place => root.openPlace(place)
                }
            }
        }

        Rectangle {
            width: parent.width
            height: Theme.px(72)
            color: Theme.floor
            MonoText {
                x: Math.max(Theme.gapL, (parent.width - Theme.contentWidth) / 2)
                anchors.verticalCenter: parent.verticalCenter
                text: "you have reached the floor"
                color: Theme.inkFaint
            }
        }

        Loader {
            id: workshopLoader
            width: parent.width
            active: root.restMade
            sourceComponent: Workshop {
                width: workshopLoader.width
                onOpenPlace: place => root.openPlace(place)
            }
        }

        Loader {
            width: parent.width
            active: root.restMade
            sourceComponent: BenchEntry {
                width: column.width
                onOpenPlace: place => root.openPlace(place)
            }
        }

        Loader {
            width: parent.width
            active: root.restMade
            sourceComponent: HonestyNote { width: column.width }
        }
    }
}
