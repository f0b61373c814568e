import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Sim

// The whole array in one picture (libtpusim's frame, painted a pixel per
// cell): what every cell does at this cycle, or how much work each one does
// over the run. The 8x8 corner shown with values is outlined.
ColumnLayout {
    id: root
    required property var model       // SystolicModel
    property string view: "cycle"
    readonly property int array: model.run.array || 0
    spacing: Theme.gap

    component Key: RowLayout {
        property color swatch
        property alias text: keyText.text
        spacing: Theme.gap / 2
        Rectangle { implicitWidth: Theme.px(12); implicitHeight: Theme.px(12); color: parent.swatch; border.color: Theme.cardBorder; border.width: 1 }
        Caption { id: keyText; font.pixelSize: Theme.tinySize }
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gapM
        Caption { text: "the whole " + root.array + " × " + root.array + " array" }
        ChoiceRow {
            Layout.fillWidth: true
            options: [{ id: "cycle", label: "this cycle" }, { id: "run", label: "work over the run" }]
            current: root.view
            namePrefix: "ex06Heat_"
            onChosen: id => root.view = id
        }
    }
    SystolicHeat {
        objectName: "ex06Heat"
        Layout.fillWidth: true
        Layout.preferredHeight: Math.min(width, Theme.px(400))
        model: root.model
        view: root.view
        idleColor: Theme.chartPlot
        loadingColor: Qt.rgba(Theme.verified.r * 0.45, Theme.verified.g * 0.45, Theme.verified.b * 0.45, 1)
        usefulColor: Theme.seriesColors[0]
        paddingColor: Theme.seriesColors[3]
        outlineColor: Theme.inkText
        outlineWidth: Theme.focusWidth
        corner: 8
        Accessible.role: Accessible.Graphic
        Accessible.name: "every cell of the array, coloured by what it does"
    }
    Flow {
        Layout.fillWidth: true
        spacing: Theme.gapM
        visible: root.view === "cycle"
        Key { swatch: Theme.seriesColors[0]; text: "multiplying a row of x" }
        Key { swatch: Theme.seriesColors[3]; text: "multiplying zero padding" }
        Key { swatch: Qt.rgba(Theme.verified.r * 0.45, Theme.verified.g * 0.45, Theme.verified.b * 0.45, 1); text: "weights loading" }
        Key { swatch: Theme.chartPlot; text: "idle" }
    }
    Caption {
        Layout.fillWidth: true
        visible: root.view === "run"
        wrapMode: Text.Wrap
        font.pixelSize: Theme.tinySize
        text: "brighter = more multiply-accumulates over the whole run; a ragged K or N leaves the last rows or columns dark in its last tile"
    }
}
