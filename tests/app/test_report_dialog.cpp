#include <catch2/catch.hpp>

#include "qtwait.h"
#include "report/reportexport.h"
#include "shellfixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

namespace {

QString text(QObject *o)
{
    return o ? o->property("text").toString() : QString();
}

// Replaces the field's text with the keyboard, as a learner would.
void retype(ShellFixture &shell, QObject *field, const QString &value)
{
    QMetaObject::invokeMethod(field, "forceActiveFocus");
    QMetaObject::invokeMethod(field, "selectAll");
    shell.typeText(value);
}

} // namespace

TEST_CASE("Ctrl+E exports into a folder it makes, and the dialog starts there next time", "[report][qml]")
{
    QTemporaryDir settings;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       settings.path()); // keep the user's own settings out
    QTemporaryDir out;
    ShellFixture shell;
    QQuickWindow *window = shell.window();

    QTest::keyClick(window, Qt::Key_E, Qt::ControlModifier);
    QObject *path = shell.find("reportPath");
    QObject *learner = shell.find("reportLearner");
    REQUIRE(path != nullptr);
    REQUIRE(learner != nullptr);
    WAIT_VERIFY(ShellFixture::isShown(path));
    CHECK(text(path).endsWith(QStringLiteral("tpu-course-progress.pdf")));

    // Export stays where it is while the file's ending is typed: the
    // paper, a PDF's alone, is set aside rather than taken away.
    auto *exportButton = qobject_cast<QQuickItem *>(shell.find("reportExportButton"));
    REQUIRE(exportButton != nullptr);
    const QPointF exportAt = exportButton->mapToScene(QPointF(0, 0));
    retype(shell, path, QDir(out.path()).filePath(QStringLiteral("progress.html")));
    WAIT_VERIFY(ShellFixture::isShown(shell.find("reportPaperNote")));
    QTest::qWait(50);
    CHECK(exportButton->mapToScene(QPointF(0, 0)) == exportAt);

    const QString target = QDir(out.path()).filePath(QStringLiteral("reports/2026/progress.pdf"));
    retype(shell, learner, QStringLiteral("Grace Hopper"));
    retype(shell, path, target);
    // A click beside the dialog keeps it, and what was typed.
    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, QPoint(4, 4));
    QTest::qWait(100);
    CHECK(ShellFixture::isShown(path));
    CHECK(text(path) == target);
    QMetaObject::invokeMethod(path, "forceActiveFocus");
    QTest::keyClick(window, Qt::Key_Return);
    QObject *message = shell.find("reportMessage");
    WAIT_COMPARE(text(message), QStringLiteral("Written to ") + target);
    shell.shot("report-dialog-written");
    QFile pdf(target);
    REQUIRE(pdf.open(QIODevice::ReadOnly));
    CHECK(pdf.read(5) == "%PDF-");

    // Remembered: the folder and the name.
    CHECK(QFileInfo(shell.course().reportExport()->defaultPath()).absolutePath() == QFileInfo(target).absolutePath());
    CHECK(shell.course().reportExport()->learner() == QStringLiteral("Grace Hopper"));

    // The platform's file dialog opens in the remembered folder.
    QObject *choose = shell.find("reportChoose");
    QObject *picker = shell.find("reportPicker");
    REQUIRE(choose != nullptr);
    REQUIRE(picker != nullptr);
    CHECK(ShellFixture::isShown(choose)); // the folder-list module the drawn dialog needs is installed
    QMetaObject::invokeMethod(choose, "clicked");
    WAIT_VERIFY(picker->property("visible").toBool());
    CHECK(picker->property("currentFolder").toUrl() == QUrl::fromLocalFile(QFileInfo(target).absolutePath()));
    shell.shot("report-dialog-picker");
    QMetaObject::invokeMethod(picker, "reject");
    WAIT_VERIFY(!picker->property("visible").toBool());

    // .sqlite: the progress file itself, copied whole.
    const QString copy = QDir(out.path()).filePath(QStringLiteral("backups/progress.sqlite"));
    retype(shell, path, copy);
    QTest::keyClick(window, Qt::Key_Return);
    WAIT_COMPARE(text(message), QStringLiteral("Written to ") + copy);
    QFile sqlite(copy);
    REQUIRE(sqlite.open(QIODevice::ReadOnly));
    CHECK(sqlite.read(15) == "SQLite format 3");

    // A folder that cannot be made: one sentence, and nothing written.
    QFile blocker(QDir(out.path()).filePath(QStringLiteral("a-file")));
    REQUIRE(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    retype(shell, path, blocker.fileName() + QStringLiteral("/progress.pdf"));
    QTest::keyClick(window, Qt::Key_Return);
    WAIT_VERIFY(text(message).startsWith(QStringLiteral("The folder")));
    CHECK(text(message).endsWith(QStringLiteral("could not be created.")));
    CHECK_FALSE(text(message).contains(QLatin1Char('\n')));
    shell.shot("report-dialog-refused");
}
