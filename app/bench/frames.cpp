// Frame times while a learner works, at 1440x900 with the renderer the
// environment picks (offscreen and software by default): each built
// instrument's first scrub number stepped once a frame for two seconds, and
// chapters with pieces set into their text scrolled a step a frame for two
// seconds. Each sample is the time from the change to the frame that shows
// it; p50 and p99 are printed against a 60 Hz frame, 16.7 ms.
//   bench_frames [SECONDS] [ID...]   (default 2 s; IDs such as EX07 or ch10
//                                     measure those only; other arguments,
//                                     meant for the simulator's benchmarks,
//                                     are ignored)
#include "benchshell.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QQuickItem>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

bool shown(const QQuickItem *item)
{
    for (; item; item = item->parentItem())
        if (!item->isVisible() || item->opacity() <= 0)
            return false;
    return true;
}

// The first scrub number on screen, in the order a reader meets them.
QQuickItem *firstScrub(QQuickItem *root)
{
    QList<QQuickItem *> queue{root};
    while (!queue.isEmpty()) {
        QQuickItem *item = queue.takeFirst();
        if (QByteArray(item->metaObject()->className()).startsWith("ScrubNumber") && shown(item))
            return item;
        queue << item->childItems();
    }
    return nullptr;
}

void waitBuilt(QQuickWindow *window)
{
    QElapsedTimer clock;
    clock.start();
    QVariant busy = true;
    while (clock.elapsed() < 10000 && QMetaObject::invokeMethod(window, "isBusy", Q_RETURN_ARG(QVariant, busy)) && busy.toBool())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

struct Row
{
    QString what;
    std::vector<double> ms;
};

// With TPU_COURSE_FRAMES_DUMP set, every sample follows its row, in order:
// whether slow frames come at a steady beat, at the start, or grow.
void print(const Row &row, bool dump)
{
    std::printf("%-34s %6zu frames  p50 %6.2f ms  p99 %6.2f ms%s\n", qPrintable(row.what), row.ms.size(), median(row.ms),
                percentile(row.ms, 99), percentile(row.ms, 99) <= 16.7 ? "" : "  (over a 60 Hz frame)");
    if (dump) {
        for (size_t i = 0; i < row.ms.size(); ++i)
            std::printf("%s%6.1f", i % 12 == 0 ? "\n   " : " ", row.ms[i]);
        std::printf("\n");
    }
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qEnvironmentVariableIsEmpty("QT_QUICK_BACKEND"))
        qputenv("QT_QUICK_BACKEND", "software");
    QApplication app(argc, argv);
    const double seconds = argc > 1 && std::atof(argv[1]) > 0 ? std::atof(argv[1]) : 2.0;
    QStringList only;
    for (int i = 1; i < argc; ++i)
        if (QRegularExpression(QStringLiteral("^(EX\\d\\d|ch\\d\\d)$")).match(QString::fromLatin1(argv[i])).hasMatch())
            only << QString::fromLatin1(argv[i]);
    const auto wanted = [&only](const QString &id) { return only.isEmpty() || only.contains(id); };
    const bool dump = qEnvironmentVariableIsSet("TPU_COURSE_FRAMES_DUMP");
    BenchShell shell("bench_frames");
    QQuickWindow *window = shell.window();
    if (!window)
        return 1;
    std::printf("Frame times at 1440x900, %s, %.0f s each\n", qPrintable(QGuiApplication::platformName()), seconds);

    std::vector<Row> rows;
    for (const QVariant &v : shell.course().pieces()) {
        const QVariantMap piece = v.toMap();
        if (piece.value(QStringLiteral("kind")).toString() != QLatin1String("instrument") || !piece.value(QStringLiteral("hasPage")).toBool())
            continue;
        const QString id = piece.value(QStringLiteral("id")).toString();
        if (!wanted(id) || !shell.navigate(id))
            continue;
        waitBuilt(window);
        shell.toNextFrame([] { return true; });
        QQuickItem *scrub = firstScrub(window->contentItem());
        if (!scrub) {
            std::printf("%-34s no scrub number on screen\n", qPrintable(id));
            continue;
        }
        Row row{id + QStringLiteral(" · ") + scrub->property("label").toString(), {}};
        QElapsedTimer clock;
        clock.start();
        for (int n = 0; clock.elapsed() < seconds * 1000; ++n) {
            // Up eight steps, down eight: the value stays in its range.
            const int step = (n / 8) % 2 == 0 ? 1 : -1;
            row.ms.push_back(shell.toNextFrame([&] {
                return QMetaObject::invokeMethod(scrub, "stepBy", Q_ARG(QVariant, step), Q_ARG(QVariant, false));
            }));
        }
        print(row, dump);
        rows.push_back(row);
    }

    for (const char *chapter : {"ch10", "ch11", "ch13"}) {
        if (!wanted(QString::fromLatin1(chapter)))
            continue;
        shell.navigate(QString::fromLatin1(chapter));
        waitBuilt(window);
        QObject *page = window->findChild<QObject *>(QStringLiteral("chapterPage"));
        Row row{QStringLiteral("%1 scrolled, pieces inline").arg(QLatin1String(chapter)), {}};
        QElapsedTimer clock;
        clock.start();
        double y = 0;
        while (clock.elapsed() < seconds * 1000) {
            const double maximum = page->property("maximumY").toDouble();
            y = y + 40 > maximum ? 0 : y + 40;
            row.ms.push_back(shell.toNextFrame([&] { return page->setProperty("contentY", y); }));
        }
        print(row, dump);
        rows.push_back(row);
    }

    double worst = 0;
    for (const Row &row : rows)
        worst = std::max(worst, percentile(row.ms, 99));
    std::printf("worst p99: %.2f ms (goal 16.7 ms)\n", worst);
    return 0;
}
