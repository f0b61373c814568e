import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The top of a chapter page, in its layer's colours: the way back and the
// steps to the chapters either side, where the chapter sits in the stack,
// its title and summary, and the learner's progress through it.
ColumnLayout {
    id: root
    objectName: "chapterHeading"
    property var page: ({})       // Course.chapterPage(n)
    property var summary: ({})    // its row of Course.chapters
    property int depth: 1         // its layer, for the colours
    required property real measure  // the prose column's width
    signal back()
    signal openPlace(string place)
    spacing: Theme.gapM

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gapM
        PlainButton {
            objectName: "backButton"
            text: "← the stack"
            mono: true
            fillColor: "transparent"
            hoverColor: Theme.layerTrack(root.depth)
            textColor: Theme.layerInk(root.depth)
            onClicked: root.back()
        }
        Item { Layout.fillWidth: true }
        ChapterSteps {
            compact: true
            number: root.page.number || 0
            textColor: Theme.layerInk(root.depth)
            hoverColor: Theme.layerTrack(root.depth)
            onOpenPlace: place => root.openPlace(place)
        }
    }
    MonoText {
        text: "ch " + String(root.page.number).padStart(2, "0") + " · "
              + (root.page.isStage ? "stage " + root.page.stageNumber + " · pinned at " : "layer " + root.page.layer + " · ")
              + root.page.layerName
        color: Theme.layerMuted(root.depth)
    }
    Text {
        objectName: "chapterTitle"
        Layout.fillWidth: true
        text: root.page.title || ""
        font.family: Theme.sans; font.pixelSize: Theme.displaySize * 0.8; font.weight: Font.DemiBold
        color: Theme.layerInk(root.depth)
        wrapMode: Text.WordWrap
    }
    Text {
        Layout.fillWidth: true
        Layout.maximumWidth: root.measure
        text: root.page.summary || ""
        font.family: Theme.sans; font.pixelSize: Theme.subheadingSize
        color: Theme.layerMuted(root.depth)
        wrapMode: Text.WordWrap
    }
    ProgressLine {
        objectName: "chapterProgress"
        // The same figure as the stack's row and the workshop: Course.chapters.
        // Said to be the mastery work's, since reading the text moves it not.
        value: root.summary.progress || 0
        of: "of the mastery work"
        fillColor: Theme.layerAccent(root.depth)
        trackColor: Theme.layerTrack(root.depth)
        textColor: Theme.layerMuted(root.depth)
    }
}
