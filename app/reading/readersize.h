#pragma once
// The size of the chapters' text, a step at a time (Ctrl+= and Ctrl+-,
// Ctrl+0 back to the default), kept in the progress store's settings so a
// relaunch reads at the size chosen. The reader's type scales with it; its
// measure, in characters, stays, so the column widens with the type.
#include <QtQml/qqmlregistration.h>
#include <processsingleton.h>
#include <QObject>

#include <vector>

namespace progress {
class Store;
}

class ReaderSize : public QObject, public ProcessSingleton<ReaderSize>
{
    Q_OBJECT
    QML_NAMED_ELEMENT(ReaderSize)
    QML_SINGLETON
    // The factor on the reader's type: 1 at the default.
    Q_PROPERTY(double scale READ scale NOTIFY changed)
    Q_PROPERTY(bool canGrow READ canGrow NOTIFY changed)
    Q_PROPERTY(bool canShrink READ canShrink NOTIFY changed)

public:
    static void provide(progress::Store *store);
    // The steps offered, smallest first; the default is 1.
    static const std::vector<double> &steps();

    double scale() const { return m_scale; }
    bool canGrow() const { return m_scale < steps().back(); }
    bool canShrink() const { return m_scale > steps().front(); }

    Q_INVOKABLE void grow();
    Q_INVOKABLE void shrink();
    Q_INVOKABLE void reset();
    Q_INVOKABLE void reload();

signals:
    void changed();

private:
    friend class ProcessSingleton<ReaderSize>;
    ReaderSize() = default;
    void set(double scale);
    double m_scale = 1.0;
};
