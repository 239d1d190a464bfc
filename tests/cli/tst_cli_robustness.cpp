// The command line under hostile or careless input (issue 18's defects, one test each): numbers beyond a double,
// deep nesting, unusable paths, absurd step counts, signals, reused and blocked output directories, many frames,
// non-finite and exploding states, fits of huge values, memory exhaustion, and the smaller ones (empty unknown
// objects, duplicate keys, sweep's checks, CRLF files). Every refusal is one line naming the field.
#include "CliProcess.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

namespace {

void writeText(const fs::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::size_t countEntries(const fs::path& directory)
{
    return fs::exists(directory)
               ? static_cast<std::size_t>(std::distance(fs::directory_iterator(directory), fs::directory_iterator()))
               : 0;
}

/// A CPU-time limit (s) for runs that, wrongly, would go on for minutes.
const std::string kCpuLimit = "ulimit -t 60";

#ifdef GRANULAR_CLI_WRITES_VTK
/// Frames are written where the CLI has VTK; a core-only build refuses output.vtk and these tests go without.
const std::string kFrames = " --set output.vtk=true";
#else
const std::string kFrames;
#endif

/// Frames of a run directory (their particle files; each comes with a contacts and a boundaries file).
std::size_t frameCount(const fs::path& directory)
{
    std::size_t count = 0;
    if (fs::exists(directory / "frames")) {
        for (const auto& entry : fs::directory_iterator(directory / "frames")) {
            count += entry.path().filename().string().rfind("particles_", 0) == 0 ? 1 : 0;
        }
    }
    return count;
}

/// Names in `directory` that start with a dot (a staging folder left behind).
std::string hiddenEntries(const fs::path& directory)
{
    std::string names;
    for (const auto& entry : fs::directory_iterator(directory)) {
        if (entry.path().filename().string().front() == '.') {
            names += entry.path().filename().string() + " ";
        }
    }
    return names;
}

/// Lines of a CSV file, the header included.
std::size_t lineCount(const fs::path& file)
{
    const std::string text = slurp(file);
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// Whether every cell of every data row of the CSV is a finite number.
bool allFinite(const fs::path& file)
{
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::stringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');) {
            if (!std::isfinite(std::stod(cell))) {
                return false;
            }
        }
    }
    return true;
}

/// Waits (60 s at most) until a run into `directory`/NAME is stepping: its staging folder, made when the run starts,
/// is there. Then `settle` more, for a few rows. A signal before the run starts would test the start-up instead.
bool waitUntilStepping(const fs::path& directory, std::chrono::milliseconds settle)
{
    if (!waitFor([&directory] { return !hiddenEntries(directory).empty(); }, 60)) {
        return false;
    }
    std::this_thread::sleep_for(settle);
    return true;
}

/// Starts a long piston2d run with frames, sends `signal` 2 s into its steps, and checks the contract: exit 128 +
/// signal, DIR holds a complete interrupted run (or nothing), no hidden folder remains.
void checkInterruptedBy(int signal)
{
    const ScratchDirectory dir;
    const fs::path out = dir.path / "run";
    const ScratchDirectory capture;
    BackgroundRun run("run piston2d --quiet --set run.time=100000 --set output.interval=0.5" + kFrames + " --out '" +
                          out.string() + "'",
                      capture.path);
    QVERIFY(waitUntilStepping(dir.path, std::chrono::seconds(2)));
    run.signal(signal);
    const int code = run.wait();
    QCOMPARE(code, 128 + signal);
    QVERIFY2(isOneLineNaming(run.err(), "interrupted at t = "), run.err().c_str());
    QVERIFY2(hiddenEntries(dir.path).empty(), hiddenEntries(dir.path).c_str());
    if (!fs::exists(out)) {
        return;  // nothing at all is the other accepted outcome
    }
    const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
    QCOMPARE(summary["stopped"].get<std::string>(), std::string("interrupted"));
    QVERIFY(summary["stopped_early"].get<bool>());
    QVERIFY(summary["simulated_time_s"].get<double>() > 0.0);
    const std::size_t rows = lineCount(out / "series.csv") - 1;
    QVERIFY(rows >= 2);
    QVERIFY(allFinite(out / "series.csv"));
    if (!kFrames.empty()) {
        QCOMPARE(frameCount(out), rows);
        QCOMPARE(countEntries(out / "frames"), 3 * rows);
        QVERIFY(fs::exists(out / "run.pvd"));
    }
    QVERIFY(fs::exists(out / "scenario.json"));
    // Loadable: the scenario it wrote runs again.
    const Result again = runGranular("show '" + (out / "scenario.json").string() + "'");
    QCOMPARE(again.exitCode, 0);
}

}  // namespace

