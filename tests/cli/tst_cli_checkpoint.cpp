// Checkpoint and restart (`granular run --checkpoint-every T`, `granular resume DIR`): a run stopped at a
// checkpoint and resumed writes the same series.csv, byte for byte, and the same summary values as the run that
// was never stopped, for every method; a checkpoint that is missing, truncated, corrupted or of another version
// is refused with exit 2 and one line.
#include "CliProcess.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

namespace {

/// summary.json without what depends on the machine (timings) or on the run being split (the steps of the
/// last call).
nlohmann::json comparableSummary(const fs::path& directory)
{
    auto summary = nlohmann::json::parse(slurp(directory / "summary.json"));
    for (const char* key : {"wall_time_s", "steps_per_s", "contact_updates_per_s"}) {
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

/// A checkpoint of a short chain1d run in DIR/run; returns its path.
fs::path writeChainCheckpoint(const fs::path& directory)
{
    const fs::path run = directory / "run";
    const Result r =
        runGranular("run chain1d --quiet --set run.time=20 --checkpoint-every 10 --out '" + run.string() + "'");
    if (r.exitCode != 0) {
        return {};
    }
    return run / "checkpoint.bin";
}

std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

void writeBytes(const fs::path& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
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

    void badCheckpointsAreRefusedWithOneLine()
    {
        const ScratchDirectory dir;
        const fs::path checkpoint = writeChainCheckpoint(dir.path);
        QVERIFY(!checkpoint.empty());
        const std::string good = readBytes(checkpoint);
        QVERIFY(good.size() > 100);
        const std::string seriesBefore = slurp(checkpoint.parent_path() / "series.csv");
        const auto refused = [&](const std::string& bytes, const std::string& naming) {
            writeBytes(checkpoint, bytes);
            const Result r = runGranular("resume '" + checkpoint.parent_path().string() + "' --set run.time=30");
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(isOneLineNaming(r.err, naming), r.err.c_str());
            // Nothing of the directory is touched.
            QVERIFY(slurp(checkpoint.parent_path() / "series.csv") == seriesBefore);
        };
        refused(good.substr(0, good.size() / 2), "truncated");
        std::string flipped = good;
        flipped[good.size() / 2] = static_cast<char>(flipped[good.size() / 2] ^ 0x20);
        refused(flipped, "corrupted");
        std::string otherVersion = good;
        otherVersion[20] = 7;  // the version follows the 20-byte magic "GRANULAR-CHECKPOINT\n"
        refused(otherVersion, "version 7");
        refused("{\"solver\": {}}", "not a checkpoint");
        refused(std::string(), "not a checkpoint");
        fs::remove(checkpoint);
        const Result missing = runGranular("resume '" + checkpoint.parent_path().string() + "'");
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(isOneLineNaming(missing.err, "checkpoint.bin"), missing.err.c_str());
    }
    void resumeRefusesKeysThatBuildTheWorld()
    {
        const ScratchDirectory dir;
        const fs::path checkpoint = writeChainCheckpoint(dir.path);
        QVERIFY(!checkpoint.empty());
        const Result r =
            runGranular("resume '" + checkpoint.parent_path().string() + "' --set chain.count=7 --set run.time=30");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(isOneLineNaming(r.err, "chain.count"), r.err.c_str());
        const Result bad = runGranular("resume '" + checkpoint.parent_path().string() + "' --set run.time=-1");
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(isOneLineNaming(bad.err, "run.time"), bad.err.c_str());
    }
};

QTEST_APPLESS_MAIN(CliCheckpointTest)
#include "tst_cli_checkpoint.moc"
