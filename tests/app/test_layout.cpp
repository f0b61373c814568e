// Every place of the course at four window sizes: no two shown texts
// overlap, no text is cut off, and everything can be reached (in the
// window, or by scrolling). Read off the live item tree by the same code
// as --layout-report.
#include "layout/layoutreport.h"
#include "profilesession.h"
#include "shellfixture.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QRegularExpression>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QQuickWindow>
#include <QTest>

namespace {

// Lets bindings, layouts and deferred loads run before the page is read:
// 150 ms with the page building nothing (a chapter at rest makes its
// pieces ahead of the view; one begun meanwhile is waited for).
void settle(ShellFixture &shell)
{
    QQuickWindow *window = shell.window();
    QElapsedTimer clock, quiet;
    clock.start();
    quiet.start();
    while (quiet.elapsed() < 150 && clock.elapsed() < 10000) {
        if (shell.busy())
            quiet.restart();
        window->update();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QTest::qWait(10);
    }
}

QStringList placesOf(ShellFixture &shell)
{
    QStringList places{"stack",   "workshop", "bench",  "chips", "validation",
                       "profile", "palette",  "report", "about", "labs"};
    for (int n = 1; n <= 15; ++n)
        places << QStringLiteral("ch%1").arg(n, 2, 10, QLatin1Char('0'));
    for (const QVariant &piece : shell.course().pieces()) {
        const QVariantMap p = piece.toMap();
        if (p.value(QStringLiteral("hasPage")).toBool())
            places << p.value(QStringLiteral("id")).toString();
    }
    return places;
}

// The pieces whose page the chapters' folders hold (pieces/EX01.qml,
// pieces/M1.qml, pieces/D1.qml), read from the sources, not the catalog.
QStringList builtPieces()
{
    QStringList out;
    const QRegularExpression id(QStringLiteral("^(EX[0-9]{2}|M[0-9]|D[0-9])\\.qml$"));
    QDirIterator it(QStringLiteral(TPU_COURSE_SOURCE_DIR "/chapters"), {QStringLiteral("*.qml")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo file(it.next());
        if (file.dir().dirName() == QLatin1String("pieces") && id.match(file.fileName()).hasMatch())
            out << file.completeBaseName();
    }
    out.sort();
    return out;
}

// Leaves the place (closing any dialog or palette) for the next one.
void leave(ShellFixture &shell)
{
    QMetaObject::invokeMethod(shell.window(), "closeOverlays");
    shell.navigate(QStringLiteral("stack"));
}

} // namespace

TEST_CASE("every place fits the window at every common size", "[layout]")
{
    ShellFixture shell;
    // The profile page with a real profile open, as a learner sees it.
    REQUIRE(ProfileSession::instance()
                ->openNow(
                    QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/profiles/xprof_tpu_inference_2.xplane.pb"))
                .isEmpty());
    const QStringList places = placesOf(shell);
    REQUIRE(places.size() >= 30); // 22 places of the shell and chapters, eight instruments at least
    // Every piece with a page of its own in a chapter's folder is a place, so each is checked below.
    const QStringList built = builtPieces();
    REQUIRE(built.size() >= 24); // fourteen instruments, six exhibits, four drills
    for (const QString &piece : built) {
        INFO(piece.toStdString());
        CHECK(places.contains(piece));
    }
    // 1216x760 is the window a 1280x800 screen opens (openingWindowSize).
    const QList<QSize> sizes{{1216, 760}, {1440, 900}, {1920, 1080}, {2560, 1440}};
    QStringList problems;
    for (const QSize size : sizes) {
        shell.window()->resize(size);
        settle(shell);
        for (const QString &place : places) {
            REQUIRE(shell.navigate(place));
            shell.waitUntilBuilt();
            settle(shell);
            // A chapter as a reader finds it after a rest: every piece in
            // its text made (ahead of the view), and checked too.
            if (QObject *page = shell.find("chapterPage"); page && page->property("visible").toBool()) {
                const auto made = [page] {
                    QVariant v;
                    return QMetaObject::invokeMethod(page, "piecesMade", Q_RETURN_ARG(QVariant, v)) && v.toBool();
                };
                CHECK(QTest::qWaitFor(made, 10000));
                settle(shell);
            }
            const auto items = collectLayout(shell.window());
            CHECK(items.size() > 3);
            for (const QString &problem : layoutProblems(items))
                problems
                    << QStringLiteral("%1 at %2x%3: %4").arg(place).arg(size.width()).arg(size.height()).arg(problem);
            leave(shell);
        }
    }
    INFO(problems.join(QLatin1Char('\n')).toStdString());
    CHECK(problems.size() == 0);
}

TEST_CASE("the layout checks find what they look for", "[layout]")
{
    LayoutItem a;
    a.text = QStringLiteral("first");
    a.rect = a.shownRect = QRectF(0, 0, 100, 20);
    LayoutItem b = a;
    b.text = QStringLiteral("second");
    b.rect = b.shownRect = QRectF(50, 10, 100, 20);
    CHECK(layoutProblems({a, b}).size() == 1); // overlap
    b.rect = b.shownRect = QRectF(0, 22, 100, 20);
    CHECK(layoutProblems({a, b}).isEmpty()); // one under the other
    b.clipped = true;
    CHECK(layoutProblems({a, b}).size() == 1); // cut off
    b.clipped = false;
    b.reachable = false;
    b.shownRect = QRectF();
    CHECK(layoutProblems({a, b}).size() == 1); // out of reach
}
