#pragma once

#include "profileopmodel.h"

#include <tpuprofile/op_table.h>
#include <tpuprofile/profile.h>

#include <QtQml/qqmlregistration.h>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <QVariantMap>

#include <atomic>
#include <memory>

class QQmlEngine;
class QJSEngine;
namespace progress {
class Store;
}

// The profile the learner opened: read off the GUI thread with progress,
// one device's op table at a time, each op's measured time beside the
// simulator's prediction. A profile read whole is kept in the progress store
// as measured runs, every device once. QML sees one instance, `Profile`.
class ProfileSession : public QObject
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Profile)
    QML_SINGLETON
    // "empty", "reading", "ready" or "failed".
    Q_PROPERTY(QString state READ state NOTIFY stateChanged)
    Q_PROPERTY(double progress READ progress NOTIFY progressChanged)
    // Why the last file could not be read, in one sentence.
    Q_PROPERTY(QString problem READ problem NOTIFY stateChanged)
    Q_PROPERTY(QString fileName READ fileName NOTIFY stateChanged)
    Q_PROPERTY(QString filePath READ filePath NOTIFY stateChanged)
    Q_PROPERTY(QString format READ format NOTIFY loaded)
    // Each device: {plane, kind, deviceType, chip, ops, label}.
    Q_PROPERTY(QVariantList devices READ devices NOTIFY loaded)
    Q_PROPERTY(QStringList notes READ notes NOTIFY loaded)
    Q_PROPERTY(int device READ device WRITE setDevice NOTIFY deviceChanged)
    // The device's figures: finding, busy, span, idle (texts), opEvents,
    // gaps [{text}], hostLink [{text}], programs [{name, text}], chip,
    // chipName, chipNote, measuredDetails, capturedAt.
    Q_PROPERTY(QVariantMap summary READ summary NOTIFY deviceChanged)
    // What became of the import into the store, in a sentence.
    Q_PROPERTY(QString stored READ stored NOTIFY storedChanged)
    Q_PROPERTY(ProfileOpModel *ops READ ops CONSTANT)

public:
    ~ProfileSession() override;

    // The store imports go to; set once by the shell before QML asks.
    static void provide(progress::Store *store);
    static ProfileSession *create(QQmlEngine *, QJSEngine *);
    static ProfileSession *instance();

    QString state() const { return m_state; }
    double progress() const { return m_progress; }
    QString problem() const { return m_problem; }
    QString fileName() const;
    QString filePath() const { return m_path; }
    QString format() const;
    QVariantList devices() const;
    QStringList notes() const;
    int device() const { return m_device; }
    void setDevice(int device);
    QVariantMap summary() const { return m_summary; }
    QString stored() const { return m_stored; }
    ProfileOpModel *ops() { return &m_ops; }

    // A file path or URL: an .xplane.pb, a trace JSON or a jax.profiler folder.
    Q_INVOKABLE void open(const QString &pathOrUrl);
    // Stops a read under way; what was shown before stays.
    Q_INVOKABLE void cancel();
    // A row's whole story: the instruction, its source, the prediction's
    // model and assumptions, or why there is none.
    Q_INVOKABLE QVariantMap detail(int row) const;
    // The row's program as HLO text and its instruction's name, for the IR
    // x-ray: {text, origin, op}; empty when the profile has no HLO for it.
    Q_INVOKABLE QVariantMap xrayTarget(int row) const;
    // Every profile kept in the store, each device with its ops measured
    // beside the predictions they were shown with: [{title, details,
    // summary, ops: [{op, kind, measured, predicted, error}]}], newest first.
    Q_INVOKABLE QVariantList storedProfiles() const;
    // The files imported before, the last opened first, one entry a file
    // however many devices it held: [{path, name, chip, when, devices,
    // exists}], at most `most`, each where it was last read from.
    Q_INVOKABLE QVariantList openedBefore(int most) const;
    // True when the path looks like a profile (for dropped files).
    Q_INVOKABLE static bool looksLikeProfile(const QString &pathOrUrl);

    // For the painted views, C++ to C++.
    const tpuprofile::Profile *profile() const { return m_profile.get(); }
    const tpuprofile::OpTable *table() const { return m_table; }

    // Reads synchronously, for the command line; returns the problem or "".
    QString openNow(const QString &path);

signals:
    void stateChanged();
    void progressChanged();
    void loaded();
    void deviceChanged();
    void storedChanged();

private:
    // Made by instance() only: Qt 6.4 would make a singleton of its own
    // with a public default constructor, rather than ask create().
    explicit ProfileSession(QObject *parent = nullptr);
    struct Outcome;
    void finish();
    void rebuildTable();
    void storeImport();
    void setState(const QString &state);

    QString m_state = QStringLiteral("empty");
    double m_progress = 0;
    QString m_problem;
    QString m_path;
    QString m_sha256;
    QString m_stored;
    int m_device = 0;
    std::shared_ptr<const tpuprofile::Profile> m_profile;
    std::vector<tpuprofile::OpTable> m_tables; // one per device, made with the read
    const tpuprofile::OpTable *m_table = nullptr;
    QVariantMap m_summary;
    ProfileOpModel m_ops;

    QFutureWatcher<void> m_watcher;
    std::shared_ptr<Outcome> m_pending;
    QString m_pendingPath;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<std::atomic<double>> m_done;
    QTimer m_progressTimer;
};
