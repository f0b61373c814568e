#pragma once

#include <QSize>
#include <QString>

class ImageFileWrite;
class QQmlApplicationEngine;

// Shows the loaded window at the given size, opens PLACE, waits until it has
// rendered, and starts writing it to out's PNG (out.wait() says whether it
// was written). Returns the process exit code and prints one line on failure.
int saveScreenshot(QQmlApplicationEngine &engine, const QString &place, QSize size, ImageFileWrite &out);

// The same, but writes what the page shows as a layout report (JSON: every
// visible text and control, its rectangle, whether it is cut off or out of
// reach), for checking a page at a window size without looking at it.
int saveLayoutReport(QQmlApplicationEngine &engine, const QString &place, QSize size, const QString &path);

// The window's very first frame, grabbed the moment it is shown and
// written as saveScreenshot writes its page:
// what a learner sees first, with the parts made after it still to come.
// The start-up benchmark times this against a bare Qt Quick window doing
// the same.
int saveFirstFrame(QQmlApplicationEngine &engine, QSize size, ImageFileWrite &out);
