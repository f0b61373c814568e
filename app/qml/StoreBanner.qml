import QtQuick
import TpuCourse.Ui
import TpuCourse.Store

// Says, across the foot of every page, when the progress store failed at
// something (what was asked did not happen) or its history does not
// verify (the counts it claims are not shown as earned).
Rectangle {
    id: root
    objectName: "storeBanner"
    readonly property bool showing: StoreHealth.problem.length > 0 || StoreHealth.history.length > 0
    visible: showing
    implicitHeight: showing ? column.implicitHeight + Theme.gapM * 2 : 0
    color: Theme.problemGround
    Accessible.role: Accessible.AlertMessage
    Accessible.name: Array.of(StoreHealth.history, StoreHealth.problem).filter(s => s.length > 0).join(" ")

    Column {
        id: column
        x: Theme.gapL; y: Theme.gapM
        width: root.width - 3 * Theme.gapL - dismiss.width
        spacing: Theme.gap / 2
        Text {
            objectName: "storeHistory"
            visible: StoreHealth.history.length > 0
            width: column.width
            text: "Your progress file's history does not verify: " + StoreHealth.history
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
        Text {
            objectName: "storeProblem"
            visible: StoreHealth.problem.length > 0
            width: column.width
            text: "Not saved or not read: " + StoreHealth.problem
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkText
            wrapMode: Text.WordWrap
        }
    }
    MonoText {
        id: dismiss
        visible: StoreHealth.problem.length > 0
        anchors { right: parent.right; rightMargin: Theme.gapL; top: parent.top; topMargin: Theme.gapM }
        text: "dismiss"
        color: Theme.failed
        MouseArea {
            anchors.fill: parent
            anchors.margins: -Theme.gap
            cursorShape: Qt.PointingHandCursor
            onClicked: StoreHealth.dismiss()
        }
    }
}
