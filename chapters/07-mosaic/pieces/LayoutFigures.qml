pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The layout in numbers: the dtype's native tile and how many rows share a
// word, the padded shape, the tiles, the data against the padded bytes, and
// the waste, badged as libtpusim's prediction.
ColumnLayout {
    id: root
    property var layout: ({})        // LayoutLensModel.lens.layout
    readonly property var provenance: layout.provenance || ({})
    spacing: Theme.gap / 2

    component Figure: RowLayout {
        property alias name: nameText.text
        property alias value: valueText.text
        property string valueName: ""
        property bool large: false
        property bool badged: false
        Layout.fillWidth: true
        spacing: Theme.gap
        Caption { id: nameText; Layout.preferredWidth: Theme.px(120) }
        MonoText {
            id: valueText
            objectName: parent.valueName
            font.pixelSize: parent.large ? Theme.subheadingSize : Theme.bodySize
            color: Theme.inkText
        }
        ProvenanceBadge {
            visible: parent.badged
            kind: root.provenance.kind || "predicted"
            details: root.provenance.details || ""
        }
        Item { Layout.fillWidth: true }
    }

    Figure {
        name: "native tile"; valueName: "ex12Tile"
        value: (root.layout.tileText || "") + (root.layout.packing > 1 ? "  " + root.layout.packing + " rows a word" : "  1 row a word")
    }
    Figure { name: "padded to"; valueName: "ex12Padded"; value: root.layout.paddedShapeText || "" }
    Figure {
        name: "tiles"; valueName: "ex12TileCount"
        value: (root.layout.tilesText || "") + (root.layout.grid && root.layout.grid.planes > 1
                                                ? "  (" + root.layout.grid.planes.toLocaleString(Qt.locale("C"), "f", 0) + " planes)" : "")
    }
    Figure {
        name: "data in tiles"; valueName: "ex12Bytes"
        value: (root.layout.logicalText || "") + " of " + (root.layout.paddedText || "")
    }
    Figure { name: "waste"; valueName: "ex12Waste"; value: root.layout.wasteText || ""; large: true; badged: true }
}