class CliRobustnessTest : public QObject {
    Q_OBJECT

private slots:
    // 1. A number beyond a double aborted the parser (exit 134).
    void numberBeyondADoubleIsRefusedNamingTheKey()
    {
        const ScratchDirectory dir;
        writeText(dir.path / "x.json", R"({"solver":{"dt":1e999}})");
        const Result show = runGranular("show '" + (dir.path / "x.json").string() + "'");
        QCOMPARE(show.exitCode, 2);
        QVERIFY2(isOneLineNaming(show.err, "solver.dt"), show.err.c_str());
        writeText(dir.path / "y.json", R"({"particles":{"count":-1e400}})");
        const Result run = runGranular("run '" + (dir.path / "y.json").string() + "'");
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(isOneLineNaming(run.err, "particles.count"), run.err.c_str());
        const Result flag = runGranular("run freefall2d --set solver.dt=1e999");
        QCOMPARE(flag.exitCode, 2);
        QVERIFY2(isOneLineNaming(flag.err, "solver.dt"), flag.err.c_str());
        // Below a double's range: nlohmann read 1e-400 as 0 without a word (friction 0), where --set refuses it; the
        // same number inside a text is text.
        writeText(dir.path / "z.json", R"({"name":"1e-400","contact":{"friction":1e-400}})");
        const Result tiny = runGranular("show '" + (dir.path / "z.json").string() + "'");
        QCOMPARE(tiny.exitCode, 2);
        QVERIFY2(isOneLineNaming(tiny.err, "contact.friction: 1e-400 is beyond what a double holds"), tiny.err.c_str());
        writeText(dir.path / "l.json", R"({"lesson":[{"text":"1e-999","set":{"solver.dt":1e-999}}]})");
        const Result lesson = runGranular("show '" + (dir.path / "l.json").string() + "'");
        QCOMPARE(lesson.exitCode, 2);
        QVERIFY2(isOneLineNaming(lesson.err, "lesson[0].set.solver.dt: 1e-999 is beyond what a double holds"),
                 lesson.err.c_str());
    }

    // 2. 30,000 nested objects overflowed the stack (exit 139), 1e5 took 2.2 GB.
    void deepNestingIsRefusedAtOnce()
    {
        const ScratchDirectory dir;
        for (const int depth : {30000, 100000}) {
            std::string json;
            for (int i = 0; i < depth; ++i) {
                json += "{\"a\":";
            }
            json += "1" + std::string(static_cast<std::size_t>(depth), '}');
            writeText(dir.path / "deep.json", json);
            const auto start = std::chrono::steady_clock::now();
            const Result r = runGranular("show '" + (dir.path / "deep.json").string() + "'");
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(isOneLineNaming(r.err, "nested"), r.err.c_str());
            QVERIFY2(seconds < 30.0, std::to_string(seconds).c_str());  // a fraction of a second here; CI far slower
        }
    }

    // 3. Filesystem errors while resolving the scenario path aborted (exit 134).
    void unusableScenarioPathsAreRefused()
    {
        const ScratchDirectory dir;
        const Result longName = runGranular("show '" + (dir.path / (std::string(300, 'a') + ".json")).string() + "'");
        QCOMPARE(longName.exitCode, 2);
        QVERIFY2(isOneLineNaming(longName.err, "File name too long"), longName.err.c_str());
        fs::create_symlink(dir.path / "loop1", dir.path / "loop2");
        fs::create_symlink(dir.path / "loop2", dir.path / "loop1");
        const Result loop = runGranular("run '" + (dir.path / "loop1").string() + "'");
        QCOMPARE(loop.exitCode, 2);
        QVERIFY2(isOneLineNaming(loop.err, "symbolic links"), loop.err.c_str());
        const Result directory = runGranular("show '" + dir.path.string() + "'");
        QCOMPARE(directory.exitCode, 2);
        QVERIFY2(isOneLineNaming(directory.err, "scenario"), directory.err.c_str());
    }

    void unenterableDirectoryIsRefused()
    {
        if (::geteuid() == 0) {
            QSKIP("root enters every directory");
        }
        const ScratchDirectory dir;
        fs::create_directories(dir.path / "locked");
        writeText(dir.path / "locked" / "s.json", "{}");
        fs::permissions(dir.path / "locked", fs::perms::none);
        const Result r = runGranular("show '" + (dir.path / "locked" / "s.json").string() + "'");
        fs::permissions(dir.path / "locked", fs::perms::owner_all);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(isOneLineNaming(r.err, "Permission denied"), r.err.c_str());
    }

    // 4. run.time / solver.dt beyond 2^63 overflowed the step count; the run did one step and exited 0.
    void stepCountBeyondRangeIsRefused()
    {
        const ScratchDirectory dir;
        const Result r = runGranular("run freefall2d --set solver.dt=1e-300 --out '" + (dir.path / "o").string() + "'");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(isOneLineNaming(r.err, "solver.dt"), r.err.c_str());
        QVERIFY(r.err.find("steps") != std::string::npos);
        QVERIFY(!fs::exists(dir.path / "o"));
    }

    // 5. Interrupted runs left DIR/.partial-PID/ with a partial series and hundreds of frames.
    void interruptBySigintLeavesACompleteRun() { checkInterruptedBy(SIGINT); }
    void interruptBySigtermLeavesACompleteRun() { checkInterruptedBy(SIGTERM); }
    void anInterruptedEnsembleOrSweepKeepsItsFinishedRuns()
    {
        // ensemble and sweep had no handlers: SIGINT killed them, and every finished run was lost with the output.
        const ScratchDirectory dir;
        const std::string md = " --set solver.method=md --set run.time=50 --jobs 1 --out '";
        const struct {
            std::string command;
            fs::path out;
            fs::path result;
        } cases[] = {{"ensemble chain1d --seeds 1..4" + md, dir.path / "e", dir.path / "e" / "ensemble.json"},
                     {"sweep chain1d --key material.stiffness --values 1e6,2e6,3e6,4e6" + md, dir.path / "s",
                      dir.path / "s" / "sweep.csv"}};
        for (const auto& c : cases) {
            const ScratchDirectory capture;
            BackgroundRun run(c.command + c.out.string() + "'", capture.path);
            // Once the first run has finished (its line on stdout), the next is under way.
            QVERIFY(waitFor(
                [&] {
                    return slurp(capture.path / "out.txt").find("finished") != std::string::npos ||
                           slurp(capture.path / "out.txt").find("steps,") != std::string::npos;
                },
                120));
            run.signal(SIGINT);
            QCOMPARE(run.wait(), 128 + SIGINT);
            QVERIFY2(isOneLineNaming(run.err(), "interrupted"), run.err().c_str());
            QVERIFY2(fs::exists(c.result), c.out.c_str());
            QVERIFY2(hiddenEntries(dir.path).empty(), hiddenEntries(dir.path).c_str());
        }
        const auto ensemble = nlohmann::json::parse(slurp(dir.path / "e" / "ensemble.json"));
        QCOMPARE(ensemble["stopped"].get<std::string>(), std::string("interrupted"));
        QVERIFY(ensemble["finished"].get<int>() >= 1);
        QVERIFY(fs::exists(dir.path / "e" / "runs" / "1" / "series.csv"));
        const std::string sweep = slurp(dir.path / "s" / "sweep.csv");
        QVERIFY2(sweep.find("\n1e6,") != std::string::npos && lineCount(dir.path / "s" / "sweep.csv") == 5,
                 sweep.c_str());
    }

