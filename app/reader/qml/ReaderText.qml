import QtQuick
import TpuCourse.Ui

// Prose with live numbers, set for reading. Pointing at a number (or giving
// the text keyboard focus and moving with ← →) opens the shared card that
// says what the number is; an input ("input:NAME:N" links) is dragged
// sideways in place, or stepped with ↑ ↓, and its block re-fills the numbers
// that depend on it; a double click or Delete puts it back as written.
Text {
    id: root
    property var details: []
    property var owner: null          // the ReaderBlock that owns the inputs
    property real pixelSize: Theme.readerSize
    // Line pitch over the prose face's own line: every line is set to it,
    // so one holding code or a live number is as tall as the others.
    property real leading: Theme.readerLeading
    // Slot numbers of the values in this text, in reading order.
    readonly property var slots: {
        const found = []
        const rx = /href="(?:value:(\d+)|input:[^:"]+:(\d+))"/g
        let m
        while ((m = rx.exec(text)) !== null)
            found.push(parseInt(m[1] !== undefined ? m[1] : m[2]))
        return found
    }
    property int focusSlot: -1
    readonly property string scrubbing: scrubArea.scrubbing

    textFormat: Text.RichText
    wrapMode: Text.Wrap
    font.family: Theme.sans
    font.pixelSize: pixelSize
    lineHeightMode: Text.FixedHeight
    lineHeight: pixelSize * Theme.sansLineRatio * leading
    // A fixed line has its baseline four fifths down (Qt's rule), lower
    // than a proportional one, which leaves the extra below: drawn this much
    // higher, the text stands where it did, level with a list's bullet and
    // the margin's marks.
    transform: Translate { y: -(0.8 * root.lineHeight - root.pixelSize * Theme.sansAscentRatio) }
    // Rich text with a line height reports its last line's leading only in
    // contentHeight: take that, so nothing is cut and blocks never overlap.
    height: contentHeight
    color: Theme.pageInk
    linkColor: Theme.pageAccent
    activeFocusOnTab: slots.length > 0
    Accessible.role: Accessible.StaticText
    Accessible.name: text.replace(/<[^>]*>/g, "")

    function slotOf(link) {
        const parts = link.split(":")
        if (parts[0] === "value") return parseInt(parts[1])
        if (parts[0] === "input") return parseInt(parts[2])
        return -1
    }
    function inputNameOf(slot) {
        const m = new RegExp('href="input:([^:"]+):' + slot + '"').exec(text)
        return m ? m[1] : ""
    }

    onLinkActivated: link => { if (slotOf(link) < 0) Qt.openUrlExternally(link) }
    onActiveFocusChanged: focusSlot = activeFocus && slots.length ? slots[0] : -1

    Keys.onPressed: event => {
        const at = slots.indexOf(focusSlot)
        const input = inputNameOf(focusSlot)
        const steps = event.modifiers & Qt.ShiftModifier ? 10 : 1
        if (event.key === Qt.Key_Right && at + 1 < slots.length) focusSlot = slots[at + 1]
        else if (event.key === Qt.Key_Left && at > 0) focusSlot = slots[at - 1]
        else if (event.key === Qt.Key_Up && input !== "" && owner) owner.stepInput(input, steps)
        else if (event.key === Qt.Key_Down && input !== "" && owner) owner.stepInput(input, -steps)
        else if ((event.key === Qt.Key_Delete || event.key === Qt.Key_Backspace) && input !== "" && owner) owner.resetInput(input)
        else return
        event.accepted = true
    }

    HoverHandler {
        id: hover
        cursorShape: root.hoveredLink.startsWith("input:") || root.scrubbing !== "" ? Qt.SizeHorCursor
                     : root.hoveredLink !== "" ? Qt.PointingHandCursor : Qt.IBeamCursor
    }

    // Drags an input: the press lands on an "input:" link, every pixel of
    // travel after it goes to the owner's scrub rule.
    MouseArea {
        id: scrubArea
        property string scrubbing: ""
        property real startX: 0
        property real startValue: 0
        anchors.fill: parent
        preventStealing: true
        cursorShape: undefined
        onPressed: mouse => {
            const link = root.linkAt(mouse.x, mouse.y)
            if (!link.startsWith("input:") || !root.owner) {
                mouse.accepted = false
                return
            }
            scrubbing = link.split(":")[1]
            startX = mouse.x
            startValue = root.owner.valueOf(scrubbing)
            root.focusSlot = root.slotOf(link)
        }
        onPositionChanged: mouse => {
            if (scrubbing !== "")
                root.owner.scrubTo(scrubbing, startValue, mouse.x - startX, mouse.modifiers)
        }
        onReleased: scrubbing = ""
        onCanceled: scrubbing = ""
        // As on the instruments' numbers: a double click puts back the value the text was written with.
        onDoubleClicked: mouse => {
            const link = root.linkAt(mouse.x, mouse.y)
            if (link.startsWith("input:") && root.owner)
                root.owner.resetInput(link.split(":")[1])
        }
    }

    // The page's one card: beside the number under the pointer, or under
    // the text for the number chosen with the keyboard. One card serves
    // every text of the chapter, so a text costs no popup of its own.
    property var card: null
    readonly property int hoveredSlot: slotOf(hoveredLink)
    readonly property bool cardByKeyboard: hoveredSlot < 0 && activeFocus && focusSlot >= 0
    // None while an input is dragged: the card would cover the figures the
    // drag changes. It returns once the drag ends.
    readonly property int cardSlot: scrubbing !== "" ? -1 : hoveredSlot >= 0 ? hoveredSlot : cardByKeyboard ? focusSlot : -1
    function updateCard() {
        if (!card)
            return
        if (cardSlot < 0) {
            if (card.target === root)
                card.shown = false
            return
        }
        card.target = root
        card.delay = cardByKeyboard ? 0 : 150
        card.heading = cardByKeyboard ? "number " + (slots.indexOf(focusSlot) + 1) + " of " + slots.length + " · ← → for the others" : ""
        card.text = details[cardSlot] || ""
        card.targetRect = cardByKeyboard ? Qt.rect(0, 0, width, height) : pointedLine()
        card.shown = true
    }
    // The whole line under the pointer, not a box around the pointer: a card
    // below (or above) it then clears the line's descenders (or capitals)
    // wherever on the line the pointer is.
    function pointedLine() {
        const line = Math.floor(hover.point.position.y / lineHeight)
        return Qt.rect(hover.point.position.x - Theme.gapM, line * lineHeight, Theme.gapL, lineHeight)
    }
    // The link under the pointer can change before the handler has the
    // event's position: the card follows the position once it arrives.
    // Enabled by this text's own state, not the shared card's: a binding on
    // the card would be evaluated again in every text of the chapter each
    // time the card moved.
    Connections {
        target: hover
        enabled: root.hoveredSlot >= 0
        function onPointChanged() {
            if (root.card && root.card.target === root && root.card.shown && !root.cardByKeyboard)
                root.card.targetRect = root.pointedLine()
        }
    }
    onCardSlotChanged: updateCard()
    onDetailsChanged: if (card && card.target === root && card.shown) updateCard()
    onCardByKeyboardChanged: updateCard()
    FocusFrame {}
}
