import QtQuick
import TpuCourse.Shell

// M3 flash attention, from paper to TPU kernel: the reader's exhibit viewer
// on exhibits/M3/.
ExhibitPage {
    folder: Qt.resolvedUrl("../exhibits/M3/")
}
