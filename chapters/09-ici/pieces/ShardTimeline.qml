import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// One block's step on a timeline: the MXU's four matmuls on the first lane,
// the stretches where it waits on a transfer hatched below them (the time
// no matmul covers), then the transfers on the data axes' links and on the
// model axes' links. Pointing at a bar names it underneath.
ColumnLayout {
    id: root
    property var plan: ({})   // LayerShardingModel.plan
    spacing: Theme.gap / 2

    readonly property var collectives: plan.collectives || []
    property var pointed: null
    readonly property real labelWidth: Theme.px(92)

    // Short names inside the bars; the line below the lanes says them whole.
    function shortName(what) {
        return what.replace("all-gather", "AG").replace("reduce-scatter", "RS").replace("all-reduce", "AR")
                   .replace(/ \((next block|block above|block below)\)/, "′")
    }
    function transfers(role) {
        return root.collectives.filter(c => c.role === role).map(c => Object.assign({ label: root.shortName(c.what) }, c))
    }
    function point(bar) { root.pointed = bar }
    onPlanChanged: pointed = null

    ShardLane {
        name: "MXU"
        stepS: root.plan.stepS || 0
        labelWidth: root.labelWidth
        pointed: root.pointed
        onPointAt: bar => root.point(bar)
        bars: (root.plan.matmuls || []).map(m => Object.assign({ label: m.short }, m))
        fill: Theme.opFamilyColors[1]
        barPrefix: "ex14Matmul_"
    }
    ShardLane {
        objectName: "ex14IdleLane"
        name: "MXU waits"
        visible: (root.plan.idle || []).length > 0
        stepS: root.plan.stepS || 0
        labelWidth: root.labelWidth
        pointed: root.pointed
        onPointAt: bar => root.point(bar)
        bars: root.plan.idle || []
        hatched: true
        barPrefix: "ex14Idle_"
    }
    ShardLane {
        name: "data links"
        visible: bars.length > 0
        stepS: root.plan.stepS || 0
        labelWidth: root.labelWidth
        pointed: root.pointed
        onPointAt: bar => root.point(bar)
        bars: root.transfers("data")
        fill: Theme.opFamilyColors[6]
        barPrefix: "ex14Data_"
    }
    ShardLane {
        name: "model links"
        visible: bars.length > 0
        stepS: root.plan.stepS || 0
        labelWidth: root.labelWidth
        pointed: root.pointed
        onPointAt: bar => root.point(bar)
        bars: root.transfers("model")
        fill: Theme.opFamilyColors[6]
        barPrefix: "ex14Model_"
    }
    Text {
        objectName: "ex14Pointed"
        Layout.fillWidth: true
        Layout.leftMargin: root.labelWidth
        text: {
            const p = root.pointed
            if (!p)
                return "Point at a bar. Time runs left to right over one step of " + (root.plan.step || "") + "."
            if (p.waiting)
                return "The MXU waits " + p.time + " for " + p.waiting + "."
            if (p.kind)
                return p.what + " on the " + p.role + " axes: " + p.bytes + " in " + p.time + ", "
                       + (p.under === "" ? "on the critical path: the MXU waits for all of it"
                          : p.exposedS > 0 ? p.exposed + " of it past the end of " + p.under
                          : "hidden under " + p.under)
            return p.name + ": " + p.time + ", " + p.pass
        }
        font.family: Theme.sans; font.pixelSize: Theme.smallSize
        color: Theme.inkMuted
        wrapMode: Text.WordWrap
    }
}
