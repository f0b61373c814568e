#include "shellload.h"

#include <QFont>
#include <QFontMetricsF>
#include <QQmlApplicationEngine>
#include <QQmlComponent>
#include <QUrl>

namespace {

QUrl mainUrl() { return QUrl(QStringLiteral("qrc:/qt/qml/TpuCourse/Shell/Main.qml")); }

} // namespace

ShellLoad::ShellLoad(QQmlApplicationEngine &engine) : m_engine(engine)
{
    // Qt 6.4 has no loadFromModule: the modules live under qrc:/qt/qml.
    m_engine.addImportPath(QStringLiteral("qrc:/qt/qml"));
    m_reading = std::make_unique<QQmlComponent>(&m_engine, mainUrl(), QQmlComponent::Asynchronous);
}

ShellLoad::~ShellLoad() = default;

bool ShellLoad::finish()
{
    // The engine finds Main.qml in its type cache: load() waits for the
    // reading still under way, then creates.
    m_engine.load(mainUrl());
    m_reading.reset();
    return !m_engine.rootObjects().isEmpty();
}

bool loadShell(QQmlApplicationEngine &engine)
{
    ShellLoad load(engine);
    return load.finish();
}

void warmFonts()
{
    // The families and weights Theme.qml names (sans Inter, mono JetBrains
    // Mono), at the body size: opening a face once serves every size.
    const struct { const char *family; QFont::Weight weight; } faces[] = {
        {"Inter", QFont::Normal}, {"Inter", QFont::Medium}, {"Inter", QFont::DemiBold},
        {"JetBrains Mono", QFont::Normal}, {"JetBrains Mono", QFont::DemiBold}};
    for (const auto &face : faces) {
        QFont font(QString::fromLatin1(face.family));
        font.setPixelSize(16);
        font.setWeight(face.weight);
        QFontMetricsF(font).horizontalAdvance(QStringLiteral("0"));
    }
}
