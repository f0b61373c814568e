#pragma once

#include <QByteArray>
#include <QColor>
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

// WCAG 2's contrast ratio of fg on bg (fg drawn over bg when translucent):
// 4.5:1 is asked of text, 3:1 of large text and control edges.
double contrastRatio(const QColor &fg, const QColor &bg);
