// Checkpoint and restart (`granular run --checkpoint-every T`, `granular resume DIR`): a run stopped at a
// checkpoint and resumed writes the same series.csv, byte for byte, and the same summary values as the run that
// was never stopped, for every method. (Unusable checkpoints: tst_cli_checkpoint_file.cpp.)
#include "CliProcess.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cmath>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

namespace {

/// Files in DIR/frames (a frame is three: particles, contacts, boundaries).
std::size_t frameFileCount(const fs::path& directory)
{
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(directory / "frames"), {}));
}

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
    void aStopBetweenRowsResumesBitIdentical()
    {
        // drum3d writes a row every 0.02 s: its last row at 0.25 s is off that grid, and the resumed run must not
        // keep it among the rows of the grid (the checkpoint holds the rows before it).
        checkResumedRunEqualsUninterrupted("drum3d", "0.25", "0.5");
    }
    void anEndedRunResumedTakesNoStep()
    {
        // A checkpoint of a run's last step, resumed as it is: the same series, steps and end, whether the run
        // reached run.time (drum3d, its last row off the output grid) or its stopping rule (periodic2d relaxed at
        // step 3902; a checkpoint at every step). Before 2026-11-28 periodic2d's resume took one more step; drum3d's
        // passed (its checkpoint held the last row, and no step was taken).
        const ScratchDirectory dir;
        for (const auto& [scenario, options] :
             {std::pair<std::string, std::string>{"drum3d", "--set run.time=0.25 --checkpoint-every 0.25"},
              std::pair<std::string, std::string>{"periodic2d", "--set run.time=2000 --checkpoint-every 0.01"}}) {
            const fs::path out = dir.path / scenario;
            const Result a = runGranular("run " + scenario + " --quiet " + options + " --out '" + out.string() + "'");
            QVERIFY2(a.exitCode == 0, a.err.c_str());
            const std::string series = slurp(out / "series.csv");
            const nlohmann::json summary = comparableSummary(out);
            const Result b = runGranular("resume '" + out.string() + "' --quiet");
            QVERIFY2(b.exitCode == 0, b.err.c_str());
            QVERIFY2(slurp(out / "series.csv") == series, (scenario + ": the resumed series differs").c_str());
            const nlohmann::json after = comparableSummary(out);
            QCOMPARE(after["steps"].get<std::int64_t>(), summary["steps"].get<std::int64_t>());
            QCOMPARE(after["stopped"].get<std::string>(), summary["stopped"].get<std::string>());
        }
    }
    void aRunTimeBeforeTheCheckpointIsRefused()
    {
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QCOMPARE(runWithCheckpoints("drum3d", "0.1", "0.1", out).exitCode, 0);
        const std::string series = slurp(out / "series.csv");
        const Result r = runGranular("resume '" + out.string() + "' --quiet --set run.time=0.05");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(isOneLineNaming(r.err, "run.time: 0.05 s ends before the checkpoint, at t = 0.1"), r.err.c_str());
        QVERIFY(slurp(out / "series.csv") == series);
        // The run's steps, end and output grid count steps of its solver.dt: another dt at a resume ended the run
        // at the wrong time, with rows off the grid.
        const Result step =
            runGranular("resume '" + out.string() + "' --quiet --set run.time=0.2 --set solver.dt=5e-4");
        QCOMPARE(step.exitCode, 2);
        QVERIFY2(isOneLineNaming(step.err, "solver.dt: 5e-04 s; a resumed run goes on with its step, 0.001 s"),
                 step.err.c_str());
        QVERIFY(slurp(out / "series.csv") == series);
    }
    void aResumeIntoFurtherOutputWithoutARunTimeIsRefused()
    {
        // A resume past the last checkpoint (run.time 0.1 -> 0.18, checkpoints every 0.1) writes no checkpoint; a plain
        // `resume DIR` then went on with the checkpoint's run.time, 0.1 s, and replaced the 0.18 s of output by 0.1 s,
        // exit 0. It is refused, naming the output's reach; a run.time given is the user's choice.
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QCOMPARE(runWithCheckpoints("drum3d", "0.1", "0.1", out).exitCode, 0);
        const Result further = runGranular("resume '" + out.string() + "' --quiet --set run.time=0.18");
        QVERIFY2(further.exitCode == 0, further.err.c_str());
        const std::string series = slurp(out / "series.csv");
        const Result plain = runGranular("resume '" + out.string() + "' --quiet");
        QCOMPARE(plain.exitCode, 2);
        QVERIFY2(isOneLineNaming(plain.err, "run.time: this resume would end at the checkpoint's run.time = 0.1 s"),
                 plain.err.c_str());
        QVERIFY2(plain.err.find("e.g. run.time=0.18") != std::string::npos, plain.err.c_str());
        QVERIFY(slurp(out / "series.csv") == series);
        const Result again = runGranular("resume '" + out.string() + "' --quiet --set run.time=0.18");
        QVERIFY2(again.exitCode == 0, again.err.c_str());
        QVERIFY(slurp(out / "series.csv") == series);
    }
    void aResumedRunsRatesAreItsOwn()
    {
        // contact_updates_per_s divided the whole run's updates by the resume's wall time (piston2d: 1.2e8 against
        // 7.7e7 measured; a resume that took no step, 1.5e15).
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QCOMPARE(runWithCheckpoints("piston2d", "5", "5", out).exitCode, 0);
        const auto before = nlohmann::json::parse(slurp(out / "summary.json"));
        const Result resumed = runGranular("resume '" + out.string() + "' --quiet --set run.time=10");
        QVERIFY2(resumed.exitCode == 0, resumed.err.c_str());
        const auto after = nlohmann::json::parse(slurp(out / "summary.json"));
        const auto updates = after["contact_updates"].get<double>() - before["contact_updates"].get<double>();
        const double rate = updates / after["wall_time_s"].get<double>();
        QVERIFY2(std::fabs(after["contact_updates_per_s"].get<double>() / rate - 1.0) < 1e-9,
                 (std::to_string(after["contact_updates_per_s"].get<double>()) + " /s, the resume's own " +
                  std::to_string(rate) + " /s")
                     .c_str());
    }
    void aResumeGoesOnCheckpointingAtTheSavedInterval()
    {
        // Resumed without --checkpoint-every, a run stopped checkpointing: its checkpoint stayed at 0.1 s.
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QCOMPARE(runWithCheckpoints("drum3d", "0.1", "0.05", out).exitCode, 0);
        const Result resumed = runGranular("resume '" + out.string() + "' --quiet --set run.time=0.2");
        QVERIFY2(resumed.exitCode == 0, resumed.err.c_str());
        const Result before = runGranular("resume '" + out.string() + "' --quiet --set run.time=0.15");
        QCOMPARE(before.exitCode, 2);
        QVERIFY2(isOneLineNaming(before.err, "ends before the checkpoint, at t = 0.2"), before.err.c_str());
    }
    void aMaterialChangedOnResumeReachesTheContacts()
    {
        // md_press: a grain driven into a fixed one at 1 mm/s. Resumed at 0.05 s with k_n = 2e9 N/m instead of 1e9,
        // the contact (k_n / 2 in series) gives 1e9 N/m x 6e-5 m = 6e4 N at 0.06 s, as a run with 2e9 from the start.
        const ScratchDirectory dir;
        const fs::path split = dir.path / "split";
        const fs::path whole = dir.path / "whole";
        QCOMPARE(runWithCheckpoints("md_press", "0.05", "0.05", split).exitCode, 0);
        const Result resumed =
            runGranular("resume '" + split.string() + "' --quiet --set run.time=0.06 --set material.stiffness=2e9");
        QVERIFY2(resumed.exitCode == 0, resumed.err.c_str());
        QCOMPARE(runGranular("run md_press --quiet --set run.time=0.06 --set material.stiffness=2e9 --out '" +
                             whole.string() + "'")
                     .exitCode,
                 0);
        const auto lastForce = [](const fs::path& run) {  // N, the contact's normal force at the run's end
            return nlohmann::json::parse(slurp(run / "summary.json"))["final"]["normal_force"].get<double>();
        };
        const double force = lastForce(split);
        QVERIFY2(std::fabs(force - 6e4) < 1.0, std::to_string(force).c_str());
        QCOMPARE(force, lastForce(whole));
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
        QCOMPARE(frameFileCount(split), wholeFiles);
        QCOMPARE(slurp(split / "run.pvd"), slurp(whole / "run.pvd"));
    }

    void aKilledRunResumesWithItsOwnFrames()
    {
        // A run's frames stayed in its staging folder until its end: a run killed after a checkpoint left DIR a
        // checkpoint whose frames were gone ("a frame written before the checkpoint is missing"), or, in a DIR that
        // held an earlier output, was resumed with that output's frames (seed 1's frames 0-24, then seed 7's).
#ifndef GRANULAR_CLI_WRITES_VTK
        QSKIP("this build's CLI has no VTK: it writes no frames");
#endif
        const ScratchDirectory dir;
        const fs::path reference = dir.path / "reference";
        const fs::path killed = dir.path / "killed";
        const std::string options = " --quiet --set output.vtk=true --set output.interval=1 --checkpoint-every 5 ";
        QCOMPARE(runGranular("run piston2d --seed 7 --set run.time=30" + options + "--out '" + reference.string() + "'")
                     .exitCode,
                 0);
        // An earlier output of another seed in DIR, then a long run killed right after its first checkpoint.
        QCOMPARE(runGranular("run piston2d --set run.time=30" + options + "--out '" + killed.string() + "'").exitCode,
                 0);
        const auto earlierCheckpoint = fs::last_write_time(killed / "checkpoint.bin");
        {
            const ScratchDirectory capture;
            BackgroundRun run("run piston2d --seed 7 --set run.time=100000" + options + "--out '" + killed.string() +
                                  "'",
                              capture.path);
            QVERIFY(waitFor([&] { return fs::last_write_time(killed / "checkpoint.bin") != earlierCheckpoint; }, 120));
            run.signal(SIGKILL);
            QCOMPARE(run.wait(), 128 + SIGKILL);
        }
        const Result resumed = runGranular("resume '" + killed.string() + "' --quiet --set run.time=30");
        QVERIFY2(resumed.exitCode == 0, resumed.err.c_str());
        std::size_t files = 0;
        for (const auto& entry : fs::directory_iterator(reference / "frames")) {
            ++files;
            const fs::path twin = killed / "frames" / entry.path().filename();
            QVERIFY2(fs::exists(twin) && slurp(twin) == slurp(entry.path()), twin.c_str());
        }
        QCOMPARE(files, std::size_t{3 * 31});
        QCOMPARE(frameFileCount(killed), files);
        QCOMPARE(slurp(killed / "run.pvd"), slurp(reference / "run.pvd"));
        QCOMPARE(slurp(killed / "series.csv"), slurp(reference / "series.csv"));
        // The committed output keeps no checkpoint's frames folder.
        for (const auto& entry : fs::directory_iterator(killed)) {
            QVERIFY2(entry.path().filename().string().rfind("checkpoint-frames-", 0) != 0, entry.path().c_str());
        }
    }

    void aResumeWithoutFramesKeepsTheEarlierOnes()
    {
        // A resume with output.vtk=false dropped the earlier frames from its output but carried over the checkpoint
        // that names them: the next resume failed ("a frame written before the checkpoint is missing").
#ifndef GRANULAR_CLI_WRITES_VTK
        QSKIP("this build's CLI has no VTK: it writes no frames");
#endif
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QCOMPARE(runGranular("run piston2d --quiet --set run.time=10 --set output.vtk=true --set output.interval=1 "
                             "--checkpoint-every 5 --out '" +
                             out.string() + "'")
                     .exitCode,
                 0);
        QCOMPARE(runGranular("resume '" + out.string() + "' --quiet --set run.time=12 --set output.vtk=false").exitCode,
                 0);
        QCOMPARE(frameFileCount(out), std::size_t{3 * 11});
        const Result again = runGranular("resume '" + out.string() + "' --quiet --set run.time=20");
        QVERIFY2(again.exitCode == 0, again.err.c_str());
        QCOMPARE(frameFileCount(out), std::size_t{3 * 21});
    }

    void framesSwitchedOnAtResumeCarryTheirTimes()
    {
        // run.pvd gave frame k the time of the series' row k: frames switched on at a resume at t = 0.2 s were listed
        // at 0, 0.05, ... while their files said 0.25, 0.30, ...
#ifndef GRANULAR_CLI_WRITES_VTK
        QSKIP("this build's CLI has no VTK: it writes no frames");
#endif
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QCOMPARE(runGranular("run piston2d --quiet --set run.time=0.2 --set output.interval=0.05 --checkpoint-every "
                             "0.1 --out '" +
                             out.string() + "'")
                     .exitCode,
                 0);
        QCOMPARE(runGranular("resume '" + out.string() + "' --quiet --set run.time=0.4 --set output.vtk=true").exitCode,
                 0);
        const std::string pvd = slurp(out / "run.pvd");
        const std::size_t first = pvd.find("timestep=\"");
        QVERIFY2(first != std::string::npos, pvd.c_str());
        const double time = std::stod(pvd.substr(first + 10));
        QVERIFY2(std::abs(time - 0.25) < 1e-9, pvd.c_str());
        QCOMPARE(frameFileCount(out), std::size_t{3 * 4});
    }
};

QTEST_APPLESS_MAIN(CliCheckpointTest)
#include "tst_cli_checkpoint.moc"