    void aKilledRunsStagingIsCleanedByTheNext()
    {
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        {
            const ScratchDirectory capture;
            BackgroundRun run("run piston2d --quiet --set run.time=100000" + kFrames + " --out '" + out.string() + "'",
                              capture.path);
            QVERIFY(waitUntilStepping(dir.path, std::chrono::milliseconds(500)));
            run.signal(SIGKILL);
            QCOMPARE(run.wait(), 128 + SIGKILL);
        }
        QVERIFY(!fs::exists(out));                  // SIGKILL cannot be caught: DIR was never made
        QVERIFY(!hiddenEntries(dir.path).empty());  // its staging stays until the next run
        const Result next = runGranular("run chain1d --quiet --set run.time=2 --out '" + out.string() + "'");
        QCOMPARE(next.exitCode, 0);
        QVERIFY2(hiddenEntries(dir.path).empty(), hiddenEntries(dir.path).c_str());
    }

    // 6. Writing into an existing DIR mixed old and new output (stale frames next to the new series).
    void anEarlierOutputIsReplacedAsAWhole()
    {
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        const std::string options = " --quiet --set output.interval=0.1" + kFrames + " --out '" + out.string() + "'";
        // A longer run with a checkpoint (and frames), then a shorter one of another scenario into the same DIR:
        // nothing of the first remains, not even its checkpoint.
        QCOMPARE(runGranular("run piston2d --set run.time=2 --checkpoint-every 1" + options).exitCode, 0);
        QVERIFY(fs::exists(out / "checkpoint.bin"));
        QCOMPARE(frameCount(out), kFrames.empty() ? std::size_t{0} : std::size_t{21});
        // Frame 1,000,000 of a long run has seven digits (it was taken for a file of the user's).
        fs::create_directories(out / "frames");
        writeText(out / "frames" / "particles_1000000.vtp", "<VTKFile/>");
        // A run killed while it kept its first checkpoint's frames leaves DIR only their folder: still its output.
        const fs::path killed = dir.path / "killed";
        fs::create_directories(killed / "checkpoint-frames-123-456" / "frames");
        writeText(killed / "checkpoint-frames-123-456" / "frames" / "particles_000000.vtp", "<VTKFile/>");
        QCOMPARE(
            runGranular("run chain1d --quiet --set run.time=0.3 --set solver.dt=0.1 --out '" + killed.string() + "'")
                .exitCode,
            0);
        QVERIFY(!fs::exists(killed / "checkpoint-frames-123-456"));
        QCOMPARE(runGranular("run chain1d --set run.time=0.3 --set solver.dt=0.1" + options).exitCode, 0);
        QCOMPARE(frameCount(out), kFrames.empty() ? std::size_t{0} : std::size_t{4});
        QVERIFY(!fs::exists(out / "checkpoint.bin"));
        QCOMPARE(nlohmann::json::parse(slurp(out / "summary.json"))["scenario"].get<std::string>(),
                 std::string("chain1d"));
        QCOMPARE(lineCount(out / "series.csv"), std::size_t{5});
        QVERIFY2(hiddenEntries(dir.path).empty(), hiddenEntries(dir.path).c_str());
    }

