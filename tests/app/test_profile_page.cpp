// The profile page: a real v6e profile dropped on the window, read off the
// GUI thread, shown op by op beside the simulator's predictions, kept in
// the store as measured runs, and linked to the IR x-ray; bad files named.
#include <catch2/catch.hpp>

#include "profilesession.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <progress/profiles.h>
#include <tpuprofile/op_table.h>
#include <tpuprofile/read.h>
#include <tpusim/provenance.h>

#include <QQuickItem>
#include <QSignalSpy>
#include <QTest>
#include <QUrl>

namespace {

const QString profiles = QStringLiteral(TPU_COURSE_SOURCE_DIR "/tests/simulators/profiles/");

QString shownText(ShellFixture &shell, const char *name)
{
    QObject *item = shell.findShown(name);
    return item ? item->property("text").toString() : QStringLiteral("(not shown)");
}

void drop(ShellFixture &shell, const QString &file)
{
    const QVariantList urls{QUrl::fromLocalFile(profiles + file)};
    QMetaObject::invokeMethod(shell.window(), "openFiles", Q_ARG(QVariant, QVariant(urls)));
}

bool readDone(ProfileSession *s)
{
    return s->state() != QLatin1String("reading");
}

} // namespace

TEST_CASE("a dropped v6e profile opens on its page, measured beside predicted", "[profile][qml]")
{
    ShellFixture shell;
    ProfileSession *session = ProfileSession::instance();
    QSignalSpy states(session, &ProfileSession::stateChanged);
    drop(shell, QStringLiteral("xprof_tpu_inference_2.xplane.pb"));
    // The read runs on a thread of its own: the drop returns while it reads.
    CHECK(states.count() >= 1);
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("profile"));
    WAIT_VERIFY(readDone(session));
    REQUIRE(session->state() == QStringLiteral("ready"));
    shell.waitUntilBuilt();
    shell.shot("profile-page");

    // The table is libtpuprofile's, row for row.
    const tpuprofile::Profile expected =
        tpuprofile::read_profile((profiles + "xprof_tpu_inference_2.xplane.pb").toStdString());
    const tpuprofile::OpTable table = tpuprofile::op_table(expected, 0);
    ProfileOpModel *ops = session->ops();
    REQUIRE(ops->rowCount() == static_cast<int>(table.rows.size()));
    for (int i = 0; i < ops->rowCount(); ++i) {
        const tpuprofile::OpRow &r = table.rows[static_cast<std::size_t>(i)];
        const QModelIndex at = ops->index(i);
        INFO(i);
        CHECK(ops->data(at, ProfileOpModel::NameRole).toString().toStdString() ==
              expected.devices[0].ops[static_cast<std::size_t>(r.op)].name);
        CHECK(ops->data(at, ProfileOpModel::TotalRole).toString().toStdString() == tpusim::format_time(r.self_total_s));
        if (r.predicted.available)
            CHECK(ops->data(at, ProfileOpModel::PredictedRole).toString().toStdString() ==
                  tpusim::format_time(r.predicted.time_s));
    }
    CHECK(shownText(shell, "profileFinding").startsWith(QStringLiteral("Copies between host memory and HBM took 96%")));

    // The broadcast-add fusions sit on one spot of the roofline: one label
    // counts them, where their names were written over one another.
    QObject *roofline = shell.findShown("profileRoofline");
    REQUIRE(roofline);
    QStringList named;
    QMetaObject::invokeMethod(roofline, "labels", Q_RETURN_ARG(QStringList, named));
    INFO(named.join(QStringLiteral(" | ")).toStdString());
    CHECK(named.contains(QStringLiteral("broadcast_add_fusion.1 and 2 more")));
    CHECK(named.filter(QStringLiteral("broadcast_add_fusion")).size() == 1);
    // Its roofs named: the peaks, the vector unit's, and the fitted rates
    // the rings are priced at.
    const QString roofs = roofline->property("roofKey").toString();
    CHECK(roofs.contains(QStringLiteral("solid, the peaks")));
    CHECK(roofs.contains(QStringLiteral("dashed, the vector unit's peak")));
    CHECK(roofs.contains(QStringLiteral("dotted, the rates long runs reach")));
    CHECK(shownText(shell, "profileRoofKey") == roofs);

    // Measured, and says by what: chip, device, programs, date, file.
    QObject *badge = shell.findShown("profileMeasuredBadge");
    REQUIRE(badge);
    CHECK(badge->property("kind").toString() == QStringLiteral("measured"));
    const QString details = badge->property("details").toString();
    for (const char *part :
         {"TPU v6 Lite (v6e)", "/device:TPU:0", "jit_f", "taken 2025-03-11", "xprof_tpu_inference_2.xplane.pb"})
        CHECK(details.contains(QLatin1String(part)));

    // Kept as measured runs: four devices, once each however often opened.
    progress::ProfileLedger ledger(shell.store());
    CHECK(ledger.profiles().size() == 4);
    session->openNow(profiles + "xprof_tpu_inference_2.xplane.pb");
    CHECK(ledger.profiles().size() == 4);
    CHECK(session->stored().startsWith(QStringLiteral("Already in your progress")));
    const auto stored = ledger.importedProfile(ledger.profiles().front().id);
    REQUIRE(stored);
    CHECK(stored->ops.size() == 17);
    CHECK(stored->chip == "v6e");
    CHECK(stored->ops.front().op == "copy-done.4");

    // The validation page counts the profile's predicted ops as rows of its own.
    REQUIRE(shell.navigate(QStringLiteral("validation")));
    QObject *section = shell.findShown("validationProfiles");
    REQUIRE(section);
    const QVariantList shown = section->property("profiles").toList();
    REQUIRE(shown.size() == 4);
    const QVariantMap tpu0 = shown.last().toMap(); // newest first: TPU:0 was stored first
    CHECK(tpu0.value("title").toString().startsWith(QStringLiteral("/device:TPU:0 · TPU v6 Lite (v6e)")));
    CHECK(tpu0.value("ops").toList().size() == 11);
    CHECK(tpu0.value("summary").toString().contains(QStringLiteral("median |error|")));
    REQUIRE(shell.navigate(QStringLiteral("profile")));

    // Sorting and filtering.
    ops->setFilter(QStringLiteral("fusion"));
    CHECK(ops->rowCount() == 3);
    ops->setFilter(QString());
    ops->setSortKey(QStringLiteral("count"));
    CHECK(ops->data(ops->index(ops->rowCount() - 1), ProfileOpModel::CountRole).toString() == QStringLiteral("1"));
    ops->setSortKey(QStringLiteral("time"));
}

