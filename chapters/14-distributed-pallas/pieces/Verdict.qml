import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// What the run came to: a status badge (ok, deadlock, race,
// nonzero-semaphore), when it ended, and in words who waits on what, which
// buffer raced, or which semaphore was left nonzero.
ColumnLayout {
    id: root
    property var run: ({})
    readonly property string status: run.status || (run.error ? "error" : "")
    readonly property bool bad: status !== "ok"
    readonly property var problems: (run.deadlock || []).map(w => w.reason)
                                    .concat((run.races || []).map(r => r.text))
                                    .concat((run.nonzero || []).map(n => n.text))
    spacing: Theme.px(4)

    RowLayout {
        spacing: Theme.gap
        Rectangle {
            implicitWidth: badge.implicitWidth + Theme.gapM
            implicitHeight: badge.implicitHeight + Theme.px(6)
            radius: height / 2
            color: root.bad ? Theme.problemGround : "transparent"
            border.color: root.bad ? Theme.failed : Theme.measured
            MonoText {
                id: badge
                objectName: "ex10Status"
                anchors.centerIn: parent
                text: root.status
                color: root.bad ? Theme.failed : Theme.measured
                font.pixelSize: Theme.smallSize
            }
        }
        MonoText {
            text: root.run.error ? "" : (root.status === "deadlock" ? "stuck after" : "ends at")
            color: Theme.inkMuted
            font.pixelSize: Theme.smallSize
        }
        MonoText {
            objectName: "ex10EndTime"
            text: root.run.end || ""
            color: Theme.inkText
            font.pixelSize: Theme.smallSize
        }
        ProvenanceBadge {
            visible: !!root.run.provenance
            kind: root.run.provenance ? root.run.provenance.kind : "predicted"
            details: root.run.provenance ? root.run.provenance.details : ""
        }
    }
    Text {
        objectName: "ex10Problems"
        Layout.fillWidth: true
        visible: text.length > 0
        text: root.run.error || root.problems.join("\n")
        color: Theme.failed
        font.family: Theme.sans
        font.pixelSize: Theme.smallSize
        wrapMode: Text.Wrap
    }
    Text {
        Layout.fillWidth: true
        visible: root.problems.length === 0    // otherwise it repeats the first problem
        text: root.run.summary || ""
        color: Theme.inkMuted
        font.family: Theme.sans
        font.pixelSize: Theme.smallSize
        wrapMode: Text.Wrap
    }
}
