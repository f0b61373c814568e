#pragma once

#include <QObject>
#include <QQmlIncubationController>
#include <QTimer>

// Makes what the shell builds asynchronously (the pieces and figures set
// into a chapter's text) a few milliseconds at a time, with
// the event loop, and so the window's frames, free in between.
//
// Qt Quick's own controller for a window whose render loop does not
// interleave incubation with animation (the basic loop, the software
// renderer) creates for 10 ms at a go and asks again at once: a heavy
// piece then holds several frames in a row past 16.7 ms while the reader
// scrolls onto it. Here each go is one slice, and the next go waits for
// the event loop to have run, so a frame due meanwhile is drawn between.
class SliceIncubation : public QObject, public QQmlIncubationController
{
    Q_OBJECT
public:
    // sliceMs: the time one go may spend creating objects. An object's own
    // creation is not cut, so a go can run over by the largest one.
    explicit SliceIncubation(int sliceMs, QObject *parent = nullptr);

protected:
    void incubatingObjectCountChanged(int count) override;

private:
    void runSlice();

    int m_sliceMs;
    QTimer m_next;
};
