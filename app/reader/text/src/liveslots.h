#pragma once

// Live numbers travel through the parsed chapter as letters-and-digits
// tokens ("TPUCOURSESLOT3X"), so Markdown never reads their underscores or
// stars; the parser numbers them, the filler replaces them with values.
// Private to the chapter text library.

#include <QRegularExpression>
#include <QString>

namespace course::liveslots {

inline QString token(int n)
{
    return QStringLiteral("TPUCOURSESLOT") + QString::number(n) + QLatin1Char('X');
}

inline const QRegularExpression &pattern()
{
    static const QRegularExpression rx(QStringLiteral("TPUCOURSESLOT(\\d+)X"));
    return rx;
}

// `text` with every token replaced by what `replace(n)` gives for its number.
template <typename Replace>
QString substitute(const QString &text, Replace replace)
{
    QString out;
    qsizetype last = 0;
    auto it = pattern().globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        out += text.mid(last, m.capturedStart() - last);
        last = m.capturedEnd();
        out += replace(m.captured(1).toInt());
    }
    return out + text.mid(last);
}

} // namespace course::liveslots
