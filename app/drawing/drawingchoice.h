#pragma once

#include <QString>

#include <optional>

// How the window is drawn. Qt Quick draws through OpenGL by default. Where
// no GPU is within reach (no GPU device, or a display that offers no direct
// rendering: Xvfb, a remote X server), Mesa runs OpenGL on the processor
// (llvmpipe), and that costs more than Qt Quick's own software renderer at
// every step: loading the driver and LLVM, compiling shaders, and redrawing
// the whole window each frame where the software renderer redraws what
// changed. There the window is drawn in software.
namespace drawing {

// What the choice is made from; probe() reads them for this process.
struct DisplayFacts
{
    QString platform;                 // Qt's platform plugin: "xcb", "wayland", "offscreen", ...
    bool chosenInEnvironment = false; // QT_QUICK_BACKEND or QSG_RHI_BACKEND is set: that choice stands
    bool softwareGlAsked = false;     // LIBGL_ALWAYS_SOFTWARE is set
    bool gpuDevice = false;           // a GPU device this user may open (/dev/dri/renderD*, /dev/nvidia*)
    // On X11: whether the display offers direct rendering (DRI3, DRI2 or
    // NVIDIA's GLX); unknown elsewhere.
    std::optional<bool> directRendering;
};

enum class Renderer {
    QtDefault, // what Qt picks: OpenGL through the platform's driver
    Software,  // Qt Quick's software renderer
};

struct Choice
{
    Renderer renderer = Renderer::QtDefault;
    QString why; // one sentence, as the About page shows it
};

Choice choose(const DisplayFacts &facts);

// Reads the facts; needs the QGuiApplication.
DisplayFacts probe();

// Chooses for this display and applies it; to be called once the
// QGuiApplication exists and before the first window is made.
Choice applyForThisDisplay();

// What applyForThisDisplay() chose in this process (Qt's default, with
// no reason, if it has not run).
const Choice &current();

} // namespace drawing
