pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import TpuCourse.Ui
import TpuCourse.Backend

// Gate G0 asks for predictions before the measurement: one per bench row, in
// microseconds, time-stamped when entered. A later entry supersedes an
// earlier one; only those entered before a run's date count for that run.
Rectangle {
    id: root
    property string chip: "v5e"
    readonly property var rows: [
        { id: "matmul_nnn", label: "matmul NxNxN, N = 4096, bf16" },
        { id: "matmul_skinny", label: "matmul skinny 8xNxN, N = 4096, bf16" },
        { id: "elementwise_add", label: "elementwise add, 4096 × 4096, bf16" }
    ]
    property var entered: LabRuns.predictions("G0")
    property string message: ""

    implicitHeight: body.implicitHeight + Theme.gapL * 2
    radius: Theme.radius
    color: Theme.ink

    Connections { target: Course; function onProgressChanged() { root.entered = LabRuns.predictions("G0") } }

    ColumnLayout {
        id: body
        x: Theme.gapL; y: Theme.gapL
        width: parent.width - 2 * Theme.gapL
        spacing: Theme.gap
        MonoText { text: "G0 · your predictions, before you measure"; color: Theme.accent }
        Text {
            Layout.fillWidth: true
            text: "Work each row out by hand from the chip's figures, then enter it here. The app keeps every entry with the time you made it; when you import your L05 run, only predictions entered before the run count, and each must be within 25% of the measured median."
            font.family: Theme.sans; font.pixelSize: Theme.smallSize; lineHeight: 1.3
            color: Theme.inkMuted
            wrapMode: Text.WordWrap
        }
        Repeater {
            model: root.rows
            delegate: RowLayout {
                id: line
                required property var modelData
                Layout.fillWidth: true
                spacing: Theme.gapM
                readonly property var current: root.entered[modelData.id]
                Text {
                    Layout.preferredWidth: Theme.px(300)
                    text: line.modelData.label
                    font.family: Theme.sans; font.pixelSize: Theme.smallSize
                    color: Theme.inkText
                }
                ThemedField {
                    id: field
                    objectName: "prediction_" + line.modelData.id
                    Layout.preferredWidth: Theme.px(120)
                    placeholderText: "µs"
                    validator: DoubleValidator { bottom: 0.001; decimals: 3; notation: DoubleValidator.StandardNotation }
                    font.family: Theme.mono
                    onAccepted: enter.clicked()
                }
                PlainButton {
                    id: enter
                    text: "enter"
                    mono: true
                    fillColor: Theme.card; hoverColor: Theme.cardHover; textColor: Theme.inkText
                    onClicked: {
                        const us = Number(field.text)
                        if (!(us > 0)) { root.message = "Enter a time in microseconds, such as 697.7."; return }
                        if (LabRuns.enterPrediction("G0", line.modelData.id, us * 1e-6)) {
                            root.message = "Entered " + us + " µs for " + line.modelData.label + "."
                            field.text = ""
                        }
                    }
                }
                MonoText {
                    Layout.fillWidth: true
                    text: line.current ? (line.current.seconds * 1e6).toFixed(1) + " µs · entered " + line.current.enteredAt : "none yet"
                    color: line.current ? Theme.inkText : Theme.inkFaint
                    elide: Text.ElideRight
                }
            }
        }
        Text {
            visible: root.message !== ""
            text: root.message
            font.family: Theme.sans; font.pixelSize: Theme.smallSize
            color: Theme.inkMuted
        }
    }
}
