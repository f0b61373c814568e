#include "imagefilewrite.h"

#include <QDir>
#include <QImageWriter>
#include <QSaveFile>

#include <utility>

QString writePng(const QImage &image, const QString &path)
{
    const auto problem = [&path](const QString &reason) {
        return QStringLiteral("cannot write %1 (%2).").arg(QDir::toNativeSeparators(path), reason);
    };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return problem(file.errorString());
    QImageWriter writer(&file, "png");
    if (!writer.write(image))
        return problem(writer.errorString()); // the half-written copy is discarded with `file`
    if (!file.commit())
        return problem(file.errorString());
    return {};
}

ImageFileWrite::ImageFileWrite(QString path) : m_path(std::move(path)) {}

ImageFileWrite::~ImageFileWrite()
{
    wait();
}

void ImageFileWrite::start(QImage image)
{
    if (m_thread.joinable())
        return;
    // QImage and QImageWriter are reentrant: the thread owns its copy.
    m_thread = std::thread([this, image = std::move(image)] { m_problem = writePng(image, m_path); });
}

QString ImageFileWrite::wait()
{
    if (m_thread.joinable())
        m_thread.join();
    return m_problem;
}
