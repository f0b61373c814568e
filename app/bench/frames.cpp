// Frame times while a learner works, at 1440x900 with the renderer the
// environment picks (offscreen and software by default): each built
// instrument's first scrub number stepped once a frame for two seconds (or,
// for those worked with the pointer, the pointer swept over their main
// view, or dragged along it, a few pixels a frame), and
// every chapter with pieces set into its text scrolled a step a frame for two
// seconds, at once and again after a rest in which its pieces are made.
// Each sample is the time from the change to the frame that shows it; p50
// and p99 are printed against a 60 Hz frame, 16.7 ms.
//   bench_frames [SECONDS] [ID...]   (default 2 s; IDs such as EX07 or ch10
//                                     measure those only; other arguments,
//                                     meant for the simulator's benchmarks,
//                                     are ignored)
#include "benchshell.h"
#include "reader/reader.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QQuickItem>
#include <QRegularExpression>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <vector>

namespace {

bool shown(const QQuickItem *item)
{
    for (; item; item = item->parentItem())
        if (!item->isVisible() || item->opacity() <= 0)
            return false;
    return true;
}

// The first item on screen that `wanted` picks, in the order a reader
// meets them (breadth first down the item tree).
template <typename Wanted>
QQuickItem *firstShown(QQuickItem *root, Wanted wanted)
{
    QList<QQuickItem *> queue{root};
    while (!queue.isEmpty()) {
        QQuickItem *item = queue.takeFirst();
        if (wanted(item) && shown(item))
            return item;
        queue << item->childItems();
    }
    return nullptr;
}

QQuickItem *firstScrub(QQuickItem *root)
{
    return firstShown(
        root, [](QQuickItem *item) { return QByteArray(item->metaObject()->className()).startsWith("ScrubNumber"); });
}

void waitBuilt(QQuickWindow *window)
{
    BenchShell::runUntil(
        [window] {
            QVariant busy = true;
            return !QMetaObject::invokeMethod(window, "isBusy", Q_RETURN_ARG(QVariant, busy)) || !busy.toBool();
        },
        10000);
}

// Whether every piece set into the open chapter's text is made.
bool piecesMade(QQuickWindow *window)
{
    QVariant made = false;
    QObject *page = window->findChild<QObject *>(QStringLiteral("chapterPage"));
    return page && QMetaObject::invokeMethod(page, "piecesMade", Q_RETURN_ARG(QVariant, made)) && made.toBool();
}

// The instruments whose main gesture is the pointer rather than a scrub
// number: the item it works on (by objectName, or its start), the direction
// it sweeps, and whether the button is held (a drag) or not (pointing).
struct PointerScrub
{
    const char *piece;
    const char *item;
    Qt::Orientation sweep;
    bool held;
    const char *what;
};
const PointerScrub pointerScrubs[] = {
    {"EX04", "ex04View", Qt::Horizontal, true, "map dragged"},
    {"EX05", "ex05Pane_", Qt::Vertical, false, "pointer down a dump"},
    {"EX08", "ex08Timeline", Qt::Horizontal, false, "pointer along the lanes"},
    {"EX10", "ex10Scrub", Qt::Horizontal, true, "events dragged"},
};

// The first item on screen, with room, whose objectName starts with `nameOrStart`.
QQuickItem *findNamed(QQuickItem *root, const QString &nameOrStart)
{
    return firstShown(root, [&nameOrStart](QQuickItem *item) {
        return item->objectName().startsWith(nameOrStart) && item->width() > 0 && item->height() > 0;
    });
}

// Scrolls the page holding `item` until the item's top is on screen, as a
// learner would before working it.
void scrollIntoView(QQuickItem *item, QQuickWindow *window)
{
    for (QQuickItem *p = item->parentItem(); p; p = p->parentItem()) {
        if (!p->inherits("QQuickFlickable"))
            continue;
        const QRectF box = item->mapRectToScene(QRectF(0, 0, item->width(), item->height()));
        if (box.top() >= 0 && box.bottom() <= window->height())
            return;
        const double maximum = std::max(0.0, p->property("contentHeight").toDouble() - p->height());
        const double y = p->property("contentY").toDouble() + box.top() - window->height() * 0.2;
        p->setProperty("contentY", std::clamp(y, 0.0, maximum));
        return;
    }
}

// Through the window system, as a real pointer comes in (so the window
// tracks where the pointer is, and hover cards open as they do for a learner).
void sendMouse(QQuickWindow *window, QEvent::Type type, QPointF at)
{
    const QPoint p = at.toPoint();
    if (type == QEvent::MouseButtonPress)
        QTest::mousePress(window, Qt::LeftButton, Qt::NoModifier, p);
    else if (type == QEvent::MouseButtonRelease)
        QTest::mouseRelease(window, Qt::LeftButton, Qt::NoModifier, p);
    else
        QTest::mouseMove(window, p);
}

struct Row
{
    QString what;
    std::vector<double> ms;   // change to frame, on the clock
    std::vector<double> busy; // of which the GUI thread was on a core
    double stolenShare = 0;   // of the machine's CPU time meanwhile, what the host took
};

// The busy column is the GUI thread's CPU time at the same percentile: a
// p99 over the frame with a small busy p99 is time spent waiting for a
// core, not work the page did. On a virtual machine, the share of CPU time
// its host took during the row follows (steal): where it is large, the
// waiting was the machine's. With TPU_COURSE_FRAMES_DUMP set, every
// sample (clock/busy) follows its row, in order: whether slow frames come
// at a steady beat, at the start, or grow.
void print(const Row &row, bool dump)
{
    std::printf("%-34s %6zu frames  p50 %6.2f ms  p99 %6.2f ms  (busy %5.2f, steal %2.0f%%)%s\n", qPrintable(row.what),
                row.ms.size(), median(row.ms), percentile(row.ms, 99), percentile(row.busy, 99), 100 * row.stolenShare,
                percentile(row.ms, 99) <= 16.7 ? "" : "  (over a 60 Hz frame)");
    if (dump) {
        for (size_t i = 0; i < row.ms.size(); ++i)
            std::printf("%s%5.1f/%4.1f", i % 8 == 0 ? "\n   " : " ", row.ms[i], row.busy[i]);
        std::printf("\n");
    }
}

// The one timing loop: change(n) for n = 0, 1, ... once a frame for
// `seconds`, each sample the time from the change to the frame showing it.
Row timed(const BenchShell &shell, const QString &what, double seconds, const std::function<bool(int)> &change)
{
    Row row{what, {}, {}, 0};
    QElapsedTimer clock;
    clock.start();
    const double stolenBefore = hostStolenMs();
    for (int n = 0; clock.elapsed() < seconds * 1000; ++n) {
        double busy = 0;
        row.ms.push_back(shell.toNextFrame([&] { return change(n); }, &busy));
        row.busy.push_back(busy);
    }
    const double cores = std::max(1, QThread::idealThreadCount());
    row.stolenShare = (hostStolenMs() - stolenBefore) / (static_cast<double>(clock.elapsed()) * cores);
    return row;
}

// The pointer swept back and forth along the middle of the gesture's item,
// 6 px a frame, kept inside the window; empty when the item is not shown.
std::optional<Row> timeGesture(const BenchShell &shell, const QString &id, const PointerScrub &gesture, double seconds,
                               bool dump)
{
    QQuickWindow *window = shell.window();
    QQuickItem *target = findNamed(window->contentItem(), QString::fromLatin1(gesture.item));
    if (!target) {
        std::printf("%-34s %s not on screen\n", qPrintable(id), gesture.item);
        return std::nullopt;
    }
    scrollIntoView(target, window);
    shell.toNextFrame([] { return true; });
    const QRectF box = target->mapRectToScene(QRectF(0, 0, target->width(), target->height()))
                           .intersected(QRectF(0, 0, window->width(), window->height()))
                           .adjusted(2, 2, -2, -2);
    const bool across = gesture.sweep == Qt::Horizontal;
    const double from = across ? box.left() : box.top(), to = across ? box.right() : box.bottom();
    const auto at = [&](double t) { return across ? QPointF(t, box.center().y()) : QPointF(box.center().x(), t); };
    QString what = id + QStringLiteral(" · ") + QString::fromLatin1(gesture.what);
    sendMouse(window, QEvent::MouseMove, at(from));
    if (gesture.held)
        sendMouse(window, QEvent::MouseButtonPress, at(from));
    // First, untimed: half way along and a rest long enough for a hover
    // card to open. A gesture that changes nothing on screen would time
    // idle frames, and is said to.
    const QImage before = window->grabWindow();
    for (double p = from; p <= (from + to) / 2; p += 6) {
        sendMouse(window, QEvent::MouseMove, at(p));
        QCoreApplication::processEvents();
    }
    QTest::qWait(400);
    const QImage after = window->grabWindow();
    if (dump) {
        before.save(QStringLiteral("/tmp/tpu-frames-%1-before.png").arg(id));
        after.save(QStringLiteral("/tmp/tpu-frames-%1-after.png").arg(id));
    }
    if (after == before)
        what += QStringLiteral(" (changed nothing on screen)");
    sendMouse(window, QEvent::MouseMove, at(from));
    shell.toNextFrame([] { return true; });
    double t = from, direction = 6;
    Row row = timed(shell, what, seconds, [&](int) {
        if (t + direction > to || t + direction < from)
            direction = -direction;
        t += direction;
        sendMouse(window, QEvent::MouseMove, at(t));
        return true;
    });
    if (gesture.held)
        sendMouse(window, QEvent::MouseButtonRelease, at(t));
    return row;
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
    const auto keep = [&rows, dump](const Row &row) {
        print(row, dump);
        rows.push_back(row);
    };
    for (const QVariant &v : shell.course().pieces()) {
        const QVariantMap piece = v.toMap();
        if (piece.value(QStringLiteral("kind")).toString() != QLatin1String("instrument") ||
            !piece.value(QStringLiteral("hasPage")).toBool())
            continue;
        const QString id = piece.value(QStringLiteral("id")).toString();
        if (!wanted(id) || !shell.navigate(id))
            continue;
        waitBuilt(window);
        shell.toNextFrame([] { return true; });
        const auto gesture = std::find_if(std::begin(pointerScrubs), std::end(pointerScrubs),
                                          [&id](const PointerScrub &p) { return id == QLatin1String(p.piece); });
        if (gesture != std::end(pointerScrubs)) {
            if (const auto row = timeGesture(shell, id, *gesture, seconds, dump))
                keep(*row);
            continue;
        }
        QQuickItem *scrub = firstScrub(window->contentItem());
        if (!scrub) {
            std::printf("%-34s no scrub number on screen\n", qPrintable(id));
            continue;
        }
        keep(timed(shell, id + QStringLiteral(" · ") + scrub->property("label").toString(), seconds, [&](int n) {
            // Up eight steps, down eight: the value stays in its range.
            const int step = (n / 8) % 2 == 0 ? 1 : -1;
            return QMetaObject::invokeMethod(scrub, "stepBy", Q_ARG(QVariant, step), Q_ARG(QVariant, false));
        }));
    }

    // Every chapter whose text holds a piece: scrolling past one is where a
    // page does the most work. First scrolled the moment the page is
    // built, each piece made as the view nears it; then, opened afresh,
    // scrolled after a rest long enough for its pieces to be made ahead of
    // the view, as they are while a learner reads the first screen.
    QStringList chapters;
    for (int number = 1; number <= static_cast<int>(shell.catalog().chapters().size()); ++number) {
        const QString chapter = QStringLiteral("ch%1").arg(number, 2, 10, QLatin1Char('0'));
        if (wanted(chapter) &&
            !shell.course().reader()->chapterDocument(number, {}).value(QStringLiteral("pieces")).toList().isEmpty())
            chapters << chapter;
    }
    for (const bool rested : {false, true})
        for (const QString &chapter : std::as_const(chapters)) {
            // A chapter opened again keeps its page: another one between.
            if (rested && chapters.size() == 1)
                shell.navigate(QStringLiteral("ch01"));
            shell.navigate(chapter);
            waitBuilt(window);
            shell.toNextFrame([] { return true; });
            if (rested && !BenchShell::runUntil([window] { return piecesMade(window); }, 10000))
                std::printf("%-34s pieces not all made after a 10 s rest\n", qPrintable(chapter));
            QObject *page = window->findChild<QObject *>(QStringLiteral("chapterPage"));
            double y = 0;
            const QString what =
                rested ? QStringLiteral("%1 scrolled after a rest") : QStringLiteral("%1 scrolled, pieces inline");
            keep(timed(shell, what.arg(chapter), seconds, [&](int) {
                const double maximum = page->property("maximumY").toDouble();
                y = y + 40 > maximum ? 0 : y + 40;
                return page->setProperty("contentY", y);
            }));
        }

    double worst = 0;
    for (const Row &row : rows)
        worst = std::max(worst, percentile(row.ms, 99));
    std::printf("worst p99: %.2f ms (goal 16.7 ms)\n", worst);
    return 0;
}
