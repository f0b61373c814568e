pragma Singleton
import QtQuick
import TpuCourse.Ui

// How many characters of the prose face a line holds, as a width: the
// reader's column (readerWidth) and the prose of cards and lists set
// beside it (width()). The face's mean advance comes from one sentence of
// English at the reader's size. A singleton of its own, made when a page
// with prose first asks, not with the first screen.
QtObject {
    readonly property TextMetrics sample: TextMetrics {
        font.family: Theme.sans
        font.pixelSize: Theme.readerSize
        text: "The matrix units do hundreds of multiply-adds for every byte that HBM delivers to them."
    }
    readonly property real advance: sample.advanceWidth / sample.text.length
    // The reader's column: Theme.readerMeasure characters.
    readonly property real readerWidth: Math.round(Theme.readerMeasure * advance)
    // `characters` of the face at `pixelSize`.
    function width(pixelSize: int, characters: int): int {
        return Math.round(characters * advance * pixelSize / Theme.readerSize)
    }
}
