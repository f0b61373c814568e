#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <functional>
#include <variant>

namespace simqml {

// A model's computation, run once per burst of input changes (a chip switch
// that resets the shape sets several inputs at once) and, when heavy, off
// the GUI thread. Inputs that change while a run is out make it stale: it
// runs again on the newest ones as soon as it ends, so a drag never queues
// a backlog of runs. A stale result is shown meanwhile, or dropped when the
// model would draw it against inputs it no longer matches.
template <typename Result>
class LatestRun
{
public:
    enum class Stale { shown, dropped };
    // `launch` reads the inputs and returns the result, when it is quick
    // enough to work out here, or the future of a worker computing it.
    using Launch = std::function<std::variant<Result, QFuture<Result>>()>;

    LatestRun(QObject *owner, Stale stale, Launch launch, std::function<void(Result)> done,
              std::function<void()> busyChanged)
        : m_owner(owner),
          m_stale(stale),
          m_launch(std::move(launch)),
          m_done(std::move(done)),
          m_busyChanged(std::move(busyChanged))
    {
        QObject::connect(&m_watcher, &QFutureWatcherBase::finished, owner, [this] {
            m_busyChanged();
            const bool rerun = m_outdated;
            m_outdated = false;
            if (!rerun || m_stale == Stale::shown)
                m_done(m_watcher.result());
            if (rerun)
                start();
        });
    }
    ~LatestRun() { m_watcher.waitForFinished(); }
    LatestRun(const LatestRun &) = delete;
    LatestRun &operator=(const LatestRun &) = delete;

    // Runs once the event loop turns, however many inputs change before then.
    void schedule()
    {
        if (m_scheduled)
            return;
        m_scheduled = true;
        QTimer::singleShot(0, m_owner, [this] {
            if (m_scheduled)
                start();
        });
    }
    // Runs now, or marks the run that is out stale; a run scheduled
    // meanwhile is this one.
    void start()
    {
        m_scheduled = false;
        if (m_watcher.isRunning()) {
            m_outdated = true;
            return;
        }
        auto launched = m_launch();
        if (auto *now = std::get_if<Result>(&launched)) {
            m_done(std::move(*now));
            return;
        }
        m_watcher.setFuture(std::get<QFuture<Result>>(launched));
        m_busyChanged();
    }
    bool busy() const { return m_watcher.isRunning(); }

private:
    QObject *m_owner;
    Stale m_stale;
    Launch m_launch;
    std::function<void(Result)> m_done;
    std::function<void()> m_busyChanged;
    QFutureWatcher<Result> m_watcher;
    bool m_scheduled = false;
    bool m_outdated = false;
};

} // namespace simqml
