// What the shell builds asynchronously is made a slice at a time: while the
// window draws frames, one slice a frame, so no frame carries several.
#include "sliceincubation.h"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QQmlComponent>
#include <QQmlEngine>
#include <QQmlIncubator>
#include <QQuickWindow>
#include <QTest>

#include <memory>
#include <vector>

TEST_CASE("while the window draws frames, what is incubated is made one slice a frame", "[incubation][qml]")
{
    QQmlEngine engine;
    auto *slices = new SliceIncubation(3, &engine);
    engine.setIncubationController(slices);
    QQmlComponent windowComponent(&engine);
    windowComponent.setData("import QtQuick\nWindow { width: 320; height: 200; visible: true }", QUrl());
    std::unique_ptr<QQuickWindow> window(qobject_cast<QQuickWindow *>(windowComponent.create()));
    REQUIRE(window != nullptr);
    REQUIRE(QTest::qWaitForWindowExposed(window.get()));
    slices->followFrames(window.get());

    // Many slices' worth of making, as a heavy piece is: objects whose
    // bindings each take a moment to work out.
    QByteArray qml =
        "import QtQuick\nItem {\n"
        "  component Heavy: Rectangle {\n"
        "    required property int seed\n"
        "    width: { let s = seed; for (let k = 0; k < 6000; ++k) s = (s * 31 + k) % 9973; return s % 40 + 1 }\n"
        "    height: 4\n"
        "  }\n";
    for (int i = 0; i < 1200; ++i)
        qml += "  Heavy { seed: " + QByteArray::number(i) + " }\n";
    qml += "}\n";
    QQmlComponent piece(&engine);
    piece.setData(qml, QUrl(QStringLiteral("file:///piece.qml")));
    REQUIRE(piece.isReady());

    // Frames keep coming, one asked for as soon as the last is shown, as
    // while a learner scrolls; each notes the slices run since the last.
    std::vector<int> slicesPerFrame;
    int seen = slices->slicesRun();
    QObject::connect(window.get(), &QQuickWindow::frameSwapped, window.get(), [&] {
        slicesPerFrame.push_back(slices->slicesRun() - seen);
        seen = slices->slicesRun();
        window->update();
    });
    window->update();
    QTest::qWait(50); // frames are flowing before the making starts

    QQmlIncubator incubator;
    const int before = slices->slicesRun();
    piece.create(incubator);
    QElapsedTimer clock;
    clock.start();
    while (!incubator.isReady() && !incubator.isError() && clock.elapsed() < 30000)
        QTest::qWait(5);
    REQUIRE(incubator.isReady());
    std::unique_ptr<QObject> made(incubator.object());
    const int ran = slices->slicesRun() - before;
    CHECK(ran >= 4); // the piece took several slices

    // A slice may run twice in a frame only when the frame is late (a slow
    // machine); back to back, they would run two or more in nearly every one.
    int crowded = 0, frames = 0;
    for (size_t i = 1; i < slicesPerFrame.size(); ++i) {
        frames += 1;
        crowded += slicesPerFrame[i] > 1 ? 1 : 0;
    }
    INFO(ran << " slices over " << frames << " frames, " << crowded << " with more than one");
    CHECK(crowded * 5 <= ran);
}
