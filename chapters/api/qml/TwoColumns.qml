import QtQuick
import TpuCourse.Ui

// Two columns side by side when both fit at `minimumColumnWidth`, one above
// the other when they do not. The first two children are the columns; each
// is given its width and takes its own implicit height, so a column never
// runs into the other.
Item {
    id: root
    property real firstShare: 0.5
    property real minimumColumnWidth: Theme.twoColumnMinimum
    property real spacing: Theme.gapXL
    readonly property bool sideBySide: width >= 2 * minimumColumnWidth + spacing
    readonly property Item first: children.length > 0 ? children[0] : null
    readonly property Item second: children.length > 1 ? children[1] : null
    readonly property real firstWidth: sideBySide ? Math.round((width - spacing) * firstShare) : width
    readonly property real firstHeight: first ? first.implicitHeight : 0
    readonly property real secondHeight: second ? second.implicitHeight : 0

    implicitHeight: !second ? firstHeight
                  : sideBySide ? Math.max(firstHeight, secondHeight)
                  : firstHeight + spacing + secondHeight

    Binding { target: root.first; property: "x"; value: 0; when: root.first !== null }
    Binding { target: root.first; property: "y"; value: 0; when: root.first !== null }
    Binding { target: root.first; property: "width"; value: root.firstWidth; when: root.first !== null }
    Binding { target: root.first; property: "height"; value: root.firstHeight; when: root.first !== null }
    Binding { target: root.second; property: "x"; value: root.sideBySide ? root.firstWidth + root.spacing : 0; when: root.second !== null }
    Binding { target: root.second; property: "y"; value: root.sideBySide ? 0 : root.firstHeight + root.spacing; when: root.second !== null }
    Binding { target: root.second; property: "width"; value: root.width - (root.sideBySide ? root.firstWidth + root.spacing : 0); when: root.second !== null }
    Binding { target: root.second; property: "height"; value: root.secondHeight; when: root.second !== null }
}
