// Checkpoint and restart (`granular run --checkpoint-every T`, `granular resume DIR`): a run stopped at a
// checkpoint and resumed writes the same series.csv, byte for byte, and the same summary values as the run that
// was never stopped, for every method. (Unusable checkpoints: tst_cli_checkpoint_file.cpp.)
#include "CliProcess.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cstdint>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

namespace {

/// summary.json without what depends on the machine (timings) or on the run being split (the steps of the
/// last call).
nlohmann::json comparableSummary(const fs::path& directory)
{
    auto summary = nlohmann::json::parse(slurp(directory / "summary.json"));
    // What the machine did in this call (times, and the steps by the threads they ran on): a resumed call has its own.
    for (const char* key :
         {"wall_time_s", "steps_per_s", "contact_updates_per_s", "steps_on_fewer_threads", "steps_on_threads"}) {
        summary.erase(key);
    }
    return summary;
}

/// Runs SCENARIO to `full` s in one go, and again to `stop` s with a checkpoint there, resumed to `full` s; both
/// must give the same series and summary.
void checkResumedRunEqualsUninterrupted(const std::string& scenario, const std::string& stop, const std::string& full,
                                        const std::string& extra = "")
{
    const ScratchDirectory dir;
    const fs::path whole = dir.path / "whole";
    const fs::path split = dir.path / "split";
    const Result a = runGranular("run " + scenario + " --quiet --set run.time=" + full + " " + extra + " --out '" +
                                 whole.string() + "'");
    QVERIFY2(a.exitCode == 0, a.err.c_str());
    const Result b = runGranular("run " + scenario + " --quiet --set run.time=" + stop + " " + extra +
                                 " --checkpoint-every " + stop + " --out '" + split.string() + "'");
    QVERIFY2(b.exitCode == 0, b.err.c_str());
    QVERIFY(fs::exists(split / "checkpoint.bin"));
    const std::string before = slurp(split / "series.csv");
    const Result c = runGranular("resume '" + split.string() + "' --quiet --set run.time=" + full);
    QVERIFY2(c.exitCode == 0, c.err.c_str());
    const std::string expected = slurp(whole / "series.csv");
    const std::string resumed = slurp(split / "series.csv");
    QVERIFY(expected.size() > before.size());
    QVERIFY2(resumed == expected, (scenario + ": the resumed series differs from the uninterrupted one").c_str());
    QCOMPARE(comparableSummary(split).dump(), comparableSummary(whole).dump());
}

}  // namespace

class CliCheckpointTest : public QObject {
    Q_OBJECT

private slots:
    // One scenario per method and setup; the stop falls on a row of the series (a multiple of output.interval).
    void chainResumesBitIdentical() { checkResumedRunEqualsUninterrupted("chain1d", "30", "60"); }
    void pistonResumesBitIdenticalAcrossTheLoadStep()
    {
        // piston.load_step_time = 30 s: the checkpoint is before the step, the resumed run applies it.
        checkResumedRunEqualsUninterrupted("piston2d", "29", "32");
    }
    void periodicResumesBitIdenticalToTheSameRelaxedStep()
    {
        checkResumedRunEqualsUninterrupted("periodic2d", "10", "2000");
    }
    void softParticlesResumeBitIdentical() { checkResumedRunEqualsUninterrupted("md_impact", "0.02", "0.05"); }
    void multiContactResumesBitIdentical()
    {
        // Through the settling (0.5 s) into the first compression stroke: the grains' deformation points,
        // the plate's program and the compression levels recorded so far come back.
        checkResumedRunEqualsUninterrupted("mcdem_compress", "0.6", "0.8");
    }
    void checkpointsDoNotChangeTheRun()
    {
        const ScratchDirectory dir;
        const Result a = runGranular("run piston2d --quiet --set run.time=3 --out '" + (dir.path / "a").string() + "'");
        const Result b = runGranular("run piston2d --quiet --set run.time=3 --checkpoint-every 0.5 --out '" +
                                     (dir.path / "b").string() + "'");
        QCOMPARE(a.exitCode, 0);
        QCOMPARE(b.exitCode, 0);
        QVERIFY(slurp(dir.path / "a" / "series.csv") == slurp(dir.path / "b" / "series.csv"));
        QVERIFY(!fs::exists(dir.path / "a" / "checkpoint.bin"));
        QVERIFY(fs::exists(dir.path / "b" / "checkpoint.bin"));
    }
    void resumedFramesContinueTheFrameNumbers()
    {
#ifndef GRANULAR_CLI_WRITES_VTK
        QSKIP("this build's CLI has no VTK: it writes no frames");
#endif
        const ScratchDirectory dir;
        const fs::path whole = dir.path / "whole";
        const fs::path split = dir.path / "split";
        const std::string vtk = " --set output.vtk=true --set output.interval=0.1 ";
        QCOMPARE(runGranular("run piston2d --quiet --set run.time=1" + vtk + "--out '" + whole.string() + "'").exitCode,
                 0);
        QCOMPARE(runGranular("run piston2d --quiet --set run.time=0.5" + vtk + "--checkpoint-every 0.5 --out '" +
                             split.string() + "'")
                     .exitCode,
                 0);
        QCOMPARE(runGranular("resume '" + split.string() + "' --quiet --set run.time=1").exitCode, 0);
        std::size_t wholeFiles = 0;
        for (const auto& entry : fs::directory_iterator(whole / "frames")) {
            ++wholeFiles;
            const fs::path twin = split / "frames" / entry.path().filename();
            QVERIFY2(fs::exists(twin), twin.c_str());
            QVERIFY2(slurp(twin) == slurp(entry.path()), twin.c_str());
        }
        QCOMPARE(wholeFiles, std::size_t{3 * 11});  // particles, contacts and boundaries of 11 frames
        QCOMPARE(static_cast<std::size_t>(std::distance(fs::directory_iterator(split / "frames"), {})), wholeFiles);
        QCOMPARE(slurp(split / "run.pvd"), slurp(whole / "run.pvd"));
    }
};

QTEST_APPLESS_MAIN(CliCheckpointTest)
#include "tst_cli_checkpoint.moc"
