#include "liveinput.h"

#include <QStringList>

namespace course {

// {{input n=4096 from=256 to=16384 step=256 log unit=rows}}
bool parseLiveInput(const QString &spec, LiveInput &input, QString &problem)
{
    const QStringList words = spec.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (int i = 1; i < words.size(); ++i) {
        const QString &w = words.at(i);
        const qsizetype eq = w.indexOf(QLatin1Char('='));
        const QString key = eq < 0 ? w : w.left(eq);
        const QString value = eq < 0 ? QString() : w.mid(eq + 1);
        bool ok = true;
        if (key == QLatin1String("log") && eq < 0)
            input.logarithmic = true;
        else if (key == QLatin1String("from"))
            input.from = value.toDouble(&ok);
        else if (key == QLatin1String("to"))
            input.to = value.toDouble(&ok);
        else if (key == QLatin1String("step"))
            input.step = value.toDouble(&ok);
        else if (key == QLatin1String("unit"))
            input.unit = value;
        else if (input.name.isEmpty() && eq > 0 && key.front().isLetter())
            input.name = key, input.value = value.toDouble(&ok);
        else
            ok = false;
        if (!ok) {
            problem = QStringLiteral(
                          "{{%1}}: \"%2\" is not something an input takes (name=value, from=, to=, step=, log, unit=).")
                          .arg(spec, w);
            return false;
        }
    }
    if (input.name.isEmpty() || !(input.from < input.to) || input.value < input.from || input.value > input.to ||
        input.step <= 0) {
        problem =
            QStringLiteral("{{%1}}: an input needs name=value with from <= value <= to, from < to and a positive step.")
                .arg(spec);
        return false;
    }
    return true;
}

} // namespace course