    void aRunThatWritesNoCheckpointKeepsNoneOfAnother()
    {
        // piston2d leaves a checkpoint in DIR; freefall2d asks for one every 10 s but ends at 0.05 s, before its
        // first: DIR must not hold piston2d's checkpoint next to freefall2d's series (a resume would go on with
        // piston2d).
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        QCOMPARE(runWithCheckpoints("piston2d", "0.1", "0.05", out).exitCode, 0);
        QVERIFY(fs::exists(out / "checkpoint.bin"));
        QCOMPARE(runWithCheckpoints("freefall2d", "0.05", "10", out).exitCode, 0);
        QVERIFY(!fs::exists(out / "checkpoint.bin"));
        const Result resume = runGranular("resume '" + out.string() + "' --quiet");
        QCOMPARE(resume.exitCode, 2);
    }
    void aCheckpointIntervalMustBeAFiniteTimeWithAnOutput()
    {
        const ScratchDirectory dir;
        for (const char* bad : {"nan", "inf", "-1", "0"}) {
            const Result r = runGranular("run freefall2d --quiet --set run.time=0.05 --checkpoint-every " +
                                         std::string(bad) + " --out '" + (dir.path / "o").string() + "'");
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(isOneLineNaming(r.err, "--checkpoint-every"), r.err.c_str());
            QVERIFY(!fs::exists(dir.path / "o"));
        }
        // A finite interval beyond what a step count holds: no checkpoint, as for one longer than the run.
        const Result huge = runWithCheckpoints("freefall2d", "0.05", "1e300", dir.path / "h");
        QVERIFY2(huge.exitCode == 0, huge.err.c_str());
        QVERIFY(!fs::exists(dir.path / "h" / "checkpoint.bin"));
        const Result noOut = runGranular("run freefall2d --quiet --set run.time=0.05 --checkpoint-every 0.01");
        QCOMPARE(noOut.exitCode, 2);
        QVERIFY2(isOneLineNaming(noOut.err, "--checkpoint-every"), noOut.err.c_str());
    }
    void aDirectoryOfOtherFilesIsNotReplaced()
    {
        const ScratchDirectory dir;
        const fs::path out = dir.path / "thesis";
        fs::create_directories(out);
        writeText(out / "chapter1.tex", "precious");
        const Result r = runGranular("run chain1d --quiet --set run.time=1 --out '" + out.string() + "'");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(isOneLineNaming(r.err, "--out"), r.err.c_str());
        QCOMPARE(slurp(out / "chapter1.tex"), std::string("precious"));
        QCOMPARE(countEntries(out), std::size_t{1});
        const Result empty = runGranular("run chain1d --quiet --set run.time=1 --out ''");
        QCOMPARE(empty.exitCode, 2);
        QVERIFY2(isOneLineNaming(empty.err, "--out"), empty.err.c_str());
        // A folder with the user's own scenario.json among other files (it was taken for an earlier output and
        // replaced as a whole), and one with nothing but that scenario.json.
        const fs::path project = dir.path / "project";
        fs::create_directories(project / "data");
        writeText(project / "scenario.json", runGranular("show freefall2d").out);
        writeText(project / "data" / "x.csv", "1\n");
        const Result sweep = runGranular("sweep '" + (project / "scenario.json").string() +
                                         "' --key solver.iterations --values 10 --jobs 1 --quiet --set run.time=0.02 "
                                         "--out '" +
                                         project.string() + "'");
        QCOMPARE(sweep.exitCode, 2);
        QVERIFY2(isOneLineNaming(sweep.err, "--out"), sweep.err.c_str());
        QCOMPARE(slurp(project / "data" / "x.csv"), std::string("1\n"));
        fs::remove_all(project / "data");
        const Result alone = runGranular("run '" + (project / "scenario.json").string() +
                                         "' --quiet --set run.time=0.02 --out '" + project.string() + "'");
        QCOMPARE(alone.exitCode, 2);
        QVERIFY(fs::exists(project / "scenario.json"));
        QVERIFY(!fs::exists(project / "series.csv"));
        // Names that granular writes, holding the user's files: a series.csv of one's own, notes in runs/, a picture
        // in frames/ (each was taken for an earlier output and replaced).
        for (const char* own : {"series.csv", "runs/notes.txt", "frames/my.png"}) {
            fs::create_directories((project / own).parent_path());
            writeText(project / own, "mine\n");
            const Result refused = runGranular("run '" + (project / "scenario.json").string() +
                                               "' --quiet --set run.time=0.02 --out '" + project.string() + "'");
            QCOMPARE(refused.exitCode, 2);
            QVERIFY2(isOneLineNaming(refused.err, "--out"), refused.err.c_str());
            QCOMPARE(slurp(project / own), std::string("mine\n"));
            fs::remove(project / own);
        }
    }

    void aLinkAsTheOutputIsRefusedBeforeTheRun()
    {
        // A dangling link was refused only after the whole run (its output lost); a link to a directory was replaced
        // by a directory of its own, its target left as it was.
        const ScratchDirectory dir;
        const fs::path target = dir.path / "target";
        fs::create_directories(target);
        fs::create_directory_symlink(target, dir.path / "link");
        fs::create_symlink(dir.path / "nowhere", dir.path / "dangling");
        for (const char* name : {"link", "dangling", "link/"}) {
            // 100,000 steps of chain1d: refused before they run, or the test waits for them (and fails on the time).
            const auto started = std::chrono::steady_clock::now();
            const Result r =
                runGranular("run chain1d --quiet --set run.time=1e5 --out '" + (dir.path / name).string() + "'");
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(isOneLineNaming(r.err, "--out") && r.err.find("is a symbolic link") != std::string::npos,
                     r.err.c_str());
            QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
        }
        QVERIFY(fs::is_symlink(dir.path / "link"));
        QVERIFY(fs::is_symlink(dir.path / "dangling"));
        QVERIFY(fs::is_empty(target));
        const Result real = runGranular("run chain1d --quiet --set run.time=1 --out '" + target.string() + "'");
        QVERIFY2(real.exitCode == 0, real.err.c_str());
        QVERIFY(fs::exists(target / "summary.json"));
    }

    void textThatIsNotUtf8IsRefusedBeforeTheRun()
    {
        // A Latin-1 name ran to the end and was lost when summary.json could not hold it ("[json.exception...]").
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        const Result r =
            runGranular("run chain1d --quiet --set run.time=1 --set \"name=$(printf 'gr\\374\\337e')\" --out '" +
                        out.string() + "'");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(isOneLineNaming(r.err, "name: not UTF-8: byte 3 of 5 (0xFC)"), r.err.c_str());
        QVERIFY(!fs::exists(out));
    }

    void anUnwritableStandardOutputFailsTheCommand()
    {
        // `granular show X > f.json` on a full disk left a cut-short file and exit 0.
        const std::string toFullDisk = "sh -c 'exec \"$0\" \"$@\" >/dev/full'";
        for (const char* command : {"show freefall2d", "list"}) {
            const Result r = runGranularAfter(":", command, toFullDisk);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(isOneLineNaming(r.err, "cannot write the standard output"), r.err.c_str());
        }
        QCOMPARE(runGranular("list").exitCode, 0);
    }

