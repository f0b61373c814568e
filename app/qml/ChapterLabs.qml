pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui

// A chapter's labs, at the end of its page: a heading and a card each.
// Its children carry the labs' ids (pieceId), for ChapterPage.anchorOf.
Column {
    id: root
    property var labs: []
    signal imported()
    visible: labs.length > 0

    Text {
        topPadding: Theme.gapL
        text: root.labs.length === 1 ? "Lab" : "Labs"
        font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
        color: Theme.pageInk
    }
    Repeater {
        model: root.labs
        delegate: LabCard {
            required property var modelData
            readonly property string pieceId: modelData.id
            width: root.width
            lab: modelData
            onImported: root.imported()
        }
    }
}
