#pragma once

#include "latestrun.h"

#include <QtQml/qqmlregistration.h>
#include <QObject>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include <memory>
#include <vector>

struct MeshRun;

// The plane on show as plain values, for MeshView to paint from.
struct MeshPicture
{
    struct Link
    {
        int r0 = 0, c0 = 0, r1 = 0, c1 = 0;
        int direction = 1;
        bool wrap = false;
        double bytes = 0;
    };
    struct Hop
    {
        int r0 = 0, c0 = 0, r1 = 0, c1 = 0;
        int direction = 1;
        bool wrap = false;
        double startS = 0, durationS = 0;
    };
    enum class Repeat { none, rows, cols }; // one simulated line drawn on every row or column

    int rows = 1, cols = 1;
    double maxBytes = 0;
    Repeat repeat = Repeat::none;
    std::vector<Link> links;
    std::vector<Hop> hops;
};

// libtpusim's mesh and collective modules for QML (type TpuCourse.Sim/MeshModel):
// set the inputs, read `result` (the collective's times, words and
// provenance) and `view` (the 2D plane of the slice shown and how many
// there are, how many chunk hops it holds, whether one line's hops are
// drawn on every row or column, the trace's end). The plane's size, its
// links with the bytes each carried and the hops on them are in
// picture(), for MeshView. Slices of more than 64 chips are simulated off the GUI
// thread while `busy` is true.
class MeshModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString chip MEMBER m_chip NOTIFY inputsChanged)
    Q_PROPERTY(QVariantList shape MEMBER m_shape NOTIFY inputsChanged)
    Q_PROPERTY(QString kind MEMBER m_kind NOTIFY inputsChanged)
    Q_PROPERTY(int axis MEMBER m_axis NOTIFY inputsChanged)
    Q_PROPERTY(double bytes MEMBER m_bytes NOTIFY inputsChanged)
    Q_PROPERTY(bool bidirectional MEMBER m_bidirectional NOTIFY inputsChanged)
    Q_PROPERTY(int chunks MEMBER m_chunks NOTIFY inputsChanged)
    Q_PROPERTY(int plane MEMBER m_plane NOTIFY planeChanged)
    Q_PROPERTY(QVariantMap result READ result NOTIFY resultChanged)
    Q_PROPERTY(QVariantMap view READ view NOTIFY viewChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    explicit MeshModel(QObject *parent = nullptr);
    ~MeshModel() override;

    // The most axes a slice of this chip can have: 2 or 3.
    Q_INVOKABLE int maxAxes(const QString &chipId) const;
    // The most chips axis `axis` of `shape` can take on `chipId`, the other
    // axes as they are (1 for an unknown chip or axis).
    Q_INVOKABLE int largestAxis(const QString &chipId, const QVariantList &shape, int axis) const;

    QVariantMap result() const { return m_result; }
    QVariantMap view() const { return m_view; }
    bool busy() const { return m_run.busy(); }
    const MeshPicture &picture() const { return m_picture; }

signals:
    void inputsChanged();
    void planeChanged();
    void resultChanged();
    void viewChanged();
    void busyChanged();

private:
    std::variant<std::shared_ptr<MeshRun>, QFuture<std::shared_ptr<MeshRun>>> launch() const;
    void finished(std::shared_ptr<MeshRun> run);
    void rebuildView();

    QString m_chip = QStringLiteral("v5e");
    QVariantList m_shape{8, 4};
    QString m_kind = QStringLiteral("all-gather");
    int m_axis = 1;
    double m_bytes = 32.0 * 1024 * 1024;
    bool m_bidirectional = true;
    int m_chunks = 4;
    int m_plane = 0;

    std::shared_ptr<MeshRun> m_shown; // the run the result and the picture are of
    QVariantMap m_result;
    QVariantMap m_view;
    MeshPicture m_picture;
    // A stale run is dropped: its picture is of a slice no longer asked for.
    simqml::LatestRun<std::shared_ptr<MeshRun>> m_run;
};