    void aTrailingSeparatorNamesTheSameDirectory()
    {
        // "DIR/" failed after the whole run: its staging folder went inside DIR, which cannot be exchanged with it.
        const ScratchDirectory dir;
        const fs::path out = dir.path / "run";
        const Result first =
            runGranular("run chain1d --quiet --set solver.dt=0.1 --set output.interval=0.1 --set run.time=0.3 --out '" +
                        out.string() + "/'");
        QVERIFY2(first.exitCode == 0, first.err.c_str());
        QCOMPARE(lineCount(out / "series.csv"), std::size_t{5});
        const Result again =
            runGranular("run chain1d --quiet --set solver.dt=0.1 --set output.interval=0.1 --set run.time=0.5 --out '" +
                        out.string() + "//'");
        QVERIFY2(again.exitCode == 0, again.err.c_str());
        QCOMPARE(lineCount(out / "series.csv"), std::size_t{7});
        QVERIFY2(hiddenEntries(dir.path).empty(), hiddenEntries(dir.path).c_str());
        // The current directory and a parent have no name of their own: refused before any step.
        for (const char* unnamed : {".", "..", "/", "./"}) {
            const Result r = runGranular("run chain1d --quiet --set run.time=1 --out '" + std::string(unnamed) + "'");
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(isOneLineNaming(r.err, "--out"), r.err.c_str());
        }
    }

    // 7. Every frame file stayed open until the end: more frames than the open-file limit failed.
    void moreFramesThanOpenFilesAreWritten()
    {
        if (kFrames.empty()) {
            QSKIP("this build's CLI has no VTK: it writes no frames");
        }
        const ScratchDirectory dir;
        const Result r = runGranularAfter("ulimit -n 40", "run chain1d --quiet --set run.time=120" + kFrames +
                                                              " --out '" + (dir.path / "o").string() + "'");
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        QCOMPARE(frameCount(dir.path / "o"), std::size_t{121});
    }

    // 8. NaN results with exit 0 (-nan rows, null finals).
    void aNonFiniteStateStopsTheRun()
    {
        const ScratchDirectory dir;
        const fs::path out = dir.path / "o";
        const Result r =
            runGranular("run chain1d --quiet --set chain.mass=1e-310 --set run.time=5 --out '" + out.string() + "'");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(isOneLineNaming(r.err, "non-finite"), r.err.c_str());
        QVERIFY(r.err.find("at step 1 ") != std::string::npos);
        QVERIFY(r.err.find("chain.mass") != std::string::npos);
        const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
        QCOMPARE(summary["stopped"].get<std::string>(), std::string("blow-up"));
        QVERIFY(allFinite(out / "series.csv"));
        for (const auto& [key, value] : summary["final"].items()) {
            QVERIFY2(value.is_number(), key.c_str());
        }
    }

    // 9. Blow-ups passed silently (a piston 4,925 m through the floor; 1.4e8 J of kinetic energy).
    void blowUpsStopWithinAFewSteps()
    {
        const ScratchDirectory dir;
        // Before the guard these ran for minutes: a CPU limit makes them fail instead of hanging the test.
        const Result piston =
            runGranularAfter(kCpuLimit, "run piston2d --quiet --set piston.force=1e12 --set run.time=5 --out '" +
                                            (dir.path / "p").string() + "'");
        QCOMPARE(piston.exitCode, 1);
        QVERIFY2(isOneLineNaming(piston.err, "blow-up at step "), piston.err.c_str());
        QVERIFY(piston.err.find("piston") != std::string::npos);
        QVERIFY(piston.err.find("likely cause") != std::string::npos);
        const auto pistonSummary = nlohmann::json::parse(slurp(dir.path / "p" / "summary.json"));
        QCOMPARE(pistonSummary["stopped"].get<std::string>(), std::string("blow-up"));
        QVERIFY(pistonSummary["steps"].get<int>() <= 5);
        QVERIFY(pistonSummary["stopped_early"].get<bool>());  // it said false: only the stopping rule counted
        // The steps before the one that blew up (its state is broken): the message names that one, the summary's
        // steps were one more than the steps on threads and the series' rows showed.
        const auto blownStep = piston.err.substr(piston.err.find("blow-up at step ") + 16);
        QCOMPARE(pistonSummary["steps"].get<long long>() + 1, std::stoll(blownStep));
        long long onThreads = 0;
        for (const auto& [threads, steps] : pistonSummary["steps_on_threads"].items()) {
            onThreads += steps.get<long long>();
        }
        QCOMPARE(onThreads, pistonSummary["steps"].get<long long>());

        const Result impact =
            runGranularAfter(kCpuLimit, "run md_impact --quiet --set solver.dt=1e-3 --set run.time=1 --out '" +
                                            (dir.path / "m").string() + "'");
        QCOMPARE(impact.exitCode, 1);
        // The dt warning, then the blow-up naming the quantity and the advised dt.
        const std::string last = impact.err.substr(impact.err.rfind('\n', impact.err.size() - 2) + 1);
        QVERIFY2(last.rfind("granular: blow-up at step ", 0) == 0, impact.err.c_str());
        QVERIFY(last.find("m/s") != std::string::npos);
        QVERIFY(last.find("solver.dt <= ") != std::string::npos);
        const auto impactSummary = nlohmann::json::parse(slurp(dir.path / "m" / "summary.json"));
        QCOMPARE(impactSummary["stopped"].get<std::string>(), std::string("blow-up"));
        QVERIFY(impactSummary["steps"].get<int>() <= 50);
        QVERIFY(allFinite(dir.path / "m" / "series.csv"));
    }

