pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// The run's figures, each badged: the closed form's cycles and
// utilization, the same run stepped cycle by cycle, SCALE-Sim's fold count,
// and what the array is doing at the cursor.
ColumnLayout {
    id: root
    property var run: ({})
    property var frame: ({})
    property var stepped: ({})
    property string mode: "overlapped"
    readonly property var provenance: run.provenance || ({})
    readonly property var scaleSim: run.scaleSim || ({})
    spacing: Theme.gap

    component Figure: RowLayout {
        id: fig
        property alias name: nameText.text
        property alias value: valueText.text
        property string valueName: ""
        property bool badged: true
        spacing: Theme.gap
        Caption { id: nameText; Layout.preferredWidth: Theme.px(190); wrapMode: Text.Wrap }
        MonoText {
            id: valueText
            objectName: fig.valueName
            font.pixelSize: Theme.subheadingSize
            color: Theme.inkText
        }
        ProvenanceBadge {
            visible: fig.badged
            kind: root.provenance.kind || "predicted"
            details: root.provenance.details || ""
        }
        Item { Layout.fillWidth: true }
    }

    Figure { name: "cycles, closed form"; valueName: "ex06Cycles"; value: root.run.cyclesText || "—" }
    Figure { name: "utilization"; valueName: "ex06Utilization"; value: root.run.utilizationText || "—" }
    Figure {
        name: "stepped cycle by cycle"
        valueName: "ex06Stepped"
        badged: root.stepped.state === "done"
        value: root.stepped.state === "done" ? root.stepped.cyclesText
             : root.stepped.state === "running" ? "stepping…" : "—"
    }
    Text {
        objectName: "ex06SteppedNote"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        text: root.stepped.state === "done"
              ? (root.stepped.agrees ? "The array stepped cycle by cycle, every register, ends on the same cycle as the closed form."
                                     : "The stepped count differs from the closed form.")
              : root.stepped.state === "skipped" ? root.stepped.why : ""
    }
    Text {
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkFaint
        text: root.run.formula ? "closed form: " + root.run.formula : ""
    }

    Caption {
        Layout.topMargin: Theme.gap
        Layout.fillWidth: true
        wrapMode: Text.Wrap
        font.weight: Font.DemiBold
        text: "SCALE-Sim's count: " + (root.scaleSim.rowFolds || 0) + " row folds (K) × " + (root.scaleSim.colFolds || 0)
              + " column folds (N), each loaded, streamed and drained in turn"
    }
    Figure {
        name: "cycles, SCALE-Sim's count"
        valueName: "ex06ScaleSimCycles"
        value: root.scaleSim.cyclesText || "—"
    }
    Text {
        objectName: "ex06ScaleSimUtil"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.mono; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        text: root.scaleSim.overallText ? "folds × (3S + M − 2) = " + root.scaleSim.folds + " × " + root.scaleSim.perFold
                                          + "\noverall utilization " + root.scaleSim.overallText + " · mapping efficiency "
                                          + root.scaleSim.mappingText + " · compute utilization " + root.scaleSim.computeText : ""
    }

    Caption {
        Layout.topMargin: Theme.gap
        font.weight: Font.DemiBold
        text: "at cycle " + (root.frame.cycle || 0)
    }
    Text {
        objectName: "ex06Now"
        Layout.fillWidth: true
        wrapMode: Text.WordWrap
        font.family: Theme.mono; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        text: root.frame.usefulText === undefined ? ""
              : "busy: " + root.frame.usefulText
                + (root.frame.padding > 0 ? " · " + root.frame.padding + " more multiply zero padding" : "")
                + "\nresults finished: " + root.frame.resultsText
                + (root.frame.loadingFold >= 0 ? "\nloading tile " + (root.frame.loadingFold + 1) + " of " + (root.run.folds || 0)
                   + ": " + root.frame.loadingRows + " of " + (root.run.array || 0) + " rows of weights in"
                   + (root.mode === "overlapped" && root.frame.fold >= 0 ? ", behind the tile computing" : "") : "")
    }
}
