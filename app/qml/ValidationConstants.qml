pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The constants fitted on the published rows, chip by chip: what each is,
// its value and the rows it was read from (named on hover of its line).
ColumnLayout {
    id: root
    property var constants: []
    readonly property var chips: [...new Set(constants.map(c => c.chip))]
    spacing: Theme.gap

    Text {
        Layout.fillWidth: true
        text: "The fitted constants"
        font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
        color: Theme.inkText
        wrapMode: Text.WordWrap
    }
    Text {
        Layout.fillWidth: true
        Layout.maximumWidth: Theme.px(860)
        text: "Each comes from the rows it governs: an attainable fraction is the median of what the long runs that unit bounds say, a flash step's least time and Python's share of a call the median over the runs they dominate, and the floor of an op or of a collective the least that the short runs it dominates leave over the model, since whatever a run takes beyond the floor is some other cost. A chip with fewer than two such rows takes the value fitted on every chip's rows, and says so."
        font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
        color: Theme.inkMuted
        wrapMode: Text.WordWrap
    }
    Repeater {
        model: root.chips
        delegate: ColumnLayout {
            id: chipGroup
            required property string modelData
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapM
            spacing: Theme.gap / 2
            MonoText { text: chipGroup.modelData === "all" ? "every chip" : chipGroup.modelData; color: Theme.accent }
            Repeater {
                model: root.constants.filter(c => c.chip === chipGroup.modelData)
                // Placed by hand: a wrapping text in a row layout keeps the
                // height of its first width in Qt 6.4.
                delegate: Item {
                    id: line
                    required property var modelData
                    objectName: "validationConstant_" + modelData.chip + "_" + modelData.key
                    Layout.fillWidth: true
                    implicitHeight: Math.max(nameText.implicitHeight, valueText.implicitHeight, howText.implicitHeight)
                    readonly property real nameWidth: Theme.px(250)
                    readonly property real valueWidth: Theme.px(90)
                    Text {
                        id: nameText
                        width: line.nameWidth
                        text: line.modelData.name
                        font.family: Theme.sans; font.pixelSize: Theme.smallSize
                        color: Theme.inkText
                        wrapMode: Text.WordWrap
                    }
                    MonoText {
                        id: valueText
                        x: line.nameWidth + Theme.gapM
                        width: line.valueWidth
                        horizontalAlignment: Text.AlignRight
                        text: line.modelData.valueText
                        color: Theme.predicted
                    }
                    Text {
                        id: howText
                        x: line.nameWidth + line.valueWidth + 2 * Theme.gapM
                        width: line.width - x
                        text: line.modelData.how + (line.modelData.fittedOn.length > 0 ? ": " + line.modelData.fittedOn.join(", ") : "")
                        font.family: Theme.sans; font.pixelSize: Theme.tinySize; lineHeight: 1.2
                        color: Theme.inkMuted
                        wrapMode: Text.WrapAtWordBoundaryOrAnywhere
                    }
                }
            }
        }
    }
}
