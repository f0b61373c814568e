pragma ComponentBehavior: Bound
import QtQuick
import TpuCourse.Ui
import TpuCourse.Backend

// Says plainly which chapter plugins were skipped and why; the rest still work.
Rectangle {
    id: root
    visible: Course.problems.length > 0
    implicitHeight: visible ? column.implicitHeight + Theme.gapM * 2 : 0
    color: Theme.problemGround
    readonly property int margin: Math.max(Theme.gapL, (width - Theme.contentWidth) / 2)
    Column {
        id: column
        x: root.margin; y: Theme.gapM
        width: root.width - 2 * root.margin
        spacing: 2
        MonoText {
            text: Course.problems.length === 1 ? "one problem with the chapters:" : Course.problems.length + " problems with the chapters:"
            color: Theme.failed
        }
        Repeater {
            model: Course.problems
            delegate: Text {
                required property string modelData
                width: column.width
                text: "· " + modelData
                font.family: Theme.sans; font.pixelSize: Theme.smallSize
                color: Theme.inkText
                wrapMode: Text.WordWrap
            }
        }
    }
}
