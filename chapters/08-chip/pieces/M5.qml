import QtQuick
import TpuCourse.Shell

// M5 the systolic array, from 1978 to the MXU: the reader's exhibit viewer
// on exhibits/M5/.
ExhibitPage {
    folder: Qt.resolvedUrl("../exhibits/M5/")
}
