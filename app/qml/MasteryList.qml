pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import TpuCourse.Ui
import TpuCourse.Backend

// A chapter's mastery work: each item a checkbox kept in the progress store.
// An item made of goals is credited by its piece, goal by goal: its box is
// not the learner's to tick, and its goals show underneath as the store
// holds them.
Column {
    id: root
    property int chapter: 0
    property var items: []
    signal openPlace(string place)
    spacing: Theme.gap

    Text {
        text: "Mastery work"
        font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
        color: Theme.pageInk
    }
    Repeater {
        model: root.items
        delegate: CheckBox {
            id: box
            required property var modelData
            required property int index
            objectName: "mastery_" + modelData.id
            readonly property var goals: modelData.goals || []
            // Its words no wider than a card's measure, however wide the page.
            width: Math.min(root.width, box.implicitIndicatorWidth + box.spacing
                                        + Theme.measure(Theme.bodySize, Theme.cardMeasure))
            checked: modelData.done
            enabled: goals.length === 0
            text: modelData.text
            font.family: Theme.sans
            font.pixelSize: Theme.bodySize
            // The page is not rebuilt on a tick (that would move it under
            // the pointer); a tick the store refuses is taken back.
            onToggled: {
                if (!Course.setItemDone(root.chapter, modelData.id, checked))
                    checked = !checked
            }
            contentItem: Text {
                leftPadding: box.indicator.width + box.spacing
                text: box.text + (box.modelData.piece ? "   [" + box.modelData.piece + "]" : "")
                      + box.goals.map(g => "\n" + (g.reached ? "✓ " : "○ ") + g.text).join("")
                      + (box.goals.length ? "\n(ticked by " + box.modelData.piece + " as you reach each goal)" : "")
                font: box.font
                color: box.checked ? Theme.pageMuted : Theme.pageInk
                wrapMode: Text.WordWrap
                verticalAlignment: Text.AlignVCenter
            }
        }
    }
}
