import QtQuick
import QtQuick.Layouts
import TpuCourse.Ui

// A figure in a row of words, changed by a scrub: never narrower than
// `widest` and set to its right, so the words after it keep their place
// when the figure gets shorter (a whole "10 MiB" after "10.2 MiB").
MonoText {
    id: root
    property string widest: "888.8 MiB"
    Layout.preferredWidth: Math.max(implicitWidth, sample.advanceWidth)
    horizontalAlignment: Text.AlignRight
    TextMetrics { id: sample; font: root.font; text: root.widest }
}
