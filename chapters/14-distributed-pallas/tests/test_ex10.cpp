#include <catch2/catch.hpp>

#include "qtwait.h"
#include "shellfixture.h"

#include <tpusim/chips.h>
#include <tpusim/semaphores.h>

#include <QFile>

#include <QQuickItem>
#include <QStringList>
#include <QTest>
#include <algorithm>

namespace {

// The program the piece opens with: the shipped ring all-gather.
tpusim::SemProgram ringAllGather()
{
    QFile f(QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/semaphores/ring_all_gather.sem"));
    REQUIRE(f.open(QIODevice::ReadOnly));
    return tpusim::parse_semaphore_program(f.readAll().toStdString(), "ring_all_gather.sem");
}

QString shown(ShellFixture &shell, const char *name)
{
    for (QObject *item : shell.findAll(name))
        if (ShellFixture::isShown(item))
            return item->property("text").toString().trimmed();
    return QStringLiteral("<not shown: %1>").arg(QString::fromLatin1(name));
}

QQuickItem *item(ShellFixture &shell, const QString &name)
{
    auto *found = qobject_cast<QQuickItem *>(shell.find(name.toUtf8().constData()));
    REQUIRE(found != nullptr);
    return found;
}

void click(ShellFixture &shell, QQuickItem *target)
{
    const QPoint at = target->mapToScene(QPointF(target->width() / 2, target->height() / 2)).toPoint();
    QTest::mouseClick(shell.window(), Qt::LeftButton, {}, at);
}

} // namespace

TEST_CASE("EX10 scrubs the ring all-gather and steps into libtpusim's deadlock", "[ex10][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX10")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("piece"));
    QQuickItem *scrub = item(shell, QStringLiteral("ex10Scrub"));
    WAIT_VERIFY(ShellFixture::isShown(scrub));

    const tpusim::SemProgram program = ringAllGather();
    const tpusim::Chip &chip = tpusim::chip("v5e");
    const tpusim::SemRun run = tpusim::run_semaphores(program, chip);
    const int events = static_cast<int>(run.events.size());
    REQUIRE(scrub->property("count").toInt() == events);

    // Drag from the start halfway along the track, then finish with End.
    const qreal margin = scrub->property("trackMargin").toReal();
    const qreal width = scrub->width() - 2 * margin;
    const auto at = [&](qreal f) {
        return scrub->mapToScene(QPointF(margin + width * f, scrub->height() / 2)).toPoint();
    };
    QTest::mousePress(shell.window(), Qt::LeftButton, {}, at(0));
    for (int i = 1; i <= 5; ++i)
        QTest::mouseMove(shell.window(), at(0.1 * i));
    QTest::mouseRelease(shell.window(), Qt::LeftButton, {}, at(0.5));
    const int half = scrub->property("value").toInt();
    CHECK(half > 0);
    CHECK(half < events - 1);
    QTest::keyClick(shell.window(), Qt::Key_Right);
    WAIT_COMPARE(scrub->property("value").toInt(), half + 1);
    QTest::keyClick(shell.window(), Qt::Key_End);
    WAIT_COMPARE(scrub->property("value").toInt(), events - 1);

    CHECK(shown(shell, "ex10Status") == QString::fromStdString(std::string(tpusim::sem_status_name(run.status))));
    CHECK(shown(shell, "ex10Status") == QStringLiteral("ok"));
    CHECK(shown(shell, "ex10EndTime") == QString::fromStdString(tpusim::format_time(run.end_s)));
    CHECK(shown(shell, "ex10Now").startsWith(QStringLiteral("event %1/%1").arg(events)));
    CHECK(shell.store().masteryItemsDone(14).count("ch14-semaphores") == 0);

    // Drop the copy that signals the receive semaphores, through the UI.
    std::size_t copy = 0;
    for (const auto &s : tpusim::semaphore_statements(program))
        if (s.text.rfind("remote_copy", 0) == 0)
            copy = s.index;
    REQUIRE(copy > 0);
    click(shell, item(shell, QStringLiteral("ex10Statement_%1").arg(copy)));
    QQuickItem *drop = item(shell, QStringLiteral("ex10Drop"));
    WAIT_VERIFY(drop->isEnabled());
    click(shell, drop);

    const tpusim::SemRun broken = tpusim::run_semaphores(tpusim::drop_statement(program, copy), chip);
    REQUIRE(broken.status == tpusim::SemStatus::deadlock);
    QStringList reasons;
    for (const auto &w : broken.deadlock)
        reasons << QString::fromStdString(w.reason);
    WAIT_COMPARE(shown(shell, "ex10Status"), QStringLiteral("deadlock"));
    CHECK(shown(shell, "ex10Problems") == reasons.join(QLatin1Char('\n')));
    CHECK(shown(shell, "ex10EndTime") == QString::fromStdString(tpusim::format_time(broken.end_s)));
    CHECK(shell.store().masteryItemsDone(14).count("ch14-semaphores") == 1);

    // The edited program is no longer the shipped one: its preset is unselected.
    CHECK_FALSE(item(shell, QStringLiteral("ex10Program_ring_all_gather"))->property("on").toBool());
    // The line a stuck device names is the number beside its statement in the listing.
    const auto statements = tpusim::semaphore_statements(tpusim::drop_statement(program, copy));
    for (const auto &w : broken.deadlock) {
        const auto named =
            std::find_if(statements.begin(), statements.end(), [&](const auto &s) { return s.line == w.line; });
        REQUIRE(named != statements.end());
        const auto row = static_cast<int>(named - statements.begin());
        WAIT_COMPARE(shown(shell, QStringLiteral("ex10LineNumber_%1").arg(row).toUtf8().constData()),
                     QString::number(w.line));
    }

    // A broken run opens at its end, where every stuck device's lane says
    // what it waits on.
    WAIT_COMPARE(scrub->property("value").toInt(), static_cast<int>(broken.events.size()) - 1);
    for (const auto &w : broken.deadlock)
        CHECK(shown(shell, ("ex10Stuck_" + std::to_string(w.device)).c_str()) ==
              QStringLiteral("stuck: waits on %1 (%2 of %3)")
                  .arg(QString::fromStdString(w.semaphore))
                  .arg(w.value)
                  .arg(w.needed));

    // Reset brings the working program back.
    click(shell, item(shell, QStringLiteral("ex10Reset")));
    WAIT_COMPARE(shown(shell, "ex10Status"), QStringLiteral("ok"));
    CHECK(item(shell, QStringLiteral("ex10Program_ring_all_gather"))->property("on").toBool());

    // Swapping the local copy with the wait after it waits on a copy not yet started.
    std::size_t local = 0;
    for (const auto &s : tpusim::semaphore_statements(program))
        if (s.text.rfind("local_copy", 0) == 0)
            local = s.index;
    click(shell, item(shell, QStringLiteral("ex10Statement_%1").arg(local)));
    click(shell, item(shell, QStringLiteral("ex10Swap")));
    const tpusim::SemRun swapped = tpusim::run_semaphores(tpusim::swap_statements(program, local, local + 1), chip);
    WAIT_COMPARE(shown(shell, "ex10Status"),
                 QString::fromStdString(std::string(tpusim::sem_status_name(swapped.status))));
    CHECK(shown(shell, "ex10EndTime") == QString::fromStdString(tpusim::format_time(swapped.end_s)));

    // Another chip times the same program with its own DMA and link figures.
    click(shell, item(shell, QStringLiteral("ex10Reset")));
    click(shell, item(shell, QStringLiteral("ex10Chip_v6e")));
    const tpusim::SemRun onV6e = tpusim::run_semaphores(program, tpusim::chip("v6e"));
    REQUIRE(onV6e.end_s != run.end_s);
    WAIT_COMPARE(shown(shell, "ex10EndTime"), QString::fromStdString(tpusim::format_time(onV6e.end_s)));
    CHECK(shown(shell, "ex10Status") == QStringLiteral("ok"));
}

