import QtQuick
import TpuCourse.Shell

// M2 an optimized HLO dump, fusion by fusion: the reader's exhibit viewer on
// exhibits/M2/ (the dump, its walk and its kernels costed).
ExhibitPage {
    folder: Qt.resolvedUrl("../exhibits/M2/")
}