TEST_CASE("an op of the profile opens in the IR x-ray at its instruction", "[profile][qml]")
{
    ShellFixture shell;
    ProfileSession *session = ProfileSession::instance();
    REQUIRE(session->openNow(profiles + "xprof_tpu_inference_2.xplane.pb").isEmpty());
    REQUIRE(shell.navigate(QStringLiteral("profile")));
    int fusionRow = -1;
    for (int i = 0; i < session->ops()->rowCount(); ++i)
        if (session->ops()->data(session->ops()->index(i), ProfileOpModel::NameRole).toString() ==
            QLatin1String("broadcast_add_fusion.1"))
            fusionRow = session->ops()->tableRow(i);
    REQUIRE(fusionRow >= 0);
    const QVariantMap detail = session->detail(fusionRow);
    CHECK(detail.value("hasHlo").toBool());
    CHECK(detail.value("predictedKnown").toBool());
    CHECK(detail.value("bound").toString() == QStringLiteral("HBM"));
    const QVariantMap target = session->xrayTarget(fusionRow);
    REQUIRE(target.value("op").toString() == QStringLiteral("broadcast_add_fusion.1"));
    QMetaObject::invokeMethod(shell.window(), "openInXray", Q_ARG(QVariant, target.value("text")),
                              Q_ARG(QVariant, target.value("origin")), Q_ARG(QVariant, target.value("op")));
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("piece"));
    QObject *xray = shell.findShown("ex05");
    REQUIRE(xray);
    WAIT_VERIFY(!xray->property("busy").toBool() && xray->property("pickLine").toInt() > 0);
    const QVariantList panes = xray->property("panes").toList();
    const int pane = xray->property("pickPane").toInt();
    const QStringList lines = panes.at(pane).toMap().value("lines").toStringList();
    CHECK(lines.at(xray->property("pickLine").toInt() - 1).contains(QLatin1String("%broadcast_add_fusion.1 = ")));
    shell.shot("profile-xray");
}

