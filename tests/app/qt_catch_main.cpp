// Catch2 with a QApplication alive for the whole run: Qt Quick, fonts and
// Qt Charts all need one, and Charts needs the widgets flavour.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_QUICK_BACKEND", "software");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tpu-course-tests"));
    return Catch::Session().run(argc, argv);
}
