#include "shellfixture.h"

#include "profilesession.h"
#include "readersize.h"
#include "readertheme.h"
#include "readingplaces.h"
#include "shellload.h"

#include <catch2/catch.hpp>

#include <QtQml/qqmlextensionplugin.h>
#include <QImage>
#include <QQmlError>
#include <QQuickItem>
#include <QSet>
#include <QTest>

#include <cstdlib>

Q_IMPORT_QML_PLUGIN(TpuCourse_UiPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_ShellPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_ProfilePlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_ReadingPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_StorePlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_AboutPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_SimPlugin)
Q_IMPORT_QML_PLUGIN(TpuCourse_BackendPlugin)

ShellFixture::ShellFixture(const Prepare &prepare, bool shown)
{
    REQUIRE(m_dir.isValid());
    const std::string file = m_dir.filePath(QStringLiteral("p.sqlite")).toStdString();
    if (prepare)
        prepare(file);
    m_store.emplace(progress::Store::open(file));
    m_catalog.scan(QStringLiteral(TPU_COURSE_CHAPTER_DIR), 15);
    REQUIRE(m_catalog.chapters().size() == 15);
    std::vector<progress::ChapterRow> rows;
    for (const auto &c : m_catalog.chapters())
        rows.push_back({c.number, c.slug.toStdString(), c.title.toStdString()});
    m_store->syncChapters(rows);

    m_course = std::make_unique<Course>(m_catalog, *m_store);
    m_course->exposeToQml();
    ProfileSession::provide(&*m_store);
    ReadingPlaces::provide(&*m_store);
    ReaderSize::provide(&*m_store);
    ReaderTheme::provide(&*m_store);
    m_engine = std::make_unique<QQmlApplicationEngine>();
    QObject::connect(m_engine.get(), &QQmlEngine::warnings, m_engine.get(), [this](const QList<QQmlError> &errors) {
        for (const QQmlError &e : errors)
            m_qmlWarnings << e.toString();
    });
    REQUIRE(loadShell(*m_engine));
    m_window = qobject_cast<QQuickWindow *>(m_engine->rootObjects().constFirst());
    REQUIRE(m_window != nullptr);
    if (shown)
        show();
}

void ShellFixture::show()
{
    m_window->show();
    REQUIRE(QTest::qWaitForWindowExposed(m_window));
}

ShellFixture::~ShellFixture()
{
    // A binding that throws leaves its property at the last value it had:
    // the page may still look right, so a test would not see it otherwise.
    INFO(m_qmlWarnings.join(QLatin1Char('\n')).toStdString());
    CHECK(m_qmlWarnings.isEmpty());
}

namespace {

// Items made by a Repeater have a visual parent but no QObject parent, so
// findChild misses them: walk the item tree as well as the object tree.
void collect(QObject *object, const QString &name, QList<QObject *> &out, QSet<QObject *> &seen)
{
    if (!object || seen.contains(object))
        return;
    seen.insert(object);
    if (object->objectName() == name)
        out.append(object);
    for (QObject *child : object->children())
        collect(child, name, out, seen);
    if (auto *item = qobject_cast<QQuickItem *>(object))
        for (QQuickItem *child : item->childItems())
            collect(child, name, out, seen);
}

} // namespace

QList<QObject *> ShellFixture::findAll(const char *objectName) const
{
    QList<QObject *> out;
    QSet<QObject *> seen;
    collect(m_window->contentItem(), QString::fromLatin1(objectName), out, seen);
    collect(m_window, QString::fromLatin1(objectName), out, seen);
    return out;
}

QObject *ShellFixture::find(const char *objectName) const
{
    const auto all = findAll(objectName);
    return all.isEmpty() ? nullptr : all.constFirst();
}

QObject *ShellFixture::findShown(const char *objectName) const
{
    for (QObject *object : findAll(objectName))
        if (isShown(object))
            return object;
    return nullptr;
}

QList<QObject *> ShellFixture::findAllShown(const char *objectName) const
{
    QList<QObject *> out;
    for (QObject *object : findAll(objectName))
        if (isShown(object))
            out << object;
    return out;
}

bool ShellFixture::isShown(QObject *object)
{
    for (auto *item = qobject_cast<QQuickItem *>(object); item; item = item->parentItem())
        if (!item->isVisible() || item->opacity() <= 0)
            return false;
    return object != nullptr;
}

void ShellFixture::shot(const char *name) const
{
    const QString dir = qEnvironmentVariable("TPU_COURSE_TEST_SHOTS");
    if (dir.isEmpty())
        return;
    const QString file = dir + QLatin1Char('/') + QString::fromUtf8(name) + QStringLiteral(".png");
    if (!m_window->grabWindow().save(file))
        qWarning("could not save %s", qPrintable(file));
}

bool ShellFixture::navigate(const QString &place)
{
    QVariant ok;
    QMetaObject::invokeMethod(m_window, "navigate", Q_RETURN_ARG(QVariant, ok), Q_ARG(QVariant, place));
    return ok.toBool();
}

bool ShellFixture::busy() const
{
    QVariant b;
    return QMetaObject::invokeMethod(m_window, "isBusy", Q_RETURN_ARG(QVariant, b)) && b.toBool();
}

void ShellFixture::waitUntilBuilt() const
{
    // Generous: a page's build is made a slice a frame, and on a loaded
    // machine (the fuzzers' sanitized builds beside the tests) frames come
    // slowly. How fast it is built is the benchmarks' to say, not a test's.
    REQUIRE(QTest::qWaitFor([this] { return !busy(); }, 30000));
}

void ShellFixture::typeText(const QString &text)
{
    for (const QChar c : text)
        QTest::keyClick(m_window, c.toLatin1());
}

int pixelsNear(const QImage &image, const QColor &colour, const QRect &area)
{
    // Only the area is converted: a test asks of many small areas of one shot.
    const QImage part = area.isEmpty() ? image : image.copy(area.intersected(image.rect()));
    const QImage rgb = part.convertToFormat(QImage::Format_RGB32);
    int n = 0;
    for (int y = 0; y < rgb.height(); ++y) {
        const QRgb *line = reinterpret_cast<const QRgb *>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            n += std::abs(qRed(line[x]) - colour.red()) <= 6 && std::abs(qGreen(line[x]) - colour.green()) <= 6 &&
                 std::abs(qBlue(line[x]) - colour.blue()) <= 6;
    }
    return n;
}
