import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// Whether the kernel compiles, in one sentence, and when it does not, what
// the learner would see: the message's fixed words quoted from where they
// are published, with their source, and what follows them in our words.
// The message opens on request; `opened` says the learner asked for it.
ColumnLayout {
    id: root
    property var budget: ({})        // VmemBudgetModel.budget
    readonly property var error: budget.error || ({})
    readonly property bool failing: error.stage !== undefined
    property bool open: false
    signal opened()
    spacing: Theme.gap

    Text {
        objectName: "ex07Verdict"
        Layout.fillWidth: true
        text: root.budget.problem || root.budget.verdict || ""
        wrapMode: Text.Wrap
        font.family: Theme.sans; font.pixelSize: Theme.bodySize
        color: root.budget.fits ? Theme.inkText : Theme.failed
    }
    RowLayout {
        Layout.fillWidth: true
        visible: root.failing
        spacing: Theme.gap
        PlainButton {
            objectName: "ex07ErrorToggle"
            text: root.open ? "hide the compiler's message" : "what the compiler says"
            mono: true
            fillColor: Theme.inkHover
            textColor: Theme.inkText
            onClicked: {
                root.open = !root.open
                if (root.open)
                    root.opened()
            }
        }
        Caption {
            Layout.fillWidth: true
            text: root.error.stage === "lowering" ? "at lowering, in pallas_call" : "at compile time, on the first call"
            wrapMode: Text.Wrap
        }
    }
    Rectangle {
        Layout.fillWidth: true
        visible: root.failing && root.open
        implicitHeight: message.implicitHeight + Theme.gapM * 2
        radius: Theme.radius
        color: Theme.problemGround
        ColumnLayout {
            id: message
            anchors.left: parent.left; anchors.right: parent.right; anchors.top: parent.top
            anchors.margins: Theme.gapM
            spacing: Theme.gap
            MonoText {
                objectName: "ex07ErrorQuoted"
                Layout.fillWidth: true
                visible: text !== ""
                text: root.error.quoted ? "“" + root.error.quoted + " …”" : ""
                wrapMode: Text.Wrap
                color: Theme.inkText
            }
            Text {
                objectName: "ex07ErrorSource"
                Layout.fillWidth: true
                visible: !!root.error.source
                text: "quoted from " + (root.error.source || "")
                wrapMode: Text.Wrap
                font.family: Theme.sans; font.pixelSize: Theme.tinySize
                color: Theme.inkFaint
            }
            Text {
                objectName: "ex07ErrorExplanation"
                Layout.fillWidth: true
                text: root.error.explanation || ""
                wrapMode: Text.Wrap
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: Theme.inkMuted
            }
        }
    }
}
