pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

// The stack as one scrolling page: the header, nine layers darkening with
// depth with the six stages pinned beside theirs, the floor, the workshop.
ScrollPage {
    id: root
    signal openPlace(string place)

    contentHeight: column.height
    focus: true

    // The first screen (the header and the layers it reaches) is made before
    // the window's first frame; the other layers, the workshop and the notes
    // below them right after it, so the window opens at once. A layer is let
    // in once the one above it, or the descent's band for the first, ends
    // above the window's bottom.
    property bool restMade: false
    property int firstScreenLayers: 0
    Connections {
        target: root.Window.window
        enabled: !root.restMade
        // After the frame is out, not inside its signal: the frame's own
        // handlers (a first-frame grab) see the first screen alone. (Qt.callLater
        // is a method; qmllint 6.4 reads it as a property.)
        function onFrameSwapped() { Qt.callLater(() => root.restMade = true) } // qmllint disable type
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
    // A page loaded by file passes its openPlace on (its type is read only then).
    function passOn(page) { page.openPlace.connect(root.openPlace) }

    // The layer chapters (1-9) in order, and the stages grouped by the layer they are pinned at.
    // Course.chapters is read into JavaScript once, not once per layer.
    readonly property var chapters: Course.chapters
    readonly property var layers: chapters.filter(c => !c.isStage)
    function stagesAt(layer) { return chapters.filter(c => c.isStage && c.layer === layer) }

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
            color: Theme.layerColor(2)
            onYChanged: if (y > 0 && y + height < root.height) root.firstScreenLayers = Math.max(root.firstScreenLayers, 1)
            MonoText {
                x: Math.max(Theme.gapL, (parent.width - Theme.contentWidth) / 2)
                anchors.verticalCenter: parent.verticalCenter
                text: "↓ the descent · nine layers · six stages pinned along the way"
                color: Theme.layerMuted(2)
            }
        }

        // By count: a change of progress re-fills the bands in place
        // rather than making all nine again.
        Repeater {
            model: root.layers.length
            delegate: Loader {
                id: layerSlot
                required property int index
                readonly property var modelData: root.layers[index] || ({})
                width: column.width
                // The layers the first screen reaches are made for its first
                // frame, the rest after it. A layer placed (y > 0: below the
                // header) and ending above the window's bottom lets in the next.
                active: root.restMade || index < root.firstScreenLayers
                function letInNext() {
                    if (root.restMade) return
                    if (index === root.firstScreenLayers - 1 && height > 0 && y > 0 && y + height < root.height)
                        root.firstScreenLayers = index + 2
                }
                onHeightChanged: letInNext()
                onYChanged: letInNext()
                // By file, its values set as it is made and bound from here: a
                // component of this file could not be loaded once the file's
                // components are bound to it (Qt 6.4).
                Component.onCompleted: setSource("LayerBand.qml", { "width": column.width, "chapter": modelData,
                                                                    "stages": root.stagesAt(modelData.layer) })
                Binding { target: layerSlot.item; property: "width"; value: column.width; when: layerSlot.status === Loader.Ready }
                Binding { target: layerSlot.item; property: "chapter"; value: layerSlot.modelData; when: layerSlot.status === Loader.Ready }
                Binding {
                    target: layerSlot.item
                    property: "stages"
                    value: root.stagesAt(layerSlot.modelData.layer)
                    when: layerSlot.status === Loader.Ready
                }
                Connections {
                    target: layerSlot.item
                    function onOpenPlace(place) { root.openPlace(place) }
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

        // By file: not read until the rest is made; made at its width, so
        // that its cards' texts are laid out once.
        Loader {
            id: workshopLoader
            width: parent.width
            active: root.restMade
            function make() { if (active && !item) setSource("Workshop.qml", { "width": column.width }) }
            onActiveChanged: make()
            Component.onCompleted: make()
            onLoaded: root.passOn(item)
            Binding { target: workshopLoader.item; property: "width"; value: column.width; when: workshopLoader.status === Loader.Ready }
        }

        Loader {
            width: parent.width
            active: root.restMade
            source: "BenchEntry.qml"
            onLoaded: root.passOn(item)
        }

        Loader {
            width: parent.width
            active: root.restMade
            source: "HonestyNote.qml"
        }
    }
}
