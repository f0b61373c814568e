#include "drawingchoice.h"

#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QQuickWindow>
#include <QtGlobal>

#if QT_CONFIG(xcb)
#include <xcb/xcb.h>
#endif

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace drawing {

namespace {

Choice &chosen()
{
    static Choice choice;
    return choice;
}

bool set(const char *variable)
{
    const QByteArray value = qgetenv(variable);
    return !value.isEmpty() && value != "0";
}

// A device node this process may read and write: the render nodes Mesa
// opens for a GPU, or NVIDIA's own driver's.
bool gpuDeviceWithinReach()
{
    const auto usable = [](const QString &path) {
        return ::access(QFile::encodeName(path).constData(), R_OK | W_OK) == 0;
    };
    const QStringList render = QDir(QStringLiteral("/dev/dri")).entryList({QStringLiteral("renderD*")}, QDir::System);
    for (const QString &node : render)
        if (usable(QStringLiteral("/dev/dri/") + node))
            return true;
    const QStringList nvidia = QDir(QStringLiteral("/dev")).entryList({QStringLiteral("nvidia[0-9]*")}, QDir::System);
    for (const QString &node : nvidia)
        if (usable(QStringLiteral("/dev/") + node))
            return true;
    return false;
}

#if QT_CONFIG(xcb)
// Asks the X server, in one round trip, for the extensions a GPU driver
// renders directly through. Xvfb and most remote servers offer none.
std::optional<bool> x11DirectRendering()
{
    auto *x11 = qGuiApp ? qGuiApp->nativeInterface<QNativeInterface::QX11Application>() : nullptr;
    xcb_connection_t *connection = x11 ? x11->connection() : nullptr;
    if (!connection)
        return std::nullopt;
    std::vector<xcb_query_extension_cookie_t> asked;
    for (const char *name : {"DRI3", "DRI2", "NV-GLX"})
        asked.push_back(xcb_query_extension(connection, static_cast<uint16_t>(std::strlen(name)), name));
    bool offered = false;
    for (const xcb_query_extension_cookie_t &cookie : asked) {
        if (xcb_query_extension_reply_t *reply = xcb_query_extension_reply(connection, cookie, nullptr)) {
            offered = offered || reply->present;
            std::free(reply);
        }
    }
    return offered;
}
#endif

} // namespace

Choice choose(const DisplayFacts &facts)
{
    if (facts.chosenInEnvironment)
        return {Renderer::QtDefault, QStringLiteral("as the environment asks (QT_QUICK_BACKEND or QSG_RHI_BACKEND)")};
    if (facts.platform != QLatin1String("xcb") && facts.platform != QLatin1String("wayland"))
        return {Renderer::QtDefault, QStringLiteral("as Qt draws on the %1 platform").arg(facts.platform)};
    if (facts.softwareGlAsked)
        return {Renderer::Software, QStringLiteral("in software: LIBGL_ALWAYS_SOFTWARE asks OpenGL to run on the "
                                                   "processor, and Qt Quick's own software renderer is faster there")};
    if (!facts.gpuDevice)
        return {Renderer::Software, QStringLiteral("in software: this machine offers no GPU device, so OpenGL would "
                                                   "run on the processor, slower than Qt Quick's software renderer")};
    if (facts.directRendering == false)
        return {Renderer::Software,
                QStringLiteral("in software: this X display offers no direct rendering (as Xvfb or a remote display), "
                               "so OpenGL would run on the processor, slower than Qt Quick's software renderer")};
    return {Renderer::QtDefault, QStringLiteral("through the GPU, with OpenGL")};
}

DisplayFacts probe()
{
    DisplayFacts facts;
    facts.platform = QGuiApplication::platformName();
    facts.chosenInEnvironment = set("QT_QUICK_BACKEND") || set("QSG_RHI_BACKEND");
    facts.softwareGlAsked = set("LIBGL_ALWAYS_SOFTWARE");
    facts.gpuDevice = gpuDeviceWithinReach();
#if QT_CONFIG(xcb)
    if (facts.platform == QLatin1String("xcb"))
        facts.directRendering = x11DirectRendering();
#endif
    return facts;
}

Choice applyForThisDisplay()
{
    Choice choice = choose(probe());
    if (choice.renderer == Renderer::Software)
        QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
    chosen() = choice;
    return choice;
}

const Choice &current()
{
    return chosen();
}

} // namespace drawing