TEST_CASE("bad profiles are named in a sentence, and the last good one stays", "[profile][qml]")
{
    ShellFixture shell;
    ProfileSession *session = ProfileSession::instance();
    REQUIRE(session->openNow(profiles + "xprof_tpu_inference_2.xplane.pb").isEmpty());
    const QString problem = session->openNow(profiles + "xprof_tpu_inference_2.CORRUPT_utf8_mangled.xplane.pb");
    CHECK(problem.contains(QLatin1String("text conversion")));
    CHECK(session->state() == QStringLiteral("ready")); // the good profile is still shown
    CHECK(session->fileName() == QStringLiteral("xprof_tpu_inference_2.xplane.pb"));
    REQUIRE(shell.navigate(QStringLiteral("profile")));
    CHECK(shownText(shell, "profileProblem").isEmpty() == false);

    // A GPU profile opens with its devices, and says it has no TPU prediction.
    REQUIRE(session->openNow(profiles + "tracelens_mi300_jax08_gemm.xplane.pb").isEmpty());
    CHECK(session->devices().size() == 8);
    CHECK(session->summary().value("chipNote").toString() == QStringLiteral("GPU kernels have no TPU prediction."));
    CHECK(session->problem().isEmpty());
    // No fitted rates for a GPU: its chart keys no dotted roof.
    QObject *roofline = shell.findShown("profileRoofline");
    REQUIRE(roofline);
    CHECK_FALSE(roofline->property("roofKey").toString().contains(QStringLiteral("dotted")));
}

TEST_CASE("Escape in the profile page's file dialog closes the dialog, not the page", "[profile][qml][keys]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("profile")));
    QObject *page = shell.findShown("profilePage");
    REQUIRE(page);
    QMetaObject::invokeMethod(page, "chooseFile");
    QObject *dialog = nullptr;
    WAIT_VERIFY((dialog = page->property("dialog").value<QObject *>()) && dialog->property("visible").toBool());
    QTest::qWait(100);
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    WAIT_VERIFY(!dialog->property("visible").toBool());
    CHECK(shell.window()->property("page").toString() == QStringLiteral("profile"));
    // With no dialog open, Escape leaves the page as before.
    QTest::keyClick(shell.window(), Qt::Key_Escape);
    WAIT_COMPARE(shell.window()->property("page").toString(), QStringLiteral("stack"));
}

TEST_CASE("the profile page keeps the keys once a first profile opens on it", "[profile][qml][keys]")
{
    ShellFixture shell;
    REQUIRE(shell.navigate(QStringLiteral("profile")));
    QObject *page = shell.findShown("profilePage");
    REQUIRE(page);
    auto *session = ProfileSession::instance();
    // Chosen in the page's file dialog as a learner does, a path typed after
    // Ctrl+L: a damaged file, then a good one. The dialog, closing, leaves
    // the keys with the window's root item; the window gives them back.
    for (const char *file :
         {"xprof_tpu_inference_2.CORRUPT_utf8_mangled.xplane.pb", "xprof_tpu_inference_2.xplane.pb"}) {
        QMetaObject::invokeMethod(page, "chooseFile");
        QObject *dialog = nullptr;
        WAIT_VERIFY((dialog = page->property("dialog").value<QObject *>()) && dialog->property("visible").toBool());
        QTest::qWait(200);
        QTest::keyClick(shell.window(), Qt::Key_L, Qt::ControlModifier);
        QTest::qWait(100);
        for (const QChar c : profiles + QLatin1String(file))
            QTest::keyClick(shell.window(), c.toLatin1());
        QTest::keyClick(shell.window(), Qt::Key_Return);
        WAIT_VERIFY(!dialog->property("visible").toBool());
        WAIT_VERIFY(readDone(session));
    }
    REQUIRE(session->state() == QStringLiteral("ready"));
    WAIT_VERIFY(page->property("contentHeight").toDouble() > 2 * page->property("height").toDouble());
    QTest::keyClick(shell.window(), Qt::Key_PageDown);
    WAIT_VERIFY(page->property("contentY").toDouble() > 0);
}
