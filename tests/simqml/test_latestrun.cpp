// LatestRun: one run per burst of input changes, the newest inputs run
// next when a run is out, a stale result shown or dropped as the model asks.
#include <catch2/catch.hpp>

#include "latestrun.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSemaphore>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>
#include <vector>

namespace {

using Run = simqml::LatestRun<int>;

// A model whose one input is `input`: a heavy run is held on a gate until
// the test lets it finish, a light one answers at once.
struct Model
{
    QObject owner;
    int input = 0;
    bool heavy = true;
    int launches = 0;
    int busyChanges = 0;
    std::vector<int> shown;
    std::shared_ptr<QSemaphore> gate = std::make_shared<QSemaphore>(0);
    Run run;

    explicit Model(Run::Stale stale)
        : run(
              &owner, stale,
              [this]() -> std::variant<int, QFuture<int>> {
                  ++launches;
                  const int value = input;
                  if (!heavy)
                      return value;
                  return QtConcurrent::run([gate = gate, value] {
                      gate->acquire();
                      return value;
                  });
              },
              [this](int value) { shown.push_back(value); }, [this] { ++busyChanges; })
    {
    }
    ~Model() { gate->release(100); } // no run outlives the test waiting on its gate
};

// Turns the event loop until `done`, for at most two seconds.
template <typename Done>
bool turnUntil(Done done)
{
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < 2000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

} // namespace

TEST_CASE("a burst of input changes makes one run, of the last inputs", "[simqml]")
{
    Model m(Run::Stale::dropped);
    m.heavy = false;
    for (int i = 1; i <= 5; ++i) {
        m.input = i;
        m.run.schedule();
    }
    CHECK(m.launches == 0); // not before the event loop turns
    REQUIRE(turnUntil([&] { return !m.shown.empty(); }));
    QCoreApplication::processEvents();
    CHECK(m.launches == 1);
    CHECK(m.shown == std::vector<int>{5});
    CHECK(m.busyChanges == 0); // answered at once: never busy
}

TEST_CASE("starting now takes the place of a run already scheduled", "[simqml]")
{
    Model m(Run::Stale::dropped);
    m.heavy = false;
    m.input = 1;
    m.run.schedule();
    m.input = 2;
    m.run.start();
    CHECK(m.shown == std::vector<int>{2});
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    CHECK(m.launches == 1);
}

TEST_CASE("inputs changed while a run is out run next, and its result is dropped", "[simqml]")
{
    Model m(Run::Stale::dropped);
    m.input = 1;
    m.run.start();
    CHECK(m.run.busy());
    m.input = 2;
    m.run.start(); // marks the run out stale, launches nothing yet
    m.input = 3;
    m.run.start();
    CHECK(m.launches == 1);
    m.gate->release(); // the run of 1 ends; 3 is launched at once
    REQUIRE(turnUntil([&] { return m.launches == 2; }));
    CHECK(m.shown.empty()); // 1 no longer matches the inputs
    CHECK(m.run.busy());
    m.gate->release();
    REQUIRE(turnUntil([&] { return !m.shown.empty(); }));
    CHECK(m.shown == std::vector<int>{3});
    CHECK_FALSE(m.run.busy());
    CHECK(m.launches == 2); // never one for 2
}

TEST_CASE("a model that shows stale results shows each, the newest last", "[simqml]")
{
    Model m(Run::Stale::shown);
    m.input = 1;
    m.run.start();
    m.input = 2;
    m.run.start();
    m.gate->release();
    REQUIRE(turnUntil([&] { return m.launches == 2; }));
    CHECK(m.shown == std::vector<int>{1});
    m.gate->release();
    REQUIRE(turnUntil([&] { return m.shown.size() == 2; }));
    CHECK(m.shown == std::vector<int>{1, 2});
    CHECK_FALSE(m.run.busy());
}
