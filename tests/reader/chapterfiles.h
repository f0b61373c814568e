#pragma once

// The course's chapters as files, for the reader's tests: each chapter's
// folder and its Markdown, read from the source tree.
#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>

namespace chapterfiles {

inline const QString kChapters = QStringLiteral(TPU_COURSE_SOURCE_DIR "/chapters");

inline QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// "01-jax", "02-jaxpr", ... in order.
inline QStringList chapterFolders()
{
    return QDir(kChapters).entryList({QStringLiteral("[0-9][0-9]-*")}, QDir::Dirs, QDir::Name);
}

} // namespace chapterfiles
