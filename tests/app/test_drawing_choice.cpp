#include <catch2/catch.hpp>

#include "drawingchoice.h"

#include <functional>

using drawing::DisplayFacts;
using drawing::Renderer;

namespace {

// A desktop with a GPU: an X display offering direct rendering, a render node.
DisplayFacts desktopWithGpu()
{
    DisplayFacts facts;
    facts.platform = QStringLiteral("xcb");
    facts.gpuDevice = true;
    facts.directRendering = true;
    return facts;
}

} // namespace

TEST_CASE("a window with a GPU within reach is drawn as Qt draws it", "[drawing]")
{
    const auto x11 = drawing::choose(desktopWithGpu());
    CHECK(x11.renderer == Renderer::QtDefault);
    CHECK(x11.why.contains(QStringLiteral("GPU")));

    // Wayland: the compositor is not asked; the device decides.
    DisplayFacts wayland = desktopWithGpu();
    wayland.platform = QStringLiteral("wayland");
    wayland.directRendering.reset();
    CHECK(drawing::choose(wayland).renderer == Renderer::QtDefault);
}

TEST_CASE("where OpenGL would run on the processor, the window is drawn in software", "[drawing]")
{
    const struct
    {
        const char *situation;
        std::function<void(DisplayFacts &)> change;
        const char *reason; // what the About page's sentence names
    } cases[] = {
        {"no GPU device, on X11", [](DisplayFacts &f) { f.gpuDevice = false; }, "this machine offers no GPU device"},
        {"no GPU device, on Wayland",
         [](DisplayFacts &f) {
             f.platform = QStringLiteral("wayland");
             f.directRendering.reset();
             f.gpuDevice = false;
         },
         "this machine offers no GPU device"},
        {"an X display without direct rendering (Xvfb, a remote display), though the machine has a GPU",
         [](DisplayFacts &f) { f.directRendering = false; }, "no direct rendering"},
        {"software OpenGL asked for", [](DisplayFacts &f) { f.softwareGlAsked = true; }, "LIBGL_ALWAYS_SOFTWARE"},
    };
    for (const auto &c : cases) {
        INFO(c.situation);
        DisplayFacts facts = desktopWithGpu();
        c.change(facts);
        const auto choice = drawing::choose(facts);
        CHECK(choice.renderer == Renderer::Software);
        CHECK(choice.why.startsWith(QStringLiteral("in software: ")));
        CHECK(choice.why.contains(QString::fromLatin1(c.reason)));
    }
}

TEST_CASE("a renderer named in the environment, or another platform, is left to Qt", "[drawing]")
{
    // QT_QUICK_BACKEND or QSG_RHI_BACKEND: the learner's word stands, GPU or not.
    DisplayFacts named;
    named.platform = QStringLiteral("xcb");
    named.chosenInEnvironment = true;
    named.directRendering = false;
    const auto asked = drawing::choose(named);
    CHECK(asked.renderer == Renderer::QtDefault);
    CHECK(asked.why.contains(QStringLiteral("environment")));

    DisplayFacts offscreen;
    offscreen.platform = QStringLiteral("offscreen");
    const auto other = drawing::choose(offscreen);
    CHECK(other.renderer == Renderer::QtDefault);
    CHECK(other.why == QStringLiteral("as Qt draws on the offscreen platform"));
}

TEST_CASE("the facts are read from this process's platform and environment", "[drawing]")
{
    // The tests run offscreen with QT_QUICK_BACKEND=software set: that choice
    // stands, and no X display is asked.
    REQUIRE(qgetenv("QT_QUICK_BACKEND") == "software");
    const DisplayFacts facts = drawing::probe();
    CHECK(facts.platform == QStringLiteral("offscreen"));
    CHECK(facts.chosenInEnvironment);
    CHECK_FALSE(facts.directRendering.has_value());
    const auto applied = drawing::applyForThisDisplay();
    CHECK(applied.renderer == Renderer::QtDefault);
    CHECK(drawing::current().why == applied.why);
}