    // 10. `granular fit` said "converged": true with null x0, amplitude, tau for values around 1e308.
    void fitOfHugeValuesIsFiniteOrNotConverged()
    {
        const ScratchDirectory dir;
        // Scaled damped oscillations x = s (1 + 0.5 e^{-t/8} sin 1.3 t): the fit has to find them (all its
        // parameters finite) or say it did not converge, never "converged" with nulls (as it did at 1e300).
        for (const double scale : {1e300, 1e308 / 1.6}) {
            std::string csv = "t,x\n";
            for (int i = 0; i <= 400; ++i) {
                const double t = 0.05 * i;
                const double x = scale * (1.0 + 0.5 * std::exp(-t / 8.0) * std::sin(1.3 * t));
                char line[80];
                std::snprintf(line, sizeof line, "%.6f,%.17g\n", t, x);
                csv += line;
            }
            writeText(dir.path / "huge.csv", csv);
            const Result r = runGranular("fit '" + (dir.path / "huge.csv").string() + "' --column x");
            const auto json = nlohmann::json::parse(r.out);
            QVERIFY2(json["converged"].get<bool>(), r.out.c_str());
            QCOMPARE(r.exitCode, 0);
            for (const char* key : {"x0", "amplitude", "tau", "omega", "phase", "rmse", "r2"}) {
                QVERIFY2(json[key].is_number(), key);
            }
            QVERIFY(std::abs(json["tau"].get<double>() / 8.0 - 1.0) < 1e-3);
            QVERIFY(std::abs(json["x0"].get<double>() / scale - 1.0) < 1e-3);
        }
    }

    // 11. Out of memory aborted (exit 134, uncaught bad_alloc).
    void outOfMemoryIsReported()
    {
#ifdef GRANULAR_SANITIZERS
        QSKIP("the sanitizers reserve more address space than the limit allows");
#endif
        const Result r = runGranularAfter("ulimit -v 400000",
                                          "run periodic3d --quiet --set particles.count=10000000 --set run.time=0.01");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(isOneLineNaming(r.err, "out of memory"), r.err.c_str());

        // Memory that runs out while running (the series of a very long run), not while building.
        const ScratchDirectory dir;
        const fs::path out = dir.path / "long";
        const Result longRun = runGranularAfter(
            "ulimit -v 300000; " + kCpuLimit,
            "run freefall2d --quiet --set run.time=1e6 --set solver.dt=1e-3 --out '" + out.string() + "'");
        QCOMPARE(longRun.exitCode, 1);
        QVERIFY2(isOneLineNaming(longRun.err, "out of memory while running"), longRun.err.c_str());
        QVERIFY(!fs::exists(out));
        QCOMPARE(countEntries(dir.path), std::size_t{0});
    }

    void sweepChecksEveryValueAndTheOutputFirst()
    {
        const ScratchDirectory dir;
        // The last value cannot be built: nothing runs (no line per run), nothing is written.
        const Result bad = runGranular("sweep freefall3d --key particles.count --values 10,20,100000 --out '" +
                                       (dir.path / "s").string() + "'");
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(isOneLineNaming(bad.err, "particles.count"), bad.err.c_str());
        QVERIFY(bad.out.empty());
        QVERIFY(!fs::exists(dir.path / "s"));
        // --out names a file: refused before the first run.
        writeText(dir.path / "file", "x");
        const Result file =
            runGranular("sweep chain1d --key run.time --values 1,2 --out '" + (dir.path / "file").string() + "'");
        QCOMPARE(file.exitCode, 2);
        QVERIFY2(isOneLineNaming(file.err, "--out"), file.err.c_str());
        QVERIFY(file.out.empty());
        const Result key = runGranular("sweep chain1d --key '' --values 1,2 --out '" + (dir.path / "k").string() + "'");
        QCOMPARE(key.exitCode, 2);
        QVERIFY2(isOneLineNaming(key.err, "--key"), key.err.c_str());
        const Result unknown =
            runGranular("sweep chain1d --key solver.bogus --values 1 --out '" + (dir.path / "k").string() + "'");
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(isOneLineNaming(unknown.err, "solver.bogus"), unknown.err.c_str());
        const Result good =
            runGranular("sweep chain1d --quiet --key run.time --values 1,2 --out '" + (dir.path / "g").string() + "'");
        QCOMPARE(good.exitCode, 0);
        QCOMPARE(lineCount(dir.path / "g" / "sweep.csv"), std::size_t{3});
    }

