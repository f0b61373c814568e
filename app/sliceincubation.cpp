#include "sliceincubation.h"

#include <QQuickWindow>

namespace {

// A 60 Hz frame, rounded up: how long a slice waits for a frame that
// does not come before it runs anyway.
constexpr int kFrameMs = 17;
// Frames this close together mean the learner is at work on the page; a
// slow frame stays well under this.
constexpr int kFlowingWithinMs = 50;

} // namespace

SliceIncubation::SliceIncubation(int sliceMs, QObject *parent) : QObject(parent), m_sliceMs(sliceMs)
{
    // A single-shot timer lets the event loop run between two slices: a
    // frame that has come due meanwhile is drawn before the next slice.
    // Its interval is 0 when idle; while frames flow it is one frame, a
    // fallback should the next frame not come.
    m_next.setSingleShot(true);
    m_next.setInterval(0);
    connect(&m_next, &QTimer::timeout, this, &SliceIncubation::runSlice);
}

void SliceIncubation::followFrames(QQuickWindow *window)
{
    if (m_window)
        disconnect(m_window, nullptr, this, nullptr);
    m_window = window;
    if (window)
        connect(window, &QQuickWindow::frameSwapped, this, &SliceIncubation::frameSwapped);
}

void SliceIncubation::incubatingObjectCountChanged(int count)
{
    if (count > 0 && !m_next.isActive() && !m_awaitingFrame) {
        m_next.setInterval(0);
        m_next.start();
    }
}

bool SliceIncubation::framesFlowing() const
{
    return m_window && m_sinceFrame.isValid() && m_sinceFrame.elapsed() < kFlowingWithinMs;
}

void SliceIncubation::runSlice()
{
    m_awaitingFrame = false;
    ++m_slicesRun;
    incubateFor(m_sliceMs);
    if (incubatingObjectCount() == 0)
        return;
    if (framesFlowing()) {
        // The objects just made are drawn in the next frame; the next
        // slice comes after it, or after a frame's time if none comes.
        m_awaitingFrame = true;
        m_next.setInterval(kFrameMs);
    } else {
        m_next.setInterval(0);
    }
    m_next.start();
}

void SliceIncubation::frameSwapped()
{
    m_sinceFrame.start();
    if (m_awaitingFrame) {
        m_awaitingFrame = false;
        m_next.setInterval(0);
        m_next.start();
    }
}
