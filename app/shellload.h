#pragma once

#include <QFont>
#include <QList>
#include <QSize>

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

    // Reads the system's font list and opens firstScreenFonts() for a
    // window of this size, so the first texts made do not each wait for
    // it; answers the reading between fonts.
    void warmFonts(QSize windowSize);

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

// The window's size at launch: 1440x900, the size the course is drawn
// for, or less where the screen's free area (less room for the window's
// frame) is smaller; never below the window's minimum, 1024x640.
QSize openingWindowSize(QSize screenAvailable);

// The fonts the stack's first screen sets its texts in, in a window of
// this size (the theme's type scale follows the window's size).
QList<QFont> firstScreenFonts(QSize windowSize = QSize(1440, 900));
