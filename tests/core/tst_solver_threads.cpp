// The solver threads a program starts with (util/Parallel.h, defaultSolverThreads): OMP_NUM_THREADS where it is a
// whole number in [1, 256] (the first entry of a list), every core the process may run on otherwise (its affinity);
// always 1 in a build without OpenMP.
#include "util/Parallel.h"

#include <QTest>

#include <algorithm>
#include <cstdlib>
#include <string>

#if defined(__linux__)
#include <sched.h>
#endif

using namespace granular;

namespace {

/// defaultSolverThreads() with OMP_NUM_THREADS set to `value` (unset for null).
int defaultWith(const char* value)
{
    if (value != nullptr) {
        setenv("OMP_NUM_THREADS", value, 1);
    } else {
        unsetenv("OMP_NUM_THREADS");
    }
    return defaultSolverThreads();
}

}  // namespace

class SolverThreadsTest : public QObject {
    Q_OBJECT

private slots:
    void defaultFollowsOmpNumThreadsElseEveryCore()
    {
        const int cores = parallelBuild() ? std::min(availableCores(), 256) : 1;
        const int three = parallelBuild() ? 3 : 1;
        QCOMPARE(defaultWith(nullptr), cores);
        QCOMPARE(defaultWith("3"), three);
        QCOMPARE(defaultWith("3,2"), three);  // nested levels: the first
        QCOMPARE(defaultWith("1"), 1);
        // Not a whole number in [1, 256]: ignored.
        QCOMPARE(defaultWith("0"), cores);
        QCOMPARE(defaultWith("257"), cores);
        QCOMPARE(defaultWith("-2"), cores);
        QCOMPARE(defaultWith("two"), cores);
        QCOMPARE(defaultWith("3x"), cores);
        QCOMPARE(defaultWith(""), cores);
        setenv("OMP_NUM_THREADS", "1", 1);  // as CTest runs the tests
    }

    void anIgnoredSettingIsSaid()
    {
        // What the programs print where OMP_NUM_THREADS is not a count they use: the value, the range, the count used.
        unsetenv("OMP_NUM_THREADS");
        QVERIFY(solverThreadsSettingProblem().empty());
        setenv("OMP_NUM_THREADS", "3,2", 1);
        QVERIFY(solverThreadsSettingProblem().empty());
        setenv("OMP_NUM_THREADS", "0", 1);
        const std::string problem = solverThreadsSettingProblem();
        setenv("OMP_NUM_THREADS", "1", 1);  // as CTest runs the tests
        if (!parallelBuild()) {
            QVERIFY(problem.empty());
            return;
        }
        const std::string used = "using " + std::to_string(std::min(availableCores(), 256)) + " solver threads";
        QVERIFY2(problem.find("OMP_NUM_THREADS = \"0\"") != std::string::npos, problem.c_str());
        QVERIFY2(problem.find("[1, 256]") != std::string::npos, problem.c_str());
        QVERIFY2(problem.find(used) != std::string::npos, problem.c_str());
    }

    /// Every core means every core the process may run on: under `taskset -c 0` (or a cpuset of one core) a
    /// default of the machine's core count would put two threads on one core.
    void everyCoreMeansTheCoresTheProcessMayRunOn()
    {
#if defined(__linux__)
        cpu_set_t allowed;
        CPU_ZERO(&allowed);
        QVERIFY(sched_getaffinity(0, sizeof(allowed), &allowed) == 0);
        QCOMPARE(availableCores(), CPU_COUNT(&allowed));
        int first = 0;
        while (!CPU_ISSET(first, &allowed)) {
            ++first;
        }
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(first, &one);
        QVERIFY(sched_setaffinity(0, sizeof(one), &one) == 0);
        const int cores = availableCores();
        const int threads = defaultWith(nullptr);
        QVERIFY(sched_setaffinity(0, sizeof(allowed), &allowed) == 0);
        setenv("OMP_NUM_THREADS", "1", 1);
        QCOMPARE(cores, 1);
        QCOMPARE(threads, 1);
#else
        QSKIP("CPU affinity is read on Linux only");
#endif
    }
};

QTEST_APPLESS_MAIN(SolverThreadsTest)
#include "tst_solver_threads.moc"
