// `granular ensemble` and `granular sweep` under `mpirun -n 2` (registered where CMake found MPI and mpirun):
// ensemble.json, ensemble.csv and sweep.csv byte-identical to the serial command's (--jobs 1), and a run that
// blows up on a rank recorded like in the serial command (the same seeds failed, exit code 1).
#include "CliProcess.h"
#include "EnsembleChecks.h"

#include <QTest>

#include <cstdio>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

namespace {

/// `mpirun -n 2 granular ARGS`; --oversubscribe where the machine has fewer slots than ranks. Once more where Open
/// MPI reports that it lost a rank it had not started ("... with PID 0 ... exiting improperly": seen once in a CI run
/// under load, with no output of the rank; never reproduced alone or beside the same tests): a launch that failed,
/// not a result. Any other failure, and a second lost launch, stands.
Result runUnderMpirun(const std::string& arguments)
{
    const std::string launcher = std::string("'") + GRANULAR_MPIEXEC + "' --oversubscribe -n 2";
    Result result = runGranularAfter(":", arguments, launcher);
    if (result.exitCode != 0 && result.err.find("with PID 0") != std::string::npos &&
        result.err.find("exiting improperly") != std::string::npos) {
        std::printf("mpirun lost a rank before it started; running it again:\n%s\n", result.err.c_str());
        result = runGranularAfter(":", arguments, launcher);
    }
    return result;
}

}  // namespace

class CliMpiTest : public QObject {
    Q_OBJECT

private slots:
    void ensembleIsTheSameAsTheSerialOne();
    void sweepIsTheSameAsTheSerialOne();
    void aRunThatBlowsUpOnARankIsRecorded();
};

void CliMpiTest::ensembleIsTheSameAsTheSerialOne()
{
    const ScratchDirectory dir;
    // The command: eight packings of Shaebani et al. 2009's reference system.
    const Result mpi =
        runUnderMpirun("ensemble periodic2d --quiet --seeds 1..8 --out '" + (dir.path / "mpi").string() + "'");
    QVERIFY2(mpi.exitCode == 0, mpi.err.c_str());
    const Result serial =
        runGranular("ensemble periodic2d --quiet --seeds 1..8 --jobs 1 --out '" + (dir.path / "serial").string() + "'");
    QVERIFY2(serial.exitCode == 0, serial.err.c_str());
    QVERIFY(sameBytes(dir.path / "mpi" / "ensemble.json", dir.path / "serial" / "ensemble.json"));
    QVERIFY(sameBytes(dir.path / "mpi" / "ensemble.csv", dir.path / "serial" / "ensemble.csv"));
    for (int seed = 1; seed <= 8; ++seed) {
        const fs::path run = fs::path("runs") / std::to_string(seed) / "series.csv";
        QVERIFY2(sameBytes(dir.path / "mpi" / run, dir.path / "serial" / run), run.c_str());
    }
}

void CliMpiTest::sweepIsTheSameAsTheSerialOne()
{
    const ScratchDirectory dir;
    const std::string sweep = "sweep periodic2d --quiet --key pressure.inertia --values 25,50,100,200 --set run.time=5";
    const Result mpi = runUnderMpirun(sweep + " --out '" + (dir.path / "mpi").string() + "'");
    QVERIFY2(mpi.exitCode == 0, mpi.err.c_str());
    const Result serial = runGranular(sweep + " --jobs 1 --out '" + (dir.path / "serial").string() + "'");
    QVERIFY2(serial.exitCode == 0, serial.err.c_str());
    QVERIFY(sameBytes(dir.path / "mpi" / "sweep.csv", dir.path / "serial" / "sweep.csv"));
}

void CliMpiTest::aRunThatBlowsUpOnARankIsRecorded()
{
    const ScratchDirectory dir;
    const Result mpi = runUnderMpirun(blowingUpEnsemble("1..6") + " --out '" + (dir.path / "mpi").string() + "'");
    QCOMPARE(mpi.exitCode, 1);
    QVERIFY2(mpi.err.find("failed runs: seeds ") != std::string::npos, mpi.err.c_str());
    const Result serial =
        runGranular(blowingUpEnsemble("1..6") + " --jobs 1 --out '" + (dir.path / "serial").string() + "'");
    QCOMPARE(serial.exitCode, 1);
    const auto failed = failedSeeds(dir.path / "mpi");
    QVERIFY(!failed.empty() && failed.size() < 6);
    QVERIFY(failed == failedSeeds(dir.path / "serial"));
    QVERIFY(sameBytes(dir.path / "mpi" / "ensemble.json", dir.path / "serial" / "ensemble.json"));
}

QTEST_APPLESS_MAIN(CliMpiTest)
#include "tst_cli_mpi.moc"
