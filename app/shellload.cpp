#include "shellload.h"
#include "sliceincubation.h"
#include "startuptrace.h"

#include <QAccessible>
#include <QCoreApplication>
#include <QFont>
#include <QQmlApplicationEngine>
#include <QQmlComponent>
#include <QQuickWindow>
#include <QTextLayout>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace {

QUrl mainUrl()
{
    return QUrl(QStringLiteral("qrc:/qt/qml/TpuCourse/Shell/Main.qml"));
}

// Keeps the window's assistiveTechnology true while a screen reader or
// other assistive technology is attached: pages then draw whole, so it can
// read text far from the view. Lives with the window.
class AssistiveWatch : public QObject, public QAccessible::ActivationObserver
{
public:
    explicit AssistiveWatch(QQuickWindow *window) : QObject(window), m_window(window)
    {
        accessibilityActiveChanged(QAccessible::isActive());
        QAccessible::installActivationObserver(this);
    }
    ~AssistiveWatch() override { QAccessible::removeActivationObserver(this); }
    void accessibilityActiveChanged(bool active) override { m_window->setProperty("assistiveTechnology", active); }

private:
    QQuickWindow *m_window;
};

} // namespace

ShellLoad::ShellLoad(QQmlApplicationEngine &engine) : m_engine(engine)
{
    // Qt 6.4 has no loadFromModule: the modules live under qrc:/qt/qml.
    m_engine.addImportPath(QStringLiteral("qrc:/qt/qml"));
    // Set before the window is made, which would otherwise install Qt's own.
    // A slice of 3 ms and a chapter frame (about 8 ms to draw) fit in 16.7
    // with room for an object that runs over its slice.
    constexpr int kIncubationSliceMs = 3;
    if (!m_engine.incubationController())
        m_engine.setIncubationController(new SliceIncubation(kIncubationSliceMs, &m_engine));
    // Without vsync to pace them (the software renderer, offscreen), Qt
    // holds every frame 5 ms after the change that asks for it, to gather
    // more events first: a third of a 60 Hz frame added to each scrub step
    // and scroll step. Here a frame follows its change at the next turn of
    // the event loop, which still gathers whatever events are already
    // queued. Animations keep their own 16 ms timer; a drag may now draw
    // a frame per pointer move the window system delivers (it merges
    // them) rather than one per 5 ms. Read by Qt at the first frame asked
    // for; a value set in the environment is kept.
    if (!qEnvironmentVariableIsSet("QT_QPA_UPDATE_IDLE_TIME"))
        qputenv("QT_QPA_UPDATE_IDLE_TIME", "0");
    m_reading = std::make_unique<QQmlComponent>(&m_engine, mainUrl(), QQmlComponent::Asynchronous);
}

ShellLoad::~ShellLoad() = default;

bool ShellLoad::finish()
{
    // The engine finds Main.qml in its type cache: load() waits for the
    // reading still under way, then creates.
    if (startuptrace::on()) {
        // Tracing only: wait here, so the trace tells reading from making.
        startuptrace::mark("waiting for the shell's QML");
        while (m_reading->isLoading())
            QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents | QEventLoop::WaitForMoreEvents);
        startuptrace::mark("the shell's QML read");
    }
    m_engine.load(mainUrl());
    m_reading.reset();
    if (m_engine.rootObjects().isEmpty())
        return false;
    auto *window = qobject_cast<QQuickWindow *>(m_engine.rootObjects().constFirst());
    if (auto *slices = dynamic_cast<SliceIncubation *>(m_engine.incubationController()))
        slices->followFrames(window);
    if (window)
        new AssistiveWatch(window);
    return true;
}

bool loadShell(QQmlApplicationEngine &engine)
{
    ShellLoad load(engine);
    return load.finish();
}

QSize openingWindowSize(QSize screenAvailable)
{
    // A twentieth of the free area is left for the window's frame and title.
    const QSize room = screenAvailable * 0.95;
    return QSize(1440, 900).boundedTo(room).expandedTo(QSize(1024, 640));
}

QList<QFont> firstScreenFonts(QSize windowSize)
{
    // Theme.qml's sans (Inter) and mono (JetBrains Mono) at the type scale
    // Theme.fitWindow sets for this size (1 at 1440x900, within 0.86 to
    // 1.3), rounded as Theme.tpx rounds; test_first_screen keeps the two
    // in step. Mono
    // is set without shaping, as MonoText and mono buttons set it, on top
    // of QML's PreferDefault: a font that differs in its style strategy is
    // a different engine. A new learner's first screen has no drill due
    // (a drill is due once its chapter is opened), so the mono buttons'
    // DemiBold is left to its first use, and so is the first layer's
    // title, which the honesty card's five kinds put below the fold.
    const struct
    {
        const char *family;
        int pixelSize;
        QFont::Weight weight;
        bool mono;
    } faces[] = {{"Inter", 14, QFont::Normal, false},         {"Inter", 14, QFont::DemiBold, false},
                 {"Inter", 16, QFont::Normal, false},         {"Inter", 16, QFont::DemiBold, false},
                 {"Inter", 56, QFont::DemiBold, false},       {"JetBrains Mono", 12, QFont::Normal, true},
                 {"JetBrains Mono", 14, QFont::Normal, true}, {"JetBrains Mono", 16, QFont::Normal, true}};
    const double zoom = std::clamp(std::min(windowSize.width() / 1440.0, windowSize.height() / 900.0), 0.86, 1.3);
    QList<QFont> fonts;
    for (const auto &face : faces) {
        QFont font(QString::fromLatin1(face.family));
        font.setPixelSize(static_cast<int>(std::lround(face.pixelSize * zoom)));
        font.setWeight(face.weight);
        if (face.mono)
            font.setStyleStrategy(QFont::StyleStrategy(QFont::PreferDefault | QFont::PreferNoShaping));
        fonts << font;
    }
    return fonts;
}

void ShellLoad::warmFonts(QSize windowSize)
{
    // Each font is its own engine, matched through fontconfig once per
    // thread: one the screen does not use costs time here, one missing
    // from the list is matched when its first text is made. The first also
    // reads the system's font list, in one long step. A line is laid out
    // in each, not a single advance measured: an engine's first shaping
    // reads and checks the font's OpenType tables (Inter's are large), and
    // here that overlaps the reading instead of holding up the window.
    for (const QFont &font : firstScreenFonts(windowSize)) {
        QTextLayout layout(QStringLiteral("Learn to make TPUs fast, 0123456789 · ch"), font);
        layout.beginLayout();
        layout.createLine();
        layout.endLayout();
        answerReading();
    }
}

void ShellLoad::answerReading()
{
    // The loader thread's calls arrive as posted events; no window exists
    // yet, so there is no input to hold back, only to be safe.
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
}
