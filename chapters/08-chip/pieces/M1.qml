import QtQuick
import TpuCourse.Shell

// M1 the TPU family: the reader's exhibit viewer on exhibits/M1/ (the chip
// table as an artifact, its notes and its charts).
ExhibitPage {
    folder: Qt.resolvedUrl("../exhibits/M1/")
}
