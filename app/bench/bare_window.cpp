// The yardstick for the app's start-up: a bare Qt Quick window of one
// rectangle and one line of text, shown at the app's default size
// (offscreen, or on the display as the app is), its first frame grabbed
// to a PNG, then closed.
#include "../startuptrace.h"

#include <QGuiApplication>
#include <QImage>
#include <QQmlApplicationEngine>
#include <QQuickWindow>

#include <cstdio>

int main(int argc, char *argv[])
{
    startuptrace::stamp("main");
    if (argc != 2) {
        std::fprintf(stderr, "usage: bare-window-yardstick OUT.png\n");
        return 2;
    }
    if (!startuptrace::onDisplay()) { // as the app does
        qputenv("QT_QPA_PLATFORM", "offscreen");
        qputenv("QT_QUICK_BACKEND", "software");
    }
    QGuiApplication app(argc, argv);
    QQmlApplicationEngine engine;
    engine.loadData(R"qml(
        import QtQuick
        import QtQuick.Window
        Window {
            width: 1440; height: 900; visible: true
            Rectangle { anchors.fill: parent; color: "#f6f2ea"
                Text { anchors.centerIn: parent; text: "a bare window"; font.pixelSize: 32 } }
        })qml");
    auto *window =
        engine.rootObjects().isEmpty() ? nullptr : qobject_cast<QQuickWindow *>(engine.rootObjects().constFirst());
    if (!window) {
        std::fprintf(stderr, "bare-window-yardstick: the window could not be created.\n");
        return 1;
    }
    const QString out = QString::fromLocal8Bit(argv[1]);
    // Stamped as the app stamps its first frame: where it is swapped.
    QObject::connect(
        window, &QQuickWindow::frameSwapped, window, [] { startuptrace::stamp("first-frame"); },
        static_cast<Qt::ConnectionType>(Qt::DirectConnection | Qt::SingleShotConnection));
    QObject::connect(
        window, &QQuickWindow::frameSwapped, &app,
        [window, out] {
            window->grabWindow().save(out, "PNG");
            QCoreApplication::exit(0);
        },
        Qt::SingleShotConnection);
    return QGuiApplication::exec();
}
