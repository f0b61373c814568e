#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

// Runs the built tpu-course binary and returns what it did.
struct RunResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

RunResult runApp(const QStringList &arguments, int timeoutMs = 60000);

// Runs any program; exitCode is -1 when it could not start or timed out.
RunResult runProgram(const QString &program, const QStringList &arguments, int timeoutMs = 60000);

QByteArray readFile(const QString &path);
