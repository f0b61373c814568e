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
        // The box beside the item's own words; an item made of goals lists
        // them under those words, so the box stays beside its item, not in
        // the middle of its goals.
        delegate: Column {
            id: entry
            required property var modelData
            required property int index
            readonly property var goals: modelData.goals || []
            // Its words no wider than a card's measure, however wide the page.
            width: Math.min(root.width, box.implicitIndicatorWidth + box.spacing
                                        + ProseMeasure.width(Theme.bodySize, Theme.cardMeasure))
            CheckBox {
                id: box
                objectName: "mastery_" + entry.modelData.id
                width: entry.width
                checked: entry.modelData.done
                enabled: entry.goals.length === 0
                text: entry.modelData.text
                font.family: Theme.sans
                font.pixelSize: Theme.bodySize
                // The page is not rebuilt on a tick (that would move it under
                // the pointer); a tick the store refuses is taken back.
                onToggled: {
                    if (!Course.setItemDone(root.chapter, entry.modelData.id, checked))
                        checked = !checked
                }
                contentItem: Text {
                    leftPadding: box.indicator.width + box.spacing
                    text: box.text + (entry.modelData.piece ? "   [" + entry.modelData.piece + "]" : "")
                    font: box.font
                    color: box.checked ? Theme.pageMuted : Theme.pageInk
                    wrapMode: Text.WordWrap
                    verticalAlignment: Text.AlignVCenter
                }
            }
            Text {
                objectName: "masteryGoals"
                visible: entry.goals.length > 0
                width: entry.width
                leftPadding: box.leftPadding + box.indicator.width + box.spacing
                text: entry.goals.map(g => (g.reached ? "✓ " : "○ ") + g.text).join("\n")
                      + "\n(ticked by " + entry.modelData.piece + " as you reach each goal)"
                font: box.font
                color: box.checked ? Theme.pageMuted : Theme.pageInk
                wrapMode: Text.WordWrap
            }
        }
    }
}
