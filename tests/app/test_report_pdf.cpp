// The report as a reader sees it: the PDF's pages and paper, its table
// cells, and the HTML page with the same content.
#include "reportfixture.h"

#include <algorithm>

#include <QLocale>

using namespace reportfixture;

TEST_CASE("the PDF report: a summary page, then the detail, each page numbered", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = fixedStore(dir);
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    exportReport(db, pdf, {"--page-size", "a4"});
    const int pages = pageCount(pdf);
    CHECK(pages >= 3);
    CHECK(pages <= 6);
    for (int page = 1; page <= pages; ++page)
        CHECK(pageText(pdf, page).contains(QStringLiteral("page %1 of %2").arg(page).arg(pages)));

    const QString summary = pageText(pdf, 1).simplified();
    CHECK(summary.contains(kLearner));
    CHECK(summary.contains(QStringLiteral("Learn to make TPUs fast")));
    // The fixed store's activity is all from today (or yesterday and today, run across midnight).
    CHECK((summary.contains(QStringLiteral("activity on")) || summary.contains(QStringLiteral("activity from"))));
    for (const char *stage :
         {"The machine", "Pallas fundamentals", "The IR stack", "The priesthood kernels", "Distributed Pallas"})
        CHECK(summary.contains(QString::fromUtf8(stage)));
    CHECK(summary.contains(QStringLiteral("Predicted against measured")));
    CHECK(summary.contains(QStringLiteral("v5e · your measured runs")));
    CHECK_FALSE(summary.contains(QStringLiteral("Every gate attempt")));

    const QString second = pageText(pdf, 2).simplified();
    CHECK(second.contains(QStringLiteral("Every gate attempt")));
    CHECK(second.contains(QStringLiteral("tpu-course · progress report · ") + kLearner)); // the running header
    CHECK(second.contains(QStringLiteral("not passed")));

    QString all;
    for (int page = 1; page <= pages; ++page)
        all += pageText(pdf, page).simplified() + QLatin1Char(' ');
    CHECK(all.contains(QStringLiteral("Chapters and their mastery work")));
    // The two lines of an example's cell; the text layer may read the chip's first line between them.
    CHECK(all.contains(QRegularExpression(QStringLiteral("example (\\S+ )?never counts"))));
    CHECK(all.contains(QStringLiteral("verified off-chip")));
    CHECK(all.contains(QStringLiteral("Capstone: shipped upstream")));
}

TEST_CASE("no table cell of the PDF breaks inside a word or a number", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = fixedStore(dir);
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    const QString json = dir.filePath(QStringLiteral("report.json"));
    exportReport(db, pdf, {"--page-size", "letter"});
    exportReport(db, json);
    QString layout;
    for (int page = 1, pages = pageCount(pdf); page <= pages; ++page)
        layout += pageText(pdf, page, true);

    // Every word a cell holds must appear whole on one line of the laid-out
    // text: a cell broken inside a word leaves only its pieces.
    QStringList words{"provenance", "predicted", "floor", "baseline", "correct", "verdict", "mastery"};
    for (const auto &v : readJson(json)["runs"].toArray()) {
        const QJsonObject run = v.toObject();
        words << run["shape"].toObject()["text"].toString().split(QLatin1Char(' '))
              << run["shape"].toObject()["axes"].toString().split(QLatin1Char(' '))
              << run["deviceKind"].toString().split(QLatin1Char(' '));
        // The run's date as the report writes it, "29 Nov 2026", kept on one line.
        const QDate date = QDateTime::fromString(run["date"].toString(), Qt::ISODate).toUTC().date();
        words << QLocale(QLocale::English, QLocale::UnitedKingdom).toString(date, QStringLiteral("d MMM yyyy"));
    }
    words.removeDuplicates();
    const QStringList lines = layout.split(QLatin1Char('\n'));
    for (const QString &word : words) {
        INFO("the word " << word.toStdString());
        const bool whole = std::any_of(lines.begin(), lines.end(), [&](const QString &line) {
            // A space in a word is a no-break space in the PDF: either matches.
            const QString pattern =
                QRegularExpression::escape(word).replace(QStringLiteral("\\ "), QStringLiteral("[\\s\\x{00a0}]"));
            return QRegularExpression(QStringLiteral("(^|\\s)%1(\\s|$)").arg(pattern)).match(line).hasMatch();
        });
        CHECK(whole);
    }
}

TEST_CASE("the PDF's paper follows --page-size", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("p.sqlite"));
    const QString a4 = dir.filePath(QStringLiteral("a4.pdf"));
    const QString letter = dir.filePath(QStringLiteral("letter.pdf"));
    exportReport(db, a4, {"--page-size", "a4"});
    exportReport(db, letter, {"--page-size", "Letter"});
    CHECK(runProgram(tool("pdfinfo"), {a4}).out.contains("595 x 842 pts (A4)"));
    CHECK(runProgram(tool("pdfinfo"), {letter}).out.contains("612 x 792 pts (letter)"));
    const RunResult bad = runApp({"--db", db, "--export-report", a4, "--page-size", "a3"});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.contains("is not a4 or letter"));
}

TEST_CASE("the HTML report is one self-contained page with the PDF's content", "[report][binary]")
{
    QTemporaryDir dir;
    const QString db = fixedStore(dir);
    const QString out = dir.filePath(QStringLiteral("report.html"));
    const QString json = dir.filePath(QStringLiteral("report.json"));
    exportReport(db, out);
    exportReport(db, json);
    const QString html = QString::fromUtf8(readFile(out));
    CHECK_FALSE(html.contains(QStringLiteral("<script")));
    CHECK_FALSE(html.contains(QStringLiteral("<link")));
    CHECK_FALSE(QRegularExpression(QStringLiteral("(src|href)=\"(https?:|file:|/)")).match(html).hasMatch());
    // The stage path, the chapter strip, one roofline, predicted against measured.
    CHECK(html.count(QStringLiteral("<svg")) == 4);
    for (const char *text : {"Learn to make TPUs fast", "Every gate attempt", "not passed",
                             "Chapters and their mastery work", "never counts", "predicted floor"})
        CHECK(html.contains(QString::fromUtf8(text)));
    CHECK(html.contains(kLearner));
    for (const auto &v : readJson(json)["runs"].toArray())
        CHECK(html.contains(v.toObject()["shape"].toObject()["text"].toString().toHtmlEscaped()));
}