    // 13. Unknown empty objects and duplicate keys were accepted silently (the last won).
    void emptyUnknownObjectsAndDuplicateKeysAreRefused()
    {
        const ScratchDirectory dir;
        writeText(dir.path / "e.json", R"({"bogus": {}})");
        const Result empty = runGranular("show '" + (dir.path / "e.json").string() + "'");
        QCOMPARE(empty.exitCode, 2);
        QVERIFY2(isOneLineNaming(empty.err, "bogus"), empty.err.c_str());
        writeText(dir.path / "d.json", R"({"solver":{"dt":"abc","dt":0.5}})");
        const Result twice = runGranular("show '" + (dir.path / "d.json").string() + "'");
        QCOMPARE(twice.exitCode, 2);
        QVERIFY2(isOneLineNaming(twice.err, "solver.dt is given twice"), twice.err.c_str());
        writeText(dir.path / "s.json", R"({"solver":{"dt":0.5},"solver":{"iterations":3}})");
        const Result section = runGranular("show '" + (dir.path / "s.json").string() + "'");
        QCOMPARE(section.exitCode, 2);
        QVERIFY2(isOneLineNaming(section.err, "solver"), section.err.c_str());
        // Nested and dotted spellings of one key (the dotted one won), and a key twice in a lesson step (the message
        // named "solver.iterations.text", the key before the array).
        writeText(dir.path / "n.json", R"({"solver":{"dt":0.002},"solver.dt":0.001})");
        const Result spelt = runGranular("show '" + (dir.path / "n.json").string() + "'");
        QCOMPARE(spelt.exitCode, 2);
        QVERIFY2(isOneLineNaming(spelt.err, "solver.dt is given twice"), spelt.err.c_str());
        writeText(dir.path / "l.json",
                  R"({"lesson":[{"text":"a","set":{"solver.iterations":1}},{"text":"b","text":"c"}]})");
        const Result lesson = runGranular("show '" + (dir.path / "l.json").string() + "'");
        QCOMPARE(lesson.exitCode, 2);
        QVERIFY2(isOneLineNaming(lesson.err, "lesson[1].text is given twice"), lesson.err.c_str());
        // A group of keys given a value ("unknown key 'solver'", "array is not a value") and an unknown key given an
        // array ("solver.lesson: array is not a value").
        writeText(dir.path / "g.json", R"({"solver": 5})");
        const Result group = runGranular("show '" + (dir.path / "g.json").string() + "'");
        QCOMPARE(group.exitCode, 2);
        QVERIFY2(isOneLineNaming(group.err, "solver: a group of keys (e.g. solver."), group.err.c_str());
        QVERIFY2(group.err.find("given number; accepted: an object of its keys") != std::string::npos,
                 group.err.c_str());
        writeText(dir.path / "u.json", R"({"solver": {"lesson": []}})");
        const Result unknownArray = runGranular("show '" + (dir.path / "u.json").string() + "'");
        QCOMPARE(unknownArray.exitCode, 2);
        QVERIFY2(isOneLineNaming(unknownArray.err, "unknown key 'solver.lesson'"), unknownArray.err.c_str());
    }

    void aMountPointAsTheOutputIsRefusedBeforeTheRun()
    {
        // A mounted volume as --out ran to the end, then could not be exchanged with its output (EBUSY): the run was
        // lost with "the earlier output is kept". Needs a mount of its own (unshare -rm: a user namespace); skipped
        // where the system allows none.
        const ScratchDirectory dir;
        const fs::path volume = dir.path / "volume";
        fs::create_directories(volume);
        const std::string inNamespace =
            "unshare -rm sh -c 'mount -t tmpfs none \"" + volume.string() + "\" || exit 97; exec \"$0\" \"$@\"'";
        const auto started = std::chrono::steady_clock::now();
        const Result r = runGranularAfter(":", "run chain1d --quiet --set run.time=1e5 --out '" + volume.string() + "'",
                                          inNamespace);
        if (r.exitCode == 97 || r.err.find("unshare:") != std::string::npos) {
            QSKIP(("no mount namespace here: " + r.err).c_str());
        }
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(isOneLineNaming(r.err, "--out: " + volume.string() + " is a mount point"), r.err.c_str());
        QVERIFY2(r.err.find("(e.g. " + (volume / "run1").string() + ")") != std::string::npos, r.err.c_str());
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
        // A directory inside it is written as usual.
        const Result inside = runGranularAfter(
            ":", "run chain1d --quiet --set run.time=1 --out '" + (volume / "run1").string() + "'",
            "unshare -rm sh -c 'mount -t tmpfs none \"" + volume.string() +
                "\" || exit 97; \"$0\" \"$@\" && test -f \"" + (volume / "run1" / "summary.json").string() + "\"'");
        QVERIFY2(inside.exitCode == 0, inside.err.c_str());
    }

    void namesThatAreNotUtf8AreWrittenWithReplacementCharacters()
    {
        // fit's column name and compare's paths go into their JSON: a Latin-1 byte ended the command on nlohmann's
        // "[json.exception.type_error.316] invalid UTF-8 byte".
        const ScratchDirectory dir;
        std::string csv = "t,h\xF6he\n";
        for (int i = 0; i <= 400; ++i) {
            const double t = 0.05 * i;
            csv += std::to_string(t) + "," + std::to_string(std::exp(-t / 8.0) * std::sin(1.3 * t)) + "\n";
        }
        writeText(dir.path / "latin1.csv", csv);
        const Result fit =
            runGranular("fit '" + (dir.path / "latin1.csv").string() + "' --column \"$(printf 'h\\366he')\"");
        QVERIFY2(fit.exitCode == 0, fit.err.c_str());
        QVERIFY2(fit.out.find("h\xEF\xBF\xBDhe") != std::string::npos, fit.out.c_str());  // U+FFFD for the 0xF6
        QVERIFY(nlohmann::json::parse(fit.out).contains("tau"));
    }

    void fitAndCompareRefuseDirectoriesAndDevices()
    {
        // /dev/zero was read without end (2.6 GB after 6 s); a directory read as "empty file".
        const ScratchDirectory dir;
        const auto started = std::chrono::steady_clock::now();
        const Result zero = runGranular("fit /dev/zero --column x");
        QCOMPARE(zero.exitCode, 2);
        QVERIFY2(isOneLineNaming(zero.err, "/dev/zero: not a CSV file (a device or socket)"), zero.err.c_str());
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
        const Result directory = runGranular("fit '" + dir.path.string() + "' --column x");
        QCOMPARE(directory.exitCode, 2);
        QVERIFY2(isOneLineNaming(directory.err, "not a CSV file (a directory)"), directory.err.c_str());
        fs::create_directories(dir.path / "run" / "series.csv");
        const Result series =
            runGranular("compare '" + (dir.path / "run").string() + "' '" + (dir.path / "run").string() + "'");
        QCOMPARE(series.exitCode, 2);
        QVERIFY2(isOneLineNaming(series.err, "series.csv: not a CSV file (a directory)"), series.err.c_str());
        const Result empty = runGranular("compare '' ''");
        QCOMPARE(empty.exitCode, 2);
        QVERIFY2(isOneLineNaming(empty.err, "RUN is empty"), empty.err.c_str());
    }

