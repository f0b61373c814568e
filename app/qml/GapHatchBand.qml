import QtQuick
import TpuCourse.Ui
import TpuCourse.Shell   // GapHatch, a C++ item of the module

// The gap's hatching, as LayerBand loads it for the gap's band alone.
GapHatch {
    lineColor: Theme.gapHatch
}
