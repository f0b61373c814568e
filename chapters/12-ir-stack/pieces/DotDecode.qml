import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// A dot_general read out: operand shapes, the dimension numbers, the output
// shape and the FLOPs as libtpusim derives them, and what the op alone
// would take on the chosen chip (a prediction, badged as one).
ColumnLayout {
    id: root
    property var dot: null
    property string layerName: ""
    property string chip: ""
    readonly property var predicted: dot ? dot.predicted : null
    spacing: Theme.gap / 2

    MonoText {
        objectName: "ex05DotShapes"
        Layout.fillWidth: true
        text: root.dot ? root.dot.op + " in " + root.layerName + ":  " + root.dot.lhs + " · " + root.dot.rhs + "  →  " + root.dot.output : ""
        color: Theme.inkText
        elide: Text.ElideRight
    }
    MonoText {
        objectName: "ex05DotDims"
        Layout.fillWidth: true
        text: root.dot ? "contracting " + root.dot.contracting + " · batch " + root.dot.batch : ""
        color: Theme.inkMuted
        elide: Text.ElideRight
    }
    MonoText {
        objectName: "ex05DotFlops"
        Layout.fillWidth: true
        text: root.dot ? "FLOPs = " + root.dot.formula + " = " + root.dot.flopsText : ""
        color: Theme.inkText
        elide: Text.ElideRight
    }
    // Laid out even without a dot, so the card never changes height; a
    // Flow, so that a narrow card wraps the badge under the time.
    Flow {
        id: timeRow
        Layout.fillWidth: true
        opacity: root.dot ? 1 : 0
        enabled: !!root.dot
        spacing: Theme.gap
        MonoText {
            id: time
            objectName: "ex05DotTime"
            width: Math.min(implicitWidth, timeRow.width)
            text: root.predicted ? "alone on " + root.chip + ": " + root.predicted.time + ", " + root.predicted.bound + "-bound"
                                 : root.dot ? (root.dot.predictedError || "") : ""
            color: root.predicted ? Theme.predicted : Theme.inkFaint
            wrapMode: Text.Wrap
        }
        ProvenanceBadge {
            id: badge
            // Kept in the flow when hidden, so the row is as tall either way.
            opacity: root.predicted ? 1 : 0
            kind: root.predicted ? root.predicted.provenance.kind : "predicted"
            details: root.predicted ? root.predicted.provenance.details : ""
        }
    }
}
