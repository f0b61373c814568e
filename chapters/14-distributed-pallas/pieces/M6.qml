import QtQuick
import TpuCourse.Shell

// M6 collective matmul: the reader's exhibit viewer on exhibits/M6/.
ExhibitPage {
    folder: Qt.resolvedUrl("../exhibits/M6/")
}
