// The thread pace (sim/ThreadPace.h): each step runs on the threads set, or on fewer (half, a quarter, ... one) where
// more are slower (other programs taking the cores), probing the other counts now and then; and a run whose steps
// change their thread count gives the same series, bit for bit, as one on a single thread (util/Parallel.h: results
// never depend on it).
#include "BuiltinScenarios.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"
#include "sim/ThreadPace.h"
#include "util/Parallel.h"

#include <QTest>

#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace granular;

namespace {

/// The threads of `steps` steps chosen by a pace for `set` threads, where a step on `threads` threads does 1 unit of
/// work in 1 / rate(step, threads) ms.
std::vector<int> paceOver(int set, int steps, const std::function<double(int, int)>& rate)
{
    ThreadPace pace;
    std::vector<int> chosen;
    for (int n = 0; n < steps; ++n) {
        const int threads = pace.threadsFor(set);
        chosen.push_back(threads);
        pace.record(threads, 1e-3 / rate(n, threads), 1.0);
    }
    return chosen;
}

/// ms: the time of the steps [first, end of `chosen`) as `rate` gives them.
double timeOf(const std::vector<int>& chosen, const std::function<double(int, int)>& rate, int first = 0)
{
    double total = 0.0;
    for (int n = first; n < static_cast<int>(chosen.size()); ++n) {
        total += 1.0 / rate(n, chosen[static_cast<std::size_t>(n)]);
    }
    return total;
}

/// Work per step time relative to one thread on a 16-core machine with 8 of its cores busy: 8 and 16 threads as
/// measured on such a machine with md's 20,000-sphere packing (8 threads 6.5x one thread, 16 threads over 5x slower
/// than one), 2 and 4 threads assumed in between.
double eightFree(int threads)
{
    switch (threads) {
    case 1:
        return 1.0;
    case 2:
        return 1.9;
    case 4:
        return 3.6;
    case 8:
        return 6.5;
    default:
        return 0.19;
    }
}

/// The same machine with every core free: t^0.9.
double allFree(int threads)
{
    return std::pow(static_cast<double>(threads), 0.9);
}

int countOf(const std::vector<int>& chosen, int threads, int first = 0, int last = -1)
{
    int count = 0;
    for (int n = first; n < (last < 0 ? static_cast<int>(chosen.size()) : last); ++n) {
        count += chosen[static_cast<std::size_t>(n)] == threads ? 1 : 0;
    }
    return count;
}

/// The first step at or after `from` that runs on `threads` threads and after which the next `run` steps but
/// probes do too (-1: none).
int settlesOn(const std::vector<int>& chosen, int threads, int from, int run)
{
    for (int n = from; n + run <= static_cast<int>(chosen.size()); ++n) {
        if (countOf(chosen, threads, n, n + run) >= run - 1) {
            return n;
        }
    }
    return -1;
}

/// The world of `scenario` after `steps` steps, as text (positions and velocities, every bit), each step run under
/// the thread cap capOf(step) with `threads` set.
std::string stateAfter(Scenario scenario, int steps, int threads, const std::function<int(int)>& capOf)
{
    setSolverThreads(threads);
    Simulation simulation(std::move(scenario));
    for (int n = 0; n < steps; ++n) {
        const SolverThreadCap cap(capOf(n));
        simulation.step();
    }
    setSolverThreads(1);
    std::string text;
    const auto& p = simulation.world().particles;
    for (std::size_t i = 0; i < p.size(); ++i) {
        for (const Vec3* v : {&p.position[i], &p.velocity[i], &p.angularVelocity[i]}) {
            std::array<char, 96> line{};
            std::snprintf(line.data(), line.size(), "%a %a %a\n", v->x(), v->y(), v->z());
            text += line.data();
        }
    }
    return text;
}

Scenario withSettings(const char* name, const std::vector<std::pair<std::string, std::string>>& settings)
{
    Scenario scenario = resolveScenario(name);
    for (const auto& [key, value] : settings) {
        scenario.setFromText(key, value);
    }
    return scenario;
}

/// 3000 spheres settling on the floor of an open box with friction 0.4, and `method`'s settings.
Scenario settlingSpheres(std::vector<std::pair<std::string, std::string>> method)
{
    method.insert(method.end(), {{"contact.friction", "0.4"},
                                 {"particles.count", "3000"},
                                 {"particles.lift", "0"},
                                 {"particles.gap", "0.01"},
                                 {"particles.jitter", "0.2"},
                                 {"box.walls", "open"}});
    return withSettings("freefall3d", method);
}

}  // namespace

