import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui

// Paste a dump of your own: its IR is recognised from the text, so one box
// serves jaxpr, StableHLO and HLO alike.
Popup {
    id: root
    signal submitted(string text)
    property alias text: area.text

    modal: true
    focus: true
    padding: Theme.gapL
    background: Rectangle { color: Theme.card; radius: Theme.radius; border.color: Theme.cardBorder }
    onOpened: area.forceActiveFocus()

    // Made with the dialog, not deferred to Qt Quick Controls: its text area
    // is named (text aliases it), and a style never replaces it.
    contentItem: ColumnLayout { // qmllint disable deferred-property-id
        spacing: Theme.gap
        Text {
            text: "Paste a jaxpr, a StableHLO module or an HLO dump (Ctrl+Enter reads it). It fills the pane of its layer; paste the same program's other layers to link them."
            Layout.fillWidth: true
            color: Theme.inkMuted
            font.family: Theme.sans
            font.pixelSize: Theme.smallSize
            wrapMode: Text.WordWrap
        }
        ScrollView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            TextArea {
                id: area
                objectName: "ex05PasteText"
                font.family: Theme.mono
                font.pixelSize: Theme.tinySize
                color: Theme.inkText
                placeholderText: "{ lambda ; a:f32[8,16] b:f32[16,4]. let c:f32[8,4] = dot_general[...] a b in (c,) }"
                placeholderTextColor: Theme.inkFaint
                background: Rectangle { color: Theme.chartPlot; radius: Theme.radius }
                wrapMode: TextEdit.NoWrap
                selectByMouse: true
                Keys.onPressed: event => {  // Ctrl+Enter x-rays it; Enter alone is a new line
                    if ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                            && (event.modifiers & Qt.ControlModifier) && text.trim().length > 0) {
                        root.submitted(text)
                        root.close()
                        event.accepted = true
                    }
                }
            }
        }
        RowLayout {
            spacing: Theme.gap
            PlainButton {
                objectName: "ex05PasteGo"
                text: "x-ray it"
                mono: true
                fillColor: Theme.accent; hoverColor: Theme.accentHover; textColor: Theme.ink
                enabled: area.text.trim().length > 0
                opacity: enabled ? 1 : 0.5
                onClicked: { root.submitted(area.text); root.close() }
            }
            PlainButton {
                text: "cancel"
                mono: true
                fillColor: "transparent"; textColor: Theme.accent
                onClicked: root.close()
            }
        }
    }
}
