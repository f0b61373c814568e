#pragma once

#include <QSize>
#include <QString>

class QQmlApplicationEngine;

// Shows the loaded window at the given size, opens PLACE, waits until it has
// rendered, and saves it as a PNG. Returns the process exit code and prints
// one line on failure.
int saveScreenshot(QQmlApplicationEngine &engine, const QString &place, QSize size, const QString &path);
