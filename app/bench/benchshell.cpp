#include "benchshell.h"
#include "drawingchoice.h"
#include "shellload.h"

#include <QtQml/qqmlextensionplugin.h>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include <unistd.h>

Q_IMPORT_QML_PLUGIN(TpuCourse_UiPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_ShellPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_SimPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_BackendPlugin)

BenchShell::BenchShell(const char *benchName)
{
    drawing::applyForThisDisplay(); // as the app draws on this display
    m_store.emplace(progress::Store::open(m_dir.filePath(QStringLiteral("p.sqlite")).toStdString()));
    m_catalog.scan(QCoreApplication::applicationDirPath() + QStringLiteral("/chapters"), 15);
    std::vector<progress::ChapterRow> rows;
    for (const auto &c : m_catalog.chapters())
        rows.push_back({c.number, c.slug.toStdString(), c.title.toStdString()});
    m_store->syncChapters(rows);
    m_course = std::make_unique<Course>(m_catalog, *m_store);
    m_course->exposeToQml();
    m_engine = std::make_unique<QQmlApplicationEngine>();
    if (!loadShell(*m_engine) || m_engine->rootObjects().isEmpty()) {
        std::fprintf(stderr, "%s: the window could not be loaded.\n", benchName);
        return;
    }
    m_window = qobject_cast<QQuickWindow *>(m_engine->rootObjects().constFirst());
    m_window->resize(1440, 900);
    m_window->show();
    toNextFrame([] { return true; });
}

bool BenchShell::navigate(const QString &place) const
{
    QVariant ok;
    QMetaObject::invokeMethod(m_window, "navigate", Q_RETURN_ARG(QVariant, ok), Q_ARG(QVariant, place));
    return ok.toBool();
}

namespace {

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

} // namespace

bool BenchShell::runUntil(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    QEventLoop loop;
    QTimer look;
    look.setInterval(5);
    QObject::connect(&look, &QTimer::timeout, &loop, [&] {
        if (done() || clock.elapsed() >= timeoutMs)
            loop.quit();
    });
    if (!done()) {
        look.start();
        loop.exec();
    }
    return done();
}

double BenchShell::toNextFrame(const std::function<bool()> &action, double *busyMs) const
{
    // The wait runs an event loop, as the app's exec() does, not bare
    // processEvents() calls: objects a change lets go of (a Repeater's old
    // delegates, say) are deleted only inside a running loop. Without one
    // they piled up, and the script heap and its collections grew with
    // every step.
    QEventLoop loop;
    bool swapped = false;
    const auto connection = QObject::connect(m_window, &QQuickWindow::frameSwapped, &loop, [&swapped, &loop] {
        swapped = true;
        loop.quit();
    });
    QTimer giveUp;
    giveUp.setSingleShot(true);
    QObject::connect(&giveUp, &QTimer::timeout, &loop, &QEventLoop::quit);
    QElapsedTimer clock;
    clock.start();
    const double cpuAtStart = threadCpuMs();
    const bool done = action();
    m_window->update();
    if (done && !swapped) {
        giveUp.start(10000);
        loop.exec();
    }
    QObject::disconnect(connection);
    if (busyMs)
        *busyMs = threadCpuMs() - cpuAtStart;
    return done && swapped ? clock.nsecsElapsed() / 1e6 : -1;
}

double hostStolenMs()
{
    std::FILE *stat = std::fopen("/proc/stat", "r");
    if (!stat)
        return 0;
    // cpu  user nice system idle iowait irq softirq steal ...
    unsigned long long field[8] = {};
    const int read = std::fscanf(stat, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &field[0], &field[1], &field[2],
                                 &field[3], &field[4], &field[5], &field[6], &field[7]);
    std::fclose(stat);
    const long ticksPerSecond = sysconf(_SC_CLK_TCK);
    return read == 8 && ticksPerSecond > 0
               ? static_cast<double>(field[7]) * 1000.0 / static_cast<double>(ticksPerSecond)
               : 0;
}

double median(std::vector<double> v)
{
    return percentile(std::move(v), 50);
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
    return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}
