pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import TpuCourse.Ui
import TpuCourse.Backend

// One dump as an editor pane: line numbers, the lines of the active
// cross-layer link lit, a parse error marked at its line and column.
// Hovering reports the line under the mouse; a click or the arrow keys pick
// an op (Up and Down jump from one linked op to the next).
Rectangle {
    id: pane
    property var dump: ({})          // one entry of IrXrayModel.panes
    property var price: ({})         // its entry of IrXrayModel.prices
    property string title: ""
    property var litLines: []        // the active link's lines in this dump
    property int pickedLine: 0       // 1-based; 0 when none
    property int foundLine: 0        // the line a search (Ctrl+F) went to, lit; 0 when none
    property var bandOf: []          // per line: the source line its op came from, or 0 (no band)
    signal hovered(int line)         // 0 when the mouse leaves
    signal picked(int line)

    readonly property var lines: dump.lines || []
    readonly property var owner: dump.owner || []
    readonly property bool failed: (dump.error || "").length > 0
    readonly property real charWidth: metrics.advanceWidth("0")
    readonly property real lineHeight: Math.ceil(metrics.height * 1.25)
    readonly property real gutter: charWidth * (String(lines.length).length + 2)

    // Brings a line into view, centred, unless it is already on screen.
    function reveal(line) {
        if (line <= 0)
            return
        const top = (line - 1) * lineHeight - list.contentY
        if (top < 0 || top + lineHeight > list.height)
            list.positionViewAtIndex(line - 1, ListView.Center)
    }
    // The first line of the linked op after (step 1) or before (step -1) `from`.
    function nextOp(from, step) {
        for (let line = from + step; line >= 1 && line <= owner.length; line += step) {
            const o = owner[line - 1]
            if (o >= 0 && (line === 1 || owner[line - 2] !== o))
                return line
        }
        return from
    }
    function pickAt(line) { picked(line); reveal(line) }

    color: Theme.card
    radius: Theme.radius
    border.color: list.activeFocus ? Theme.focus : Theme.cardBorder
    border.width: list.activeFocus ? Theme.focusWidth : Theme.hairline
    clip: true

    FontMetrics { id: metrics; font.family: Theme.mono; font.pixelSize: Theme.tinySize }
    readonly property int colourLimit: 1000
    // The longest line as the font sets it: the width a pane scrolls to.
    TextMetrics {
        id: widestLine
        font: metrics.font
        text: pane.lines.reduce((a, b) => b.length > a.length ? b : a, "")
    }

    PaneHeader {
        id: header
        anchors { left: parent.left; right: parent.right; top: parent.top; margins: Theme.gap }
        title: pane.title
        dump: pane.dump
        price: pane.price
    }

    ListView {
        id: list
        objectName: "ex05Pane_" + (pane.dump.layer || "")
        anchors { left: parent.left; right: parent.right; top: header.bottom; bottom: parent.bottom
                  topMargin: Theme.gap / 2; leftMargin: pane.border.width; rightMargin: pane.border.width
                  bottomMargin: pane.border.width }
        clip: true
        model: pane.lines.length
        // No current item, so no highlight: ListView would otherwise make one
        // and grow it towards the current line's width at 400 px/s, a frame
        // every 16 ms for as long as that takes (minutes for a wide dump).
        currentIndex: -1
        highlightFollowsCurrentItem: false
        contentWidth: Math.max(width, pane.gutter + Math.ceil(widestLine.advanceWidth) + 2 * pane.charWidth)
        flickableDirection: Flickable.HorizontalAndVerticalFlick
        boundsBehavior: Flickable.StopAtBounds
        activeFocusOnTab: true
        ScrollBar.vertical: ScrollBar { policy: ScrollBar.AsNeeded }
        ScrollBar.horizontal: ScrollBar { policy: ScrollBar.AsNeeded }
        Accessible.name: pane.title + " dump"
        Keys.onDownPressed: pane.pickAt(pane.nextOp(Math.max(pane.pickedLine, 0), 1))
        Keys.onUpPressed: pane.pickAt(pane.nextOp(pane.pickedLine || pane.lines.length + 1, -1))
        onActiveFocusChanged: if (activeFocus && pane.pickedLine === 0) pane.pickAt(pane.nextOp(0, 1))

        delegate: Rectangle {
            id: row
            required property int index
            readonly property int line: index + 1
            readonly property bool lit: pane.litLines.indexOf(line) >= 0 || pane.foundLine === line
            readonly property bool broken: pane.failed && pane.dump.errorLine === line
            objectName: "ex05Line_" + (pane.dump.layer || "") + "_" + line
            width: list.contentWidth
            height: pane.lineHeight
            color: broken ? Theme.problemGround : lit ? Theme.accentSoft : "transparent"

            MonoText {
                width: pane.gutter - pane.charWidth
                horizontalAlignment: Text.AlignRight
                anchors.verticalCenter: parent.verticalCenter
                text: row.line
                color: parent.lit ? Theme.accent : Theme.inkFaint
                font.pixelSize: Theme.tinySize
            }
            MonoText {
                // Coloured as the chapter's code blocks are; a lit line keeps
                // its colours on the lit ground. A line of thousands of
                // characters (a constant, a long tuple) stays plain: styling
                // it costs a visible stall and shows nothing more.
                readonly property string source: pane.lines[row.index] || ""
                readonly property bool coloured: source.length <= pane.colourLimit
                x: pane.gutter
                anchors.verticalCenter: parent.verticalCenter
                text: coloured ? Reader.codeStyled(source, pane.dump.layer || "", Theme.codeColorsOnDark) : source
                textFormat: coloured ? Text.StyledText : Text.PlainText
                color: parent.lit ? Theme.inkText : Theme.inkMuted
                font.pixelSize: Theme.tinySize
            }
            Rectangle {  // the column the parser stopped at
                visible: parent.broken && pane.dump.errorColumn > 0
                x: pane.gutter + (pane.dump.errorColumn - 1) * pane.charWidth
                width: Math.max(Theme.focusWidth, pane.charWidth)
                height: Theme.focusWidth
                anchors.bottom: parent.bottom
                color: Theme.failed
            }
            Rectangle {  // the source line's band
                objectName: "ex05Band_" + (pane.dump.layer || "") + "_" + parent.line
                readonly property int source: pane.bandOf[parent.index] || 0
                visible: source > 0
                x: pane.gutter - pane.charWidth * 0.6
                width: Theme.px(3)
                height: parent.height
                color: Theme.bandColor(source)
            }
            Rectangle {  // the op the keyboard is on
                visible: pane.pickedLine === parent.line && list.activeFocus
                width: Theme.focusWidth
                height: parent.height
                color: Theme.focus
            }
        }

        HoverHandler {
            id: hover
            // Which of the two signals comes first varies: both report.
            function report() {
                if (!hovered) {
                    pane.hovered(0)
                    return
                }
                const i = list.indexAt(point.position.x + list.contentX, point.position.y + list.contentY)
                pane.hovered(i >= 0 ? i + 1 : 0)
            }
            onHoveredChanged: report()
            onPointChanged: report()
        }
        TapHandler {
            onTapped: (point) => {
                const i = list.indexAt(point.position.x + list.contentX, point.position.y + list.contentY)
                if (i >= 0) {
                    list.forceActiveFocus()
                    pane.picked(i + 1)
                }
            }
        }
    }
}
