#include "support.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

RunResult runProgram(const QString &program, const QStringList &arguments, int timeoutMs)
{
    QProcess p;
    // A runtime folder of its own, so Qt's warning about a missing one never
    // adds a line to what the tests read from stderr.
    static const QTemporaryDir runtime;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!env.contains(QStringLiteral("XDG_RUNTIME_DIR")) && runtime.isValid()) {
        QFile::setPermissions(runtime.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime.path());
    }
    p.setProcessEnvironment(env);
    p.start(program, arguments);
    RunResult r;
    if (!p.waitForStarted(10000))
        return r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

RunResult runApp(const QStringList &arguments, int timeoutMs)
{
    return runProgram(QStringLiteral(TPU_COURSE_BIN), arguments, timeoutMs);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

namespace {

// WCAG 2's relative luminance of an sRGB colour, over the colour as drawn
// on `ground` when it is translucent.
double luminance(QColor c, const QColor &ground)
{
    if (c.alphaF() < 1.0) {
        const double a = c.alphaF();
        c = QColor::fromRgbF(float(c.redF() * a + ground.redF() * (1 - a)),
                             float(c.greenF() * a + ground.greenF() * (1 - a)),
                             float(c.blueF() * a + ground.blueF() * (1 - a)));
    }
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

} // namespace

double contrastRatio(const QColor &fg, const QColor &bg)
{
    const double a = luminance(fg, bg), b = luminance(bg, bg);
    return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
}
