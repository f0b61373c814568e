import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The optimized HLO kernel an op ended up in, as libtpusim costs it: what
// XLA fused it into, the bytes it moves, its FLOPs and its predicted time.
ColumnLayout {
    id: root
    property var kernel: null       // a costed kernel, as IrXrayModel.kernelAt gives it
    property var provenance: ({})
    property var measured: ({})     // its device time in an imported profile: {time, deviceType, date, details}
    property bool measuredLine: false  // laid out, empty or not: a profile ran this program
    property string chip: ""
    readonly property string kindText: !kernel ? ""
        : kernel.opcode === "fusion" ? kernel.kind + " fusion" : kernel.opcode
    spacing: Theme.gap / 2
    opacity: kernel ? 1 : 0  // laid out even when empty, so the card keeps its height

    MonoText {
        objectName: "ex05Kernel"
        Layout.fillWidth: true
        text: root.kernel ? "in HLO kernel " + root.kernel.name + " · " + root.kindText + " on the " + root.kernel.engine
                            + " · " + root.kernel.flopsText : ""
        color: Theme.inkText
        elide: Text.ElideRight
    }
    // A Flow, so that a narrow card wraps the time and its badge onto the
    // next line rather than laying one over the other.
    Flow {
        id: figures
        Layout.fillWidth: true
        spacing: Theme.gap
        MonoText {
            objectName: "ex05KernelBytes"
            width: Math.min(implicitWidth, figures.width)
            text: root.kernel ? "reads " + root.kernel.readText + ", writes " + root.kernel.writtenText : ""
            color: Theme.inkMuted
            wrapMode: Text.Wrap
        }
        MonoText {
            objectName: "ex05KernelTime"
            width: Math.min(implicitWidth, figures.width)
            text: root.kernel ? "· " + root.kernel.time + " on " + root.chip
                                + (root.kernel.ici ? " over the ICI: " + root.kernel.ici : ", " + root.kernel.bound + "-bound")
                                + (root.kernel.runs !== 1 ? " · runs " + root.kernel.runs + " times in " + root.kernel.loop : "")
                              : ""
            color: Theme.predicted
            wrapMode: Text.Wrap
        }
        ProvenanceBadge {
            kind: root.provenance.kind || "predicted"
            details: root.provenance.details || ""
        }
    }
    // Measured, when a profile of this program was imported: beside the prediction.
    Flow {
        id: measuredRow
        Layout.fillWidth: true
        visible: root.measuredLine || !!root.measured.time
        opacity: root.measured.time ? 1 : 0
        spacing: Theme.gap
        MonoText {
            objectName: "ex05KernelMeasured"
            width: Math.min(implicitWidth, measuredRow.width)
            text: root.measured.time ? "measured " + root.measured.time + " a run on " + root.measured.deviceType
                                       + " · your profile, " + root.measured.date : ""
            color: Theme.measured
            wrapMode: Text.Wrap
        }
        ProvenanceBadge {
            kind: "measured"
            details: root.measured.details || ""
        }
    }
}