    void compareRefusesStrokesAndLevelsThatAreNoWholeNumbers()
    {
        // 2.6 was rounded to stroke 3; level 4294967298 wrapped to level 2.
        const ScratchDirectory dir;
        fs::create_directories(dir.path / "a");
        writeText(dir.path / "a" / "series.csv", "t,compression,stroke,top_force\n0,0,1,0\n0.1,0.01,2.6,1\n");
        const Result stroke =
            runGranular("compare '" + (dir.path / "a").string() + "' '" + (dir.path / "a").string() + "'");
        QCOMPARE(stroke.exitCode, 2);
        QVERIFY2(isOneLineNaming(stroke.err, "data row 2: stroke = 2.6; accepted: a whole number from 0 to"),
                 stroke.err.c_str());
        writeText(dir.path / "a" / "series.csv", "t,compression,stroke,top_force\n0,0,1,0\n0.1,0.01,1,1\n");
        writeText(dir.path / "a" / "levels.csv",
                  "t,stroke,level,compression,top_force,volume_fraction,coordination,coordination_above_threshold,"
                  "mean_force\n0.1,1,4294967298,0.01,1,0.6,4,3,0.1\n");
        const Result level =
            runGranular("compare '" + (dir.path / "a").string() + "' '" + (dir.path / "a").string() + "'");
        QCOMPARE(level.exitCode, 2);
        QVERIFY2(isOneLineNaming(level.err, "level = 4294967298; accepted: a whole number from 0 to 2147483647"),
                 level.err.c_str());
    }

    void aSettingGivenTwiceIsRefused()
    {
        // The last --set won without a word, --seed beat --set seed=, and sweep's --key beat a --set of its key.
        const ScratchDirectory dir;
        const std::string out = " --out '" + (dir.path / "o").string() + "'";
        const Result twice = runGranular("run chain1d --set run.time=3 --set seed=5 --set seed=6" + out);
        QCOMPARE(twice.exitCode, 2);
        QVERIFY2(isOneLineNaming(twice.err, "--set: seed is given twice ('seed=5' and 'seed=6')"), twice.err.c_str());
        const Result seed = runGranular("run chain1d --set run.time=3 --seed 3 --set seed=5" + out);
        QCOMPARE(seed.exitCode, 2);
        QVERIFY2(isOneLineNaming(seed.err, "--seed 3 and --set seed=5 both set the seed"), seed.err.c_str());
        const Result sweep = runGranular(
            "sweep chain1d --set run.time=3 --key solver.iterations --values 10 --set solver.iterations=20" + out);
        QCOMPARE(sweep.exitCode, 2);
        QVERIFY2(isOneLineNaming(sweep.err, "--set solver.iterations=20 sets the key that --key sweeps"),
                 sweep.err.c_str());
        QVERIFY(!fs::exists(dir.path / "o"));
    }

    void sweepQuotesTextValuesInItsTable()
    {
        // A swept name with a quote went into sweep.csv as it was, and the table's columns slipped.
        const ScratchDirectory dir;
        const fs::path out = dir.path / "s";
        const Result r = runGranular("sweep chain1d --quiet --set run.time=3 --key name --values 'plain,with\"quote' "
                                     "--out '" +
                                     out.string() + "'");
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        const std::string table = slurp(out / "sweep.csv");
        QVERIFY2(table.find("\nplain,") != std::string::npos, table.c_str());
        QVERIFY2(table.find("\n\"with\"\"quote\",") != std::string::npos, table.c_str());
    }

    void anEnsembleRefusesAScratchFolderItCannotWrite()
    {
        // TMPDIR=/proc: every seed failed, and ensemble.json said "their output in runs/SEED/", which was not there.
        const ScratchDirectory dir;
        const Result r =
            runGranularAfter("export TMPDIR=/proc", "ensemble chain1d --quiet --set run.time=3 --seeds 1..2 "
                                                    "--out '" +
                                                        (dir.path / "e").string() + "'");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(isOneLineNaming(r.err, "TMPDIR: '/proc' is a directory that cannot be written"), r.err.c_str());
        QVERIFY(!fs::exists(dir.path / "e"));
    }

    void crlfSeriesIsReadLikeLf()
    {
        const ScratchDirectory dir;
        std::string lf = "t,x\n";
        for (int i = 0; i <= 400; ++i) {
            const double t = 0.05 * i;
            lf += std::to_string(t) + "," + std::to_string(std::exp(-t / 8.0) * std::sin(1.3 * t)) + "\n";
        }
        std::string crlf;
        for (const char c : lf) {
            crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        }
        writeText(dir.path / "lf.csv", lf);
        writeText(dir.path / "crlf.csv", crlf);
        const Result a = runGranular("fit '" + (dir.path / "lf.csv").string() + "' --column x");
        const Result b = runGranular("fit '" + (dir.path / "crlf.csv").string() + "' --column x");
        QCOMPARE(a.exitCode, 0);
        QVERIFY2(b.exitCode == 0, b.err.c_str());
        QCOMPARE(b.out, a.out);
    }
};

QTEST_APPLESS_MAIN(CliRobustnessTest)
#include "tst_cli_robustness.moc"