class ThreadPaceTest : public QObject {
    Q_OBJECT

private slots:
    void staysOnTheTeamWhereItIsFaster()
    {
        // The team 1.8x one thread: a probe of one thread at step 3, then every (1.8 - 1) / kProbeBudget = 80 steps.
        const auto chosen = paceOver(2, 400, [](int, int threads) { return threads == 1 ? 1.0 : 1.8; });
        QCOMPARE(chosen.front(), 2);
        QCOMPARE(chosen[3], 1);  // the first probe
        QVERIFY2(countOf(chosen, 1) <= 6, std::to_string(countOf(chosen, 1)).c_str());
        QCOMPARE(chosen.back(), 2);
    }

    void movesToOneThreadWhereTheTeamWaits()
    {
        // Another program on a core: the team at a third of one thread's rate.
        const auto chosen = paceOver(2, 400, [](int, int threads) { return threads == 1 ? 1.0 : 0.3; });
        QCOMPARE(chosen[2], 2);
        QCOMPARE(chosen[3], 1);  // the first probe, and one thread from then on but for probes of the team
        // Probing a team 3.3x slower costs 2.3 steps: one probe in 230 steps.
        QVERIFY2(countOf(chosen, 2, 3) <= 2, std::to_string(countOf(chosen, 2, 3)).c_str());
    }

    void nearEqualRatesDoNotMakeItSwitch()
    {
        // The team 2 % faster: it stays, one thread being probed every kShortestInterval steps.
        const auto chosen = paceOver(2, 400, [](int, int threads) { return threads == 1 ? 1.0 : 1.02; });
        QCOMPARE(settlesOn(chosen, 2, 0, 8), 0);
        QVERIFY(countOf(chosen, 1) <= 400 / ThreadPace::kShortestInterval + 1);
        // One thread 2 % faster: below kMargin, the team stays too.
        const auto close = paceOver(2, 400, [](int, int threads) { return threads == 1 ? 1.02 : 1.0; });
        QVERIFY(countOf(close, 2) >= 350);
    }

    void followsTheMachine()
    {
        // The team fast for 200 steps, then slowed to a quarter (a program starts on a core), then fast again (1 ms
        // steps).
        const auto chosen = paceOver(2, 1000, [](int step, int threads) {
            const bool busy = step >= 200 && step < 400;
            return threads == 1 ? 1.0 : (busy ? 0.25 : 1.8);
        });
        QCOMPARE(chosen[199], 2);
        // The first slow step on the team brings a probe forward: one thread from the step after it on.
        const int toOne = settlesOn(chosen, 1, 200, 8);
        QVERIFY2(toOne >= 200 && toOne <= 202, std::to_string(toOne).c_str());
        // Back to the team once its window of probes is fast again: each fast probe halves the steps to the next
        // (here 0.4 s of steps after the machine is free).
        const int back = settlesOn(chosen, 2, 400, 8);
        QVERIFY2(back >= 400 && back <= 850, std::to_string(back).c_str());
        // The team probed seldom meanwhile: a probe in a slowed team costs 3 steps of one thread.
        QVERIFY2(countOf(chosen, 2, 202, 400) <= 3, std::to_string(countOf(chosen, 2, 202, 400)).c_str());
    }

