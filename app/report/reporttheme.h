#pragma once

#include <QColor>
#include <QString>

// The report's one theme: the app's hues (chapters/api/qml/Theme.qml)
// darkened for white paper, its two typefaces, and a type scale in points.
// The HTML style sheet, the PDF's running header and the charts all read it.
namespace reporttheme {

inline const QString kSans = QStringLiteral("Inter");
inline const QString kMono = QStringLiteral("JetBrains Mono");
inline const QString kSansStack = QStringLiteral("'Inter', 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif");
inline const QString kMonoStack = QStringLiteral("'JetBrains Mono', 'DejaVu Sans Mono', Menlo, Consolas, monospace");

inline const QColor kInk(0x11, 0x15, 0x1d);
inline const QColor kMuted(0x5a, 0x55, 0x4d);
inline const QColor kFaint(0x8f, 0x8b, 0x85);
inline const QColor kRule(0xd3, 0xcd, 0xc2);
inline const QColor kHairline(0xe6, 0xe1, 0xd7);
inline const QColor kPaperTint(0xf6, 0xf2, 0xea);      // Theme.paper: the top of the descent
inline const QColor kPredicted(0x8a, 0x5b, 0x00);      // Theme.amberDeep
inline const QColor kPredictedLight(0xf0, 0xb4, 0x29); // Theme.amber, for fills
inline const QColor kVerified(0x1f, 0x7f, 0x76);
inline const QColor kMeasured(0x2f, 0x7d, 0x3e);
inline const QColor kFailed(0xc6, 0x28, 0x28);
inline const QColor kLocked(0x8f, 0x8b, 0x85);

// Type scale, points.
inline constexpr double kTitlePt = 22;
inline constexpr double kHeadingPt = 14;
inline constexpr double kSubheadingPt = 11;
inline constexpr double kBodyPt = 9.5;
inline constexpr double kSmallPt = 8;
inline constexpr double kTinyPt = 7;

// Page: margins and the running header's band, millimetres.
inline constexpr double kMarginMm = 16;
inline constexpr double kHeaderBandMm = 9;
inline constexpr double kFooterBandMm = 8;

inline QString css(const QColor &c)
{
    return c.name(QColor::HexRgb);
}

} // namespace reporttheme
