import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend

// A chapter opened in place: title and layer, its introduction, its mastery
// work as a checklist kept in the store, its gate (stages) and its pieces.
ScrollPage {
    id: root
    signal back()
    signal openPlace(string place)

    property var page: ({})
    property string highlightPiece: ""
    property var labs: []
    property var rendered: ({})
    property bool textStale: false
    onVisibleChanged: if (visible && textStale) renderText()
    function renderText() {
        textStale = false
        if (page.number === undefined)
            return
        rendered = Course.chapterText(page.number, chipSwitcher.chip, {
            "font": Theme.sans, "mono": Theme.mono, "pixelSize": Theme.bodySize + 1,
            "text": Theme.ink, "predicted": Theme.predictedOnLight, "fact": Theme.ink, "problem": Theme.failed,
            "codeBackground": Theme.layerColors[1] })
    }
    readonly property var summary: Course.chapters.find(c => c.number === page.number) || ({})
    readonly property int depth: page.layer || 1
    readonly property int margin: Math.max(Theme.gapL, (width - Theme.px(920)) / 2)

    // Loads chapter `number`; false when the course has no such chapter.
    function load(number, pieceId) {
        const p = Course.chapterPage(number)
        if (!p || p.number === undefined)
            return false
        page = p
        labs = Course.labsOfChapter(number)
        renderText()
        highlightPiece = pieceId
        contentY = 0
        // A piece or lab named on the way in is brought into view once the
        // page is laid out, and kept there while the text above it settles.
        pendingReveal = pieceId
        revealWindow.restart()
        return true
    }
    property string pendingReveal: ""
    function revealPending() {
        const anchor = pendingReveal !== "" ? anchorOf(pendingReveal) : null
        if (anchor)
            contentY = Math.max(0, Math.min(maximumY, anchor.mapToItem(contentItem, 0, 0).y - Theme.gapL))
    }
    onContentHeightChanged: revealPending()
    Timer { id: revealWindow; interval: 600; onTriggered: root.pendingReveal = "" }
    // The lab card or piece row of `pieceId` on this page, if any.
    function anchorOf(pieceId) {
        for (let i = 0; i < column.children.length; ++i) {
            const child = column.children[i]
            if (child.pieceId === pieceId)
                return child
        }
        return null
    }
    function refresh() {
        if (page.number === undefined)
            return
        page = Course.chapterPage(page.number)
        labs = Course.labsOfChapter(page.number)
    }

    contentHeight: column.implicitHeight + Theme.gapXXL * 2
    onLight: true

    Rectangle {
        // The chapter keeps the colour of its layer in a band across the top.
        id: band
        width: root.width
        height: column.y + header.y + header.height + Theme.gapXL
        color: Theme.layerColor(root.depth)
    }
    Rectangle {
        y: band.height
        width: root.width
        height: Math.max(root.contentHeight, root.height) - y
        color: Theme.paper
    }

    ColumnLayout {
        id: column
        x: root.margin
        y: Theme.gapL
        width: root.width - 2 * root.margin
        spacing: Theme.gapL

        ColumnLayout {
            id: header
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapL
            spacing: Theme.gapM
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gapM
                PlainButton {
                    objectName: "backButton"
                    text: "← the stack"
                    mono: true
                    fillColor: "transparent"
                    hoverColor: Theme.layerTrack(root.depth)
                    textColor: Theme.layerInk(root.depth)
                    onClicked: root.back()
                }
                Item { Layout.fillWidth: true }
                ChapterSteps {
                    compact: true
                    number: root.page.number || 0
                    textColor: Theme.layerInk(root.depth)
                    hoverColor: Theme.layerTrack(root.depth)
                    onOpenPlace: place => root.openPlace(place)
                }
            }
            MonoText {
                text: "ch " + String(root.page.number).padStart(2, "0") + " · "
                      + (root.page.isStage ? "stage " + root.page.stageNumber + " · pinned at " : "layer " + root.page.layer + " · ")
                      + root.page.layerName
                color: Theme.layerMuted(root.depth)
            }
            Text {
                objectName: "chapterTitle"
                Layout.fillWidth: true
                text: root.page.title || ""
                font.family: Theme.sans; font.pixelSize: Theme.displaySize * 0.8; font.weight: Font.DemiBold
                color: Theme.layerInk(root.depth)
                wrapMode: Text.WordWrap
            }
            Text {
                Layout.fillWidth: true
                text: root.page.summary || ""
                font.family: Theme.sans; font.pixelSize: Theme.subheadingSize
                color: Theme.layerMuted(root.depth)
                wrapMode: Text.WordWrap
            }
            ProgressLine {
                // The same figure as the stack's row and the workshop: Course.chapters.
                value: root.summary.progress || 0
                fillColor: Theme.layerAccent(root.depth)
                trackColor: Theme.layerTrack(root.depth)
                textColor: Theme.layerMuted(root.depth)
            }
        }

        Text {
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapXL
            visible: root.page.loaded === false
            text: "This chapter's library could not be loaded: " + (root.page.loadError || "") + " Its outline and checklist still work."
            font.family: Theme.sans; font.pixelSize: Theme.bodySize
            color: Theme.failed
            wrapMode: Text.WordWrap
        }

        // The chapter's own chip: live numbers in the text follow it.
        RowLayout {
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapXL
            spacing: Theme.gapM
            MonoText { text: "numbers below for"; color: Theme.layerMuted(1) }
            // The chip can change on another page: the text is rendered again
            // when this page is next shown, not while it is hidden.
            ChipSwitcher {
                id: chipSwitcher
                onChipChanged: if (root.visible) root.renderText(); else root.textStale = true
            }
            Item { Layout.fillWidth: true }
            MonoText {
                text: root.rendered.values ? root.rendered.values + " live numbers · predicted values in amber, hover for what each is" : ""
                color: Theme.layerMuted(1)
                font.pixelSize: Theme.tinySize
            }
        }

        Text {
            Layout.fillWidth: true
            visible: (root.rendered.problems || []).length > 0
            text: "Some live numbers could not be filled in: " + (root.rendered.problems || []).join("; ")
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.failed
            wrapMode: Text.WordWrap
        }

        Text {
            id: chapterText
            objectName: "chapterIntro"
            Layout.fillWidth: true
            text: root.rendered.html || ""
            textFormat: Text.RichText
            font.family: Theme.sans; font.pixelSize: Theme.bodySize + 1
            color: Theme.ink
            wrapMode: Text.WordWrap
            onLinkActivated: link => { if (!link.startsWith("value:")) Qt.openUrlExternally(link) }
            HoverHandler {
                id: textHover
                cursorShape: chapterText.hoveredLink !== "" ? Qt.PointingHandCursor : Qt.ArrowCursor
            }
            // Beside the value under the pointer, not at the top of the block.
            ExplainCard {
                readonly property string link: chapterText.hoveredLink
                shown: link.startsWith("value:")
                delay: 150
                text: shown ? (root.rendered.details || [])[parseInt(link.slice(6))] || "" : ""
                targetRect: Qt.rect(textHover.point.position.x - Theme.gapM, textHover.point.position.y - Theme.bodySize,
                                    Theme.gapL, Theme.bodySize * 1.6)
            }
        }

        // The gate, for a stage: what passes it, and its state.
        Rectangle {
            Layout.fillWidth: true
            visible: root.page.isStage === true
            implicitHeight: gate.implicitHeight + Theme.gapL * 2
            radius: Theme.radius
            color: Theme.ink
            ColumnLayout {
                id: gate
                x: Theme.gapL; y: Theme.gapL
                width: parent.width - 2 * Theme.gapL
                spacing: Theme.gap
                MonoText {
                    text: "gate " + (root.page.gate || "") + " · " + (root.page.gateState || "") + " · judged on a measured run of lab " + (root.page.gateLab || "")
                    color: Theme.gateColor(root.page.gateState)
                }
                Text {
                    Layout.fillWidth: true
                    text: root.page.gateRule || ""
                    font.family: Theme.sans; font.pixelSize: Theme.bodySize
                    color: Theme.inkText
                    wrapMode: Text.WordWrap
                }
            }
        }

        PredictionForm {
            Layout.fillWidth: true
            visible: root.page.gate === "G0"
        }

        Text {
            Layout.topMargin: Theme.gapL
            visible: root.labs.length > 0
            text: root.labs.length === 1 ? "Lab" : "Labs"
            font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
            color: Theme.ink
        }
        Repeater {
            model: root.labs
            delegate: LabCard {
                required property var modelData
                readonly property string pieceId: modelData.id
                Layout.fillWidth: true
                lab: modelData
                onImported: root.refresh()
            }
        }

        MasteryList {
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapL
            chapter: root.page.number || 0
            items: root.page.mastery || []
            onOpenPlace: place => root.openPlace(place)
        }

        Text {
            Layout.topMargin: Theme.gapL
            text: "Pieces in this chapter"
            visible: (root.page.pieces || []).length > 0
            font.family: Theme.sans; font.pixelSize: Theme.headingSize; font.weight: Font.DemiBold
            color: Theme.ink
        }
        Repeater {
            model: root.page.pieces || []
            delegate: Rectangle {
                id: pieceRow
                required property var modelData
                readonly property string pieceId: modelData.id
                readonly property bool hasPage: modelData.hasPage === true
                Layout.fillWidth: true
                implicitHeight: pieceText.implicitHeight + Theme.gapM * 2
                radius: Theme.radius
                color: modelData.id === root.highlightPiece ? Theme.accentSoft : "transparent"
                border.color: modelData.id === root.highlightPiece ? Theme.accentDeep : Theme.layerColors[2]
                MouseArea {
                    anchors.fill: parent
                    enabled: pieceRow.hasPage
                    cursorShape: enabled ? Qt.PointingHandCursor : Qt.ArrowCursor
                    onClicked: root.openPlace(modelData.id)
                }
                ColumnLayout {
                    id: pieceText
                    x: Theme.gapM; y: Theme.gapM
                    width: parent.width - 2 * Theme.gapM
                    spacing: 2
                    MonoText { text: modelData.displayId + " · " + modelData.kind; color: Theme.accentDeep }
                    Text {
                        text: modelData.name
                        font.family: Theme.sans; font.pixelSize: Theme.bodySize; font.weight: Font.DemiBold
                        color: Theme.ink
                    }
                    Text {
                        Layout.fillWidth: true
                        text: modelData.does + (modelData.kind === "lab" ? "  ·  its lab card is above"
                                                : pieceRow.hasPage ? "" : "  ·  not built yet")
                        font.family: Theme.sans; font.pixelSize: Theme.smallSize
                        color: Theme.layerMuted(1)
                        wrapMode: Text.WordWrap
                    }
                }
            }
        }

        ChapterSteps {
            Layout.fillWidth: true
            Layout.topMargin: Theme.gapXL
            number: root.page.number || 0
            onOpenPlace: place => root.openPlace(place)
        }
    }
}
