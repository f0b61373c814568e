import QtQuick
import TpuCourse.Shell

// M4 ragged and grouped kernels: the reader's exhibit viewer on exhibits/M4/.
ExhibitPage {
    folder: Qt.resolvedUrl("../exhibits/M4/")
}
