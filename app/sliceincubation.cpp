#include "sliceincubation.h"

SliceIncubation::SliceIncubation(int sliceMs, QObject *parent) : QObject(parent), m_sliceMs(sliceMs)
{
    // A zero timer lets the event loop run between two slices: a frame
    // that has come due meanwhile is drawn before the next slice.
    m_next.setSingleShot(true);
    m_next.setInterval(0);
    connect(&m_next, &QTimer::timeout, this, &SliceIncubation::runSlice);
}

void SliceIncubation::incubatingObjectCountChanged(int count)
{
    if (count > 0 && !m_next.isActive())
        m_next.start();
}

void SliceIncubation::runSlice()
{
    incubateFor(m_sliceMs);
    if (incubatingObjectCount() > 0)
        m_next.start();
}
