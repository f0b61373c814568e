#pragma once

#include <QFont>
#include <QList>

#include <memory>

class QQmlApplicationEngine;
class QQmlComponent;

// Opening the window in two halves, so start-up's slow parts overlap: the
// engine's loader thread reads the shell's QML (and the Qt Quick modules it
// imports) while the main thread readies the fonts (and CourseData opens
// the store and scans the chapters on a thread of its own). The QML modules' static
// plugins register their types; the Course object need only exist by finish().
class ShellLoad
{
public:
    // Starts reading the shell's QML in the background.
    explicit ShellLoad(QQmlApplicationEngine &engine);
    ~ShellLoad();
    ShellLoad(const ShellLoad &) = delete;
    ShellLoad &operator=(const ShellLoad &) = delete;

    // Reads the system's font list and opens firstScreenFonts(), so the
    // first texts made do not each wait for it; answers the reading
    // between fonts.
    void warmFonts();

    // The reading stops at each QML module with a plugin until this thread
    // has initialized the module for the engine (the loader thread calls
    // into this one and waits). Answers any such call now, so the reading
    // does not wait for the whole of this thread's start-up; to be called
    // between its steps.
    void answerReading();

    // Creates the window, waiting for the reading if it is not done;
    // false when the window could not be created.
    bool finish();

private:
    QQmlApplicationEngine &m_engine;
    std::unique_ptr<QQmlComponent> m_reading;
};

// Loads the shell's window into engine in one go (both halves at once);
// false when it could not be created.
bool loadShell(QQmlApplicationEngine &engine);

// The fonts the stack's first screen sets its texts in, at the window's
// opening size.
QList<QFont> firstScreenFonts();
