#pragma once

#include "course.h"

#include <chapters/chaptercatalog.h>
#include <progress/store.h>

#include <QColor>
#include <QImage>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QRect>
#include <QTemporaryDir>

#include <functional>
#include <memory>
#include <optional>
#include <string>

// The whole shell in-process, as the app builds it: the course's chapters,
// a fresh progress file, the window shown offscreen.
class ShellFixture
{
public:
    // `prepare`, when given, writes the progress file (its path) before the
    // shell opens it: a store with history, or one tampered with by hand.
    using Prepare = std::function<void(const std::string &file)>;
    // `shown` false: the window is made but not shown (its first screen as
    // it stands before the window system has sized it); show() shows it.
    explicit ShellFixture(const Prepare &prepare = {}, bool shown = true);
    void show();
    // Checks that the QML engine warned of nothing while the test ran.
    ~ShellFixture();

    QQuickWindow *window() const { return m_window; }
    Course &course() { return *m_course; }
    course::ChapterCatalog &catalog() { return m_catalog; }
    progress::Store &store() { return *m_store; }

    // The first object with this objectName anywhere in the window.
    QObject *find(const char *objectName) const;
    QList<QObject *> findAll(const char *objectName) const;
    // The first one on screen: pages kept alive may hold namesakes.
    QObject *findShown(const char *objectName) const;
    // Every one on screen.
    QList<QObject *> findAllShown(const char *objectName) const;
    // Visible and not transparent, and so is every item above it.
    static bool isShown(QObject *object);
    bool navigate(const QString &place);
    // Waits until the page on show is built (the window's isBusy() false):
    // a chapter's blocks below its first screen, a piece in its text.
    // The window still building its page (its isBusy()).
    bool busy() const;
    void waitUntilBuilt() const;
    // Saves the window as <name>.png in the folder TPU_COURSE_TEST_SHOTS
    // names, when it is set: to look at the states a test reaches.
    void shot(const char *name) const;
    void typeText(const QString &text);
    // What the QML engine warned of since the shell was made: a binding
    // that threw, a type error, an assignment refused. Each as
    // "url:line: description".
    const QStringList &qmlWarnings() const { return m_qmlWarnings; }

private:
    QTemporaryDir m_dir;
    std::optional<progress::Store> m_store;
    course::ChapterCatalog m_catalog;
    std::unique_ptr<Course> m_course;
    std::unique_ptr<QQmlApplicationEngine> m_engine;
    QQuickWindow *m_window = nullptr;
    QStringList m_qmlWarnings;
};

// Pixels of `image` within 6 of `colour` on every channel, inside `area`
// (image pixels; the whole image when empty): what a test reads of a
// painted view.
int pixelsNear(const QImage &image, const QColor &colour, const QRect &area = {});
