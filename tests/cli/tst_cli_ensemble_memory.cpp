// `granular ensemble` writes each run's files into its (staged) output as the run finishes and keeps only the run's
// summary for the tables: its memory does not grow with the number of runs. It kept every run's files until the last
// run was through, so an ensemble of many runs with long series or many frames could run out of memory.
// A test process of its own: the peak memory of the children it waited for (getrusage) must be this test's.
#include "CliProcess.h"

#include <QTest>

#include <sys/resource.h>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

namespace {

/// The largest resident set of the processes this one has waited for so far (their descendants included), bytes.
long long childrenPeakBytes()
{
    rusage usage{};
    ::getrusage(RUSAGE_CHILDREN, &usage);
    return static_cast<long long>(usage.ru_maxrss) * 1024;  // Linux: kB
}

/// An ensemble of freefall3d with a row per step for 1 s: ~1.4 MB of series.csv a run.
Result ensemble(const std::string& seeds, const fs::path& out)
{
    return runGranular("ensemble freefall3d --quiet --jobs 2 --set run.time=1 --set output.interval=1e-4 --seeds " +
                       seeds + " --out '" + out.string() + "'");
}

}  // namespace

class CliEnsembleMemoryTest : public QObject {
    Q_OBJECT

private slots:
    void anEnsemblesMemoryDoesNotGrowWithItsRuns()
    {
#ifdef GRANULAR_SANITIZERS
        QSKIP("AddressSanitizer keeps freed memory resident (its quarantine, 256 MB): the peak grows with the runs");
#endif
        const ScratchDirectory dir;
        const Result two = ensemble("1..2", dir.path / "two");
        QVERIFY2(two.exitCode == 0, two.err.c_str());
        const long long peakOfTwo = childrenPeakBytes();
        const Result many = ensemble("1..30", dir.path / "many");
        QVERIFY2(many.exitCode == 0, many.err.c_str());
        const long long peakOfMany = childrenPeakBytes();
        const auto series = static_cast<long long>(fs::file_size(dir.path / "many" / "runs" / "30" / "series.csv"));
        QVERIFY(series > 1'000'000);
        QVERIFY(fs::exists(dir.path / "many" / "runs" / "1" / "series.csv"));
        // Every run's files held to the end: 28 more runs, ~28 x 1.4 MB more. Written as they finish: what two runs in
        // flight hold, whatever the count; a margin of eight runs' series for the allocator.
        const long long growth = peakOfMany - peakOfTwo;
        QVERIFY2(growth < 8 * series, ("the peak grew by " + std::to_string(growth) + " bytes for 28 more runs of " +
                                       std::to_string(series) + " bytes of series each")
                                          .c_str());
    }
};

QTEST_APPLESS_MAIN(CliEnsembleMemoryTest)
#include "tst_cli_ensemble_memory.moc"
