#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QQmlIncubationController>
#include <QTimer>

class QQuickWindow;

// Makes what the shell builds asynchronously (the pieces and figures set
// into a chapter's text) a few milliseconds at a time, with
// the event loop, and so the window's frames, free in between.
//
// Qt Quick's own controller for a window whose render loop does not
// interleave incubation with animation (the basic loop, the software
// renderer) creates for 10 ms at a go and asks again at once: a heavy
// piece then holds several frames in a row past 16.7 ms while the reader
// scrolls onto it. Here each go is one slice. While the window is drawing
// frames (the reader scrolling, a scrub being dragged) the next go waits
// for the next frame, so no frame carries more than one slice, and the
// objects a slice made are drawn before more are made; when the window is
// idle, slices follow one another with only the event loop between.
class SliceIncubation : public QObject, public QQmlIncubationController
{
    Q_OBJECT
public:
    // sliceMs: the time one go may spend creating objects. An object's own
    // creation is not cut, so a go can run over by the largest one.
    explicit SliceIncubation(int sliceMs, QObject *parent = nullptr);

    // Paces the slices by this window's frames from now on.
    void followFrames(QQuickWindow *window);
    // How many slices have run, for traces and tests.
    int slicesRun() const { return m_slicesRun; }

protected:
    void incubatingObjectCountChanged(int count) override;

private:
    void runSlice();
    void frameSwapped();
    bool framesFlowing() const;

    int m_sliceMs;
    QTimer m_next;
    QPointer<QQuickWindow> m_window;
    QElapsedTimer m_sinceFrame;
    bool m_awaitingFrame = false;
    int m_slicesRun = 0;
};
