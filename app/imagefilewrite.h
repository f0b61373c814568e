#pragma once

#include <QImage>
#include <QString>

#include <thread>

// A grabbed window written to a PNG on a thread of its own, so the window
// can close while the picture is compressed (on two cores the two finish
// sooner together than in turn). The file is written whole or not at all:
// a failed write leaves what was at the path before.
class ImageFileWrite
{
public:
    explicit ImageFileWrite(QString path);
    ~ImageFileWrite();
    ImageFileWrite(const ImageFileWrite &) = delete;
    ImageFileWrite &operator=(const ImageFileWrite &) = delete;

    const QString &path() const { return m_path; }

    // Starts writing; at most once.
    void start(QImage image);
    // Waits for the write: an empty string, or the one sentence that says
    // why the file was not written. Empty too if nothing was started.
    QString wait();

private:
    const QString m_path;
    std::thread m_thread;
    QString m_problem;
};

// Writes image to path as a PNG, whole or not at all; an empty string, or
// the one sentence that says why it was not written.
QString writePng(const QImage &image, const QString &path);
