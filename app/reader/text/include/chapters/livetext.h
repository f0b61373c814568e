#pragma once

#include <QColor>
#include <QString>

namespace course {

// How live numbers look on the page they sit on: the fonts and colours the
// reader's theme passes in.
struct LiveTextStyle
{
    QString fontFamily = QStringLiteral("Inter");
    QString monoFamily = QStringLiteral("JetBrains Mono");
    QColor text{0x11, 0x15, 0x1d};
    QColor predicted{0x8a, 0x5b, 0x00}; // a model's answer
    QColor fact{0x11, 0x15, 0x1d};      // a published figure
    QColor assumed{0xa2, 0x1c, 0xaf};   // a figure the simulator assumes, no source publishing it
    QColor problem{0xc6, 0x28, 0x28};
    QColor input{0x31, 0x2e, 0x81};   // a number the reader drags
    QColor codeInk{0x11, 0x15, 0x1d}; // code spans in prose
    // Code spans in prose, in pixels (0: as the text). The monospace face
    // runs larger than the prose face at one size, so spans are set smaller.
    int codePixelSize = 0;
};

} // namespace course