    void probesOfAVerySlowTeamTakeATenthOfTheTimeAtMost()
    {
        // Steps of 25 ms on one thread, the team 30x slower (a probe 0.75 s; cores taken by other programs). Every
        // kLongestProbeGap = 2 s the probes would take 27 % of the time; they come as seldom as keeps them at
        // kLargestProbeShare: every 29 / 0.1 = 290 steps.
        const auto rate = [](int, int threads) { return threads == 1 ? 0.04 : 0.04 / 30.0; };
        const auto chosen = paceOver(2, 3000, rate);
        double all = 0.0;
        double probes = 0.0;
        for (std::size_t n = 0; n < chosen.size(); ++n) {
            const double seconds = 1e-3 / rate(static_cast<int>(n), chosen[n]);
            all += seconds;
            probes += n > 3 && chosen[n] == 2 ? seconds : 0.0;
        }
        QVERIFY2(probes <= 1.05 * ThreadPace::kLargestProbeShare * all, std::to_string(probes / all).c_str());
        // Still probed, to take the cores back once they are free.
        QVERIFY2(countOf(chosen, 2, 4) >= 8, std::to_string(countOf(chosen, 2, 4)).c_str());
    }

    void theCountsHalveDownToOne()
    {
        QCOMPARE(ThreadPace::ladderFor(16), (std::vector<int>{16, 8, 4, 2, 1}));
        QCOMPARE(ThreadPace::ladderFor(6), (std::vector<int>{6, 3, 2, 1}));
        QCOMPARE(ThreadPace::ladderFor(3), (std::vector<int>{3, 2, 1}));
        QCOMPARE(ThreadPace::ladderFor(2), (std::vector<int>{2, 1}));
        QCOMPARE(ThreadPace::ladderFor(1), (std::vector<int>{1}));
    }

    void settlesOnTheThreadsTheFreeCoresRun()
    {
        // 16 threads set, 8 of 16 cores busy: the first probe (half the threads) finds 8 faster, and the steps stay on
        // 8 but for probes of 4, 16, 2 and 1 in turn.
        const auto rate = [](int, int threads) { return eightFree(threads); };
        const auto chosen = paceOver(16, 5000, rate);
        QCOMPARE(chosen[2], 16);
        QCOMPARE(chosen[3], 8);
        QCOMPARE(settlesOn(chosen, 8, 3, 8), 3);
        for (const int other : {1, 2, 4, 16}) {
            QVERIFY2(countOf(chosen, other, 4) >= 1, std::to_string(other).c_str());  // each probed
        }
        // The probes cost at most 5 % of the time of every step on 8 threads.
        const double onEight = 1.0 / eightFree(8) * static_cast<double>(chosen.size() - 3);
        QVERIFY2(timeOf(chosen, rate, 3) <= 1.05 * onEight, std::to_string(timeOf(chosen, rate, 3) / onEight).c_str());
    }

    void crossesCountsAsSlowAsTheSetOne()
    {
        // 4 set where 2 threads are as slow as 4 (one of two cores busy): one thread found all the same.
        const auto chosen = paceOver(4, 400, [](int, int threads) { return threads == 1 ? 1.0 : 0.3; });
        const int toOne = settlesOn(chosen, 1, 0, 8);
        QVERIFY2(toOne >= 3 && toOne <= 20, std::to_string(toOne).c_str());
        QVERIFY2(countOf(chosen, 1) >= 370, std::to_string(countOf(chosen, 1)).c_str());
    }

