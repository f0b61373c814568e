import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The largest legal blocks that fit the limit in force, for the same
// kernel, sizes, dtype and buffers: what they cost and what they save,
// and a button that takes them.
ColumnLayout {
    id: root
    property var suggestion: ({})    // VmemBudgetModel.suggestion
    property var current: []         // the blocks in use, to say when they already are the suggestion
    signal taken()
    spacing: Theme.gap / 2
    readonly property bool found: !!suggestion.found
    readonly property bool inUse: found && JSON.stringify(suggestion.blocks) === JSON.stringify(current)

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        Caption { text: "largest blocks that fit" }
        MonoText {
            objectName: "ex07Suggestion"
            Layout.fillWidth: true
            text: root.found ? root.suggestion.blocksText + " · " + root.suggestion.totalText : "none"
            color: root.found ? Theme.inkText : Theme.failed
            wrapMode: Text.Wrap
        }
        ProvenanceBadge {
            visible: root.found
            kind: root.suggestion.provenance ? root.suggestion.provenance.kind : "predicted"
            details: root.suggestion.provenance ? root.suggestion.provenance.details : ""
        }
        SnugButton {
            objectName: "ex07UseSuggestion"
            visible: root.found
            enabled: !root.inUse
            text: root.inUse ? "in use" : "use them"
            mono: true
            fillColor: Theme.inkHover
            hoverColor: Theme.cardHover
            textColor: root.inUse ? Theme.inkFaint : Theme.inkText
            onClicked: root.taken()
        }
    }
    Text {
        objectName: "ex07SuggestionReason"
        Layout.fillWidth: true
        text: root.suggestion.reason || ""
        wrapMode: Text.Wrap
        font.family: Theme.sans; font.pixelSize: Theme.tinySize
        color: Theme.inkFaint
    }
}
