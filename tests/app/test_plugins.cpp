#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <catch2/catch.hpp>

#include <chapters/chaptercatalog.h>
#include <chapters/chapterinterface.h>

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>

using course::ChapterCatalog;

namespace {

QString fixtures(const char *set)
{
    return QDir(QStringLiteral(TPU_COURSE_FIXTURE_DIR)).filePath(QString::fromLatin1(set));
}

bool anyProblemMentions(const ChapterCatalog &c, const QString &needle)
{
    for (const auto &p : c.problems())
        if (p.message.contains(needle, Qt::CaseInsensitive))
            return true;
    return false;
}

} // namespace

TEST_CASE("a good plugin's metadata is read without loading its library", "[plugins]")
{
    ChapterCatalog catalog;
    catalog.scan(fixtures("good"));
    REQUIRE(catalog.problems().isEmpty());
    REQUIRE(catalog.chapters().size() == 1);
    const auto &c = catalog.chapters().constFirst();
    CHECK(c.number == 1);
    CHECK(c.title == QStringLiteral("Fixture"));
    CHECK(c.mastery.size() == 1);
    CHECK(c.pieces.constFirst().displayId() == QStringLiteral("EX·01"));
    CHECK_FALSE(catalog.isLoaded(1));

    auto *chapter = catalog.load(1);
    REQUIRE(chapter != nullptr);
    CHECK(catalog.isLoaded(1));
    CHECK(chapter->slug() == QStringLiteral("fixture"));
    CHECK(chapter->introMarkdown().contains(QStringLiteral("Text of a test chapter.")));
    CHECK(chapter->pieceUrl(QStringLiteral("EX01")).isEmpty());
}

TEST_CASE("a plugin with another interface id is skipped", "[plugins]")
{
    ChapterCatalog catalog;
    catalog.scan(fixtures("wrong_iid"));
    CHECK(catalog.chapters().isEmpty());
    REQUIRE(catalog.problems().size() == 1);
    CHECK(catalog.problems().constFirst().message.contains(QStringLiteral("org.example.SomethingElse/1")));
}

TEST_CASE("a plugin built for another API version is skipped", "[plugins]")
{
    ChapterCatalog catalog;
    catalog.scan(fixtures("old_api"));
    CHECK(catalog.chapters().isEmpty());
    CHECK(anyProblemMentions(catalog, QStringLiteral("API version 1")));
}

TEST_CASE("malformed metadata is skipped with the key that is wrong", "[plugins]")
{
    SECTION("a missing key")
    {
        ChapterCatalog catalog;
        catalog.scan(fixtures("missing_key"));
        CHECK(catalog.chapters().isEmpty());
        CHECK(anyProblemMentions(catalog, QStringLiteral("\"title\"")));
    }
    SECTION("a piece of an unknown kind")
    {
        ChapterCatalog catalog;
        catalog.scan(fixtures("bad_kind"));
        CHECK(catalog.chapters().isEmpty());
        CHECK(anyProblemMentions(catalog, QStringLiteral("\"toy\"")));
    }
}

TEST_CASE("a library that fails to load is reported when opened, and the rest still work", "[plugins]")
{
    ChapterCatalog catalog;
    catalog.scan(fixtures("unloadable"));
    REQUIRE(catalog.chapters().size() == 1); // its metadata is fine
    CHECK(catalog.load(1) == nullptr);
    CHECK(anyProblemMentions(catalog, QStringLiteral("could not be loaded")));
}

TEST_CASE("a mixed folder keeps the good plugins and names every bad one", "[plugins]")
{
    ChapterCatalog catalog;
    catalog.scan(fixtures("mixed"), 3);
    QList<int> numbers;
    for (const auto &c : catalog.chapters())
        numbers << c.number;
    CHECK(numbers == QList<int>{1, 3});
    CHECK(anyProblemMentions(catalog, QStringLiteral("API version 0")));
    CHECK(anyProblemMentions(catalog, QStringLiteral("chapter 2 is missing")));
    CHECK(anyProblemMentions(catalog, QStringLiteral("no plugin metadata")));
    CHECK(catalog.load(1) != nullptr);
    CHECK(catalog.load(3) == nullptr);
}