    void followsTheCoresAsTheyAreTakenAndFreed()
    {
        // 16 set: every core free for 300 steps, 8 busy for the next 3000, then free again.
        const auto rate = [](int step, int threads) {
            return step >= 300 && step < 3300 ? eightFree(threads) : allFree(threads);
        };
        const auto chosen = paceOver(16, 12000, rate);
        QCOMPARE(chosen[299], 16);
        // The first slow step on 16 brings a probe of 8 forward: 8 from the step after it on.
        const int toEight = settlesOn(chosen, 8, 300, 8);
        QVERIFY2(toEight >= 300 && toEight <= 302, std::to_string(toEight).c_str());
        // Back to 16 once its window of probes is fast again: each fast probe halves the steps to the next, of 16
        // again (here 0.4 s of steps after the cores are free).
        const int back = settlesOn(chosen, 16, 3300, 8);
        QVERIFY2(back >= 3300 && back <= 7000, std::to_string(back).c_str());
        // 16 probed seldom meanwhile: a probe of 16 costs over 30 steps on 8.
        QVERIFY2(countOf(chosen, 16, 302, 3300) <= 4, std::to_string(countOf(chosen, 16, 302, 3300)).c_str());
    }

    void oneThreadSetRunsOnOne()
    {
        ThreadPace pace;
        for (int n = 0; n < 100; ++n) {
            QCOMPARE(pace.threadsFor(1), 1);
            pace.record(1, 1.0, 1.0);
        }
    }

    void aNewSettingStartsAfresh()
    {
        ThreadPace pace;
        for (int n = 0; n < 20; ++n) {
            const int threads = pace.threadsFor(2);
            pace.record(threads, threads == 1 ? 1e-3 : 5e-3, 1.0);  // the team 5x slower
        }
        QCOMPARE(pace.preferredThreads(), 1);
        QCOMPARE(pace.threadsFor(3), 3);  // measured afresh
        QCOMPARE(pace.preferredThreads(), 3);
    }

    void aCapHoldsOnItsThreadAlone()
    {
        if (!parallelBuild()) {
            QSKIP("a build without OpenMP runs every loop on one thread");
        }
        setSolverThreads(4);
        {
            const SolverThreadCap cap(2);
            QCOMPARE(solverThreads(), 2);
            QCOMPARE(solverThreadSetting(), 4);
            int elsewhere = 0;
            std::thread([&elsewhere] { elsewhere = solverThreads(); }).join();
            QCOMPARE(elsewhere, 4);
            {
                const SolverThreadCap inner(1);
                QCOMPARE(solverThreads(), 1);
            }
            QCOMPARE(solverThreads(), 2);
        }
        QCOMPARE(solverThreads(), 4);
        setSolverThreads(1);
    }

    // md (the assembly's blocks cut anew at each change), the coloured cd sweep, periodic md, each with enough
    // grains and contacts for the solver threads (loops of 1024 items or more): 1, 2, 3 threads in turn, two steps
    // each, against one thread throughout (the systems of tests/cli/tst_cli_threads.cpp).
    void mdStepsOnChangingThreadCountsGiveTheSameState()
    {
        compareChanging(settlingSpheres({{"solver.method", "md"},
                                         {"material.law", "hertz"},
                                         {"material.restitution", "0.5"},
                                         {"material.young_modulus", "1e7"}}),
                        24);
    }
    void colouredStepsOnChangingThreadCountsGiveTheSameState()
    {
        compareChanging(settlingSpheres({{"solver.method", "cd"},
                                         {"solver.sweep", "coloured"},
                                         {"solver.dt", "0.002"},
                                         {"solver.iterations", "30"}}),
                        60);
    }
    void periodicStepsOnChangingThreadCountsGiveTheSameState()
    {
        compareChanging(withSettings("periodic2d", {{"solver.method", "md"},
                                                    {"material.stiffness", "1e4"},
                                                    {"material.restitution", "0.5"},
                                                    {"particles.count", "2000"}}),
                        24);
    }

private:
    static void compareChanging(const Scenario& scenario, int steps)
    {
        const std::string alone = stateAfter(scenario, steps, 1, [](int) { return 1; });
        const std::string changing = stateAfter(scenario, steps, 3, [](int step) { return 1 + (step / 2) % 3; });
        QVERIFY(!alone.empty());
        QVERIFY2(alone == changing, "the state after steps on changing thread counts differs from one thread's");
    }
};

QTEST_APPLESS_MAIN(ThreadPaceTest)
#include "tst_thread_pace.moc"