TEST_CASE("EX10 opens the shipped broken programs: races and leftover semaphores marked where they happen",
          "[ex10][qml]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("EX10")));
    WAIT_COMPARE(shown(shell, "ex10Status"), QStringLiteral("ok"));
    const auto load = [](const char *name) {
        QFile f(QStringLiteral(TPU_COURSE_SOURCE_DIR "/assets/semaphores/") + QLatin1String(name) +
                QStringLiteral(".sem"));
        REQUIRE(f.open(QIODevice::ReadOnly));
        return tpusim::run_semaphores(tpusim::parse_semaphore_program(f.readAll().toStdString(), name),
                                      tpusim::chip("v5e"));
    };

    // A race: the verdict says which buffer, and the lane marks the moment.
    click(shell, item(shell, QStringLiteral("ex10Program_ring_all_gather_race_no_wait")));
    const tpusim::SemRun race = load("ring_all_gather_race_no_wait");
    REQUIRE(race.status == tpusim::SemStatus::race);
    WAIT_COMPARE(shown(shell, "ex10Status"), QStringLiteral("race"));
    QStringList texts;
    for (const auto &r : race.races)
        texts << QString::fromStdString(r.text);
    CHECK(shown(shell, "ex10Problems") == texts.join(QLatin1Char('\n')));
    CHECK(
        shown(shell, "ex10About").startsWith(QStringLiteral("The ring all-gather without the per-step receive wait")));
    const auto &first = race.races.front();
    QQuickItem *mark = item(shell, QStringLiteral("ex10Race_%1_0").arg(first.device));
    CHECK(ShellFixture::isShown(mark));
    shell.shot("ex10_race");
    // Opening a broken program is not the learner's own deadlock: no credit.
    click(shell, item(shell, QStringLiteral("ex10Program_ring_all_gather_deadlock_cycle")));
    WAIT_COMPARE(shown(shell, "ex10Status"), QStringLiteral("deadlock"));
    CHECK(shell.store().masteryItemsDone(14).count("ch14-semaphores") == 0);

    // Semaphores left nonzero: each device's lane says which, at the end.
    click(shell, item(shell, QStringLiteral("ex10Program_reduce_scatter_bidirectional_nonzero_capacity")));
    const tpusim::SemRun nonzero = load("reduce_scatter_bidirectional_nonzero_capacity");
    REQUIRE(nonzero.status == tpusim::SemStatus::nonzero_semaphore);
    WAIT_COMPARE(shown(shell, "ex10Status"), QStringLiteral("nonzero-semaphore"));
    QStringList left;
    for (const auto &n : nonzero.nonzero)
        if (n.device == 0)
            left << QStringLiteral("%1 = %2").arg(QString::fromStdString(n.semaphore)).arg(n.value);
    REQUIRE(!left.isEmpty());
    WAIT_COMPARE(shown(shell, "ex10Stuck_0"), QStringLiteral("exits with ") + left.join(QStringLiteral(", ")));
    shell.shot("ex10_nonzero");
}
