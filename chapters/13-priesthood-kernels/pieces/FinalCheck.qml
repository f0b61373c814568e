import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The end of the stream: O = acc / l against softmax(QK^T)V computed with
// whole rows of scores, a numeric check on the host.
Rectangle {
    id: root
    property bool reached: false
    property var check: ({})   // Attention.stream(...).check

    color: Theme.card
    radius: Theme.radius
    border.color: reached ? Theme.verified : Theme.cardBorder
    implicitHeight: row.implicitHeight + 2 * Theme.gapM

    RowLayout {
        id: row
        x: Theme.gapM; y: Theme.gapM
        width: parent.width - 2 * Theme.gapM
        spacing: Theme.gapM
        Text {
            Layout.fillWidth: true
            text: root.reached
                  ? "O = acc / l equals softmax(QKᵀ)V computed directly, with every score at once: max |difference|"
                  : "At the last block, O = acc / l is checked against softmax(QKᵀ)V computed directly."
            font.family: Theme.sans
            font.pixelSize: Theme.smallSize
            color: root.reached ? Theme.inkText : Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        MonoText {
            objectName: "ex03Check"
            visible: root.reached
            text: root.check.text || ""
            color: Theme.verified
            font.pixelSize: Theme.subheadingSize
        }
        ProvenanceBadge {
            visible: root.reached
            kind: root.check.provenance ? root.check.provenance.kind : "verified"
            details: root.check.provenance ? root.check.provenance.details : ""
        }
    }
}