TEST_CASE("metadata rules, one by one", "[plugins][metadata]")
{
    const QByteArray good = R"({"apiVersion":2,"number":4,"slug":"xla","title":"XLA","summary":"s","layer":4,
        "layerName":"XLA","layerLine":"l","mastery":[{"id":"a","text":"t"}],"pieces":[]})";
    auto parse = [](const QByteArray &json, QString *error) {
        return course::parseChapterMetadata(QJsonDocument::fromJson(json).object(), error);
    };
    QString error;
    REQUIRE(parse(good, &error).has_value());

    QByteArray noWork = good;
    noWork.replace(R"([{"id":"a","text":"t"}])", "[]");
    CHECK_FALSE(parse(noWork, &error).has_value());
    CHECK(error.contains(QStringLiteral("no work")));

    QByteArray badLayer = good;
    badLayer.replace(R"("layer":4)", R"("layer":12)");
    CHECK_FALSE(parse(badLayer, &error).has_value());
    CHECK(error.contains(QStringLiteral("\"layer\"")));

    QByteArray extra = good;
    extra.replace(R"("slug")", R"("colour":"red","slug")");
    CHECK_FALSE(parse(extra, &error).has_value());
    CHECK(error.contains(QStringLiteral("unknown key \"colour\"")));

    QByteArray badSlug = good;
    badSlug.replace(R"("slug":"xla")", R"("slug":"X LA")");
    CHECK_FALSE(parse(badSlug, &error).has_value());

    QByteArray twice = good;
    twice.replace(R"([{"id":"a","text":"t"}])", R"([{"id":"a","text":"t"},{"id":"a","text":"u"}])");
    CHECK_FALSE(parse(twice, &error).has_value());
    CHECK(error.contains(QStringLiteral("twice")));

    // "pages" names pieces the chapter lists, never a lab.
    QByteArray pieces = good;
    pieces.replace(R"("pieces":[])", R"("pieces":[{"id":"EX04","kind":"instrument","name":"n","does":"d"},)"
                                     R"({"id":"L03","kind":"lab","name":"n","does":"d"}],"pages":["EX04"])");
    const auto withPage = parse(pieces, &error);
    REQUIRE(withPage.has_value());
    CHECK(withPage->pieces[0].hasPage);
    CHECK_FALSE(withPage->pieces[1].hasPage);
    QByteArray unknownPage = pieces;
    unknownPage.replace(R"("pages":["EX04"])", R"("pages":["EX07"])");
    CHECK_FALSE(parse(unknownPage, &error).has_value());
    CHECK(error.contains(QStringLiteral("\"EX07\" is not a piece the chapter lists")));
    QByteArray labPage = pieces;
    labPage.replace(R"("pages":["EX04"])", R"("pages":["L03"])");
    CHECK_FALSE(parse(labPage, &error).has_value());
    CHECK(error.contains(QStringLiteral("is a lab")));
}

TEST_CASE("the course's own fifteen chapters all load", "[plugins][course]")
{
    ChapterCatalog catalog;
    catalog.scan(QStringLiteral(TPU_COURSE_CHAPTER_DIR), 15);
    for (const auto &p : catalog.problems())
        UNSCOPED_INFO(p.file.toStdString() << ": " << p.message.toStdString());
    REQUIRE(catalog.problems().isEmpty());
    REQUIRE(catalog.chapters().size() == 15);
    int stages = 0;
    int pieces = 0;
    for (const auto &c : catalog.chapters()) {
        stages += c.isStage() ? 1 : 0;
        pieces += static_cast<int>(c.pieces.size());
        auto *chapter = catalog.load(c.number);
        REQUIRE(chapter != nullptr);
        CHECK(chapter->slug() == c.slug);
        CHECK(chapter->introMarkdown().size() > 500);
        // The build lists a page for exactly the pieces the plugin serves one for.
        for (const auto &piece : c.pieces) {
            INFO(piece.id.toStdString());
            CHECK(piece.hasPage == !chapter->pieceUrl(piece.id).isEmpty());
        }
    }
    CHECK(stages == 6);
    // As many pieces as the chapters' own chapter.json files list: none lost on the way into the plugins.
    int listed = 0;
    for (const QFileInfo &json : QDir(QStringLiteral(TPU_COURSE_SOURCE_DIR "/chapters"))
                                     .entryInfoList({QStringLiteral("[0-9][0-9]-*")}, QDir::Dirs, QDir::Name)) {
        QFile f(json.filePath() + QStringLiteral("/chapter.json"));
        REQUIRE(f.open(QIODevice::ReadOnly));
        listed += static_cast<int>(
            QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("pieces")).toArray().size());
    }
    CHECK(listed >= 39);
    CHECK(pieces == listed);
}
