// `granular ensemble` and `granular sweep` on local threads: the same files, byte for byte, for any number of
// threads; each run's own output equal to that of `granular run --seed`; the statistics checked against the runs'
// own summaries; a run that blows up recorded while the others finish (exit code 1, the seeds named); bad
// --seeds or --jobs refused with one line and nothing written.
#include "CliProcess.h"
#include "EnsembleChecks.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

namespace {

/// Three short constant-pressure compactions (Shaebani et al. 2009's cell, 3 s each).
const std::string kShortEnsemble = "ensemble periodic2d --quiet --seeds 1..3 --set run.time=3";

}  // namespace

class CliEnsembleTest : public QObject {
    Q_OBJECT

private slots:
    void filesAreTheSameForAnyNumberOfThreads();
    void statisticsAreThoseOfTheRuns();
    void aRunThatBlowsUpIsRecordedAndTheOthersFinish();
    void badSeedsAndJobsAreRefusedAndNothingIsWritten();
    void advisoriesAreShownAsByRun();
    void sweepIsTheSameForAnyNumberOfThreads();
    void aSecondEnsembleReplacesTheFirst();
};

void CliEnsembleTest::filesAreTheSameForAnyNumberOfThreads()
{
    const ScratchDirectory dir;
    const Result one = runGranular(kShortEnsemble + " --jobs 1 --out '" + (dir.path / "one").string() + "'");
    QVERIFY2(one.exitCode == 0, one.err.c_str());
    const Result three = runGranular(kShortEnsemble + " --jobs 3 --out '" + (dir.path / "three").string() + "'");
    QVERIFY2(three.exitCode == 0, three.err.c_str());
    QVERIFY(sameBytes(dir.path / "one" / "ensemble.json", dir.path / "three" / "ensemble.json"));
    QVERIFY(sameBytes(dir.path / "one" / "ensemble.csv", dir.path / "three" / "ensemble.csv"));
    // Each run's output is what `granular run --seed S` writes.
    const Result single =
        runGranular("run periodic2d --quiet --seed 2 --set run.time=3 --out '" + (dir.path / "single").string() + "'");
    QVERIFY2(single.exitCode == 0, single.err.c_str());
    for (const char* file : {"series.csv", "scenario.json"}) {
        QVERIFY2(sameBytes(dir.path / "single" / file, dir.path / "three" / "runs" / "2" / file), file);
    }
}

void CliEnsembleTest::statisticsAreThoseOfTheRuns()
{
    const ScratchDirectory dir;
    const Result r = runGranular(kShortEnsemble + " --out '" + dir.path.string() + "'");
    QVERIFY2(r.exitCode == 0, r.err.c_str());
    const auto ensemble = nlohmann::json::parse(slurp(dir.path / "ensemble.json"));
    QCOMPARE(ensemble["runs"].get<int>(), 3);
    QCOMPARE(ensemble["finished"].get<int>(), 3);
    QVERIFY(ensemble["failed"].empty());
    // The volume fraction's mean, sample standard deviation and standard error from the three summaries.
    std::vector<double> phi;
    std::vector<nlohmann::json> stress;
    for (int seed = 1; seed <= 3; ++seed) {
        const auto summary = nlohmann::json::parse(slurp(dir.path / "runs" / std::to_string(seed) / "summary.json"));
        phi.push_back(summary["final"]["volume_fraction"].get<double>());
        stress.push_back(summary["stress"]);
    }
    const double mean = (phi[0] + phi[1] + phi[2]) / 3.0;
    double squares = 0.0;
    for (const double x : phi) {
        squares += (x - mean) * (x - mean);
    }
    const double sd = std::sqrt(squares / 2.0);
    const auto& s = ensemble["statistics"]["final.volume_fraction"];
    QCOMPARE(s["n"].get<int>(), 3);
    QVERIFY(std::abs(s["mean"].get<double>() - mean) <= 1e-15);
    QVERIFY(std::abs(s["standard_deviation"].get<double>() - sd) <= 1e-12 * sd);
    QVERIFY(std::abs(s["standard_error"].get<double>() - sd / std::sqrt(3.0)) <= 1e-12 * sd);
    // The mean's 95 % interval, Student's t_{0.975, 2} = 4.3027 (the standard table).
    const double half = 4.3027 * sd / std::sqrt(3.0);
    QVERIFY(std::abs(s["confidence_95"][0].get<double>() - (mean - half)) <= 1e-12 * half + 1e-15);
    QVERIFY(std::abs(s["confidence_95"][1].get<double>() - (mean + half)) <= 1e-12 * half + 1e-15);
    QCOMPARE(s["min"].get<double>(), std::min({phi[0], phi[1], phi[2]}));
    QCOMPARE(s["max"].get<double>(), std::max({phi[0], phi[1], phi[2]}));
    QCOMPARE(s["unit"].get<std::string>(), std::string("1"));
    // Machine-dependent: left out (the thread pace's counts too).
    for (const char* key : {"wall_time_s", "steps_on_fewer_threads", "steps_on_threads.1"}) {
        QVERIFY2(!ensemble["statistics"].contains(key), key);
    }
    // The mean stress tensor (eq. 20 per run) entry by entry.
    const auto& tensor = ensemble["mean_stress"]["tensor"];
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            const double expected =
                (stress[0][i][j].get<double>() + stress[1][i][j].get<double>() + stress[2][i][j].get<double>()) / 3.0;
            QVERIFY(std::abs(tensor[i][j].get<double>() - expected) <= 1e-14 * (1.0 + std::abs(expected)));
        }
    }
    // The contact normals pooled: the bins' sums over the runs.
    double total = 0.0;
    for (int seed = 1; seed <= 3; ++seed) {
        const auto summary = nlohmann::json::parse(slurp(dir.path / "runs" / std::to_string(seed) / "summary.json"));
        for (const auto& count : summary["packing"]["contact_normals"]["counts"]) {
            total += count.get<double>();
        }
    }
    QCOMPARE(ensemble["pooled"]["packing.contact_normals"]["total"].get<double>(), total);
    QCOMPARE(ensemble["pooled"]["packing.contact_normals"]["runs"].get<int>(), 3);
    // ensemble.csv: a header and one row per seed, in seed order.
    std::istringstream csv(slurp(dir.path / "ensemble.csv"));
    std::vector<std::string> rows;
    for (std::string line; std::getline(csv, line);) {
        rows.push_back(line);
    }
    QCOMPARE(rows.size(), std::size_t{4});
    QVERIFY2(rows[0].rfind("seed,status,message,", 0) == 0, rows[0].c_str());
    QVERIFY2(rows[1].rfind("1,finished,,", 0) == 0, rows[1].c_str());
    QVERIFY2(rows[3].rfind("3,finished,,", 0) == 0, rows[3].c_str());
}

void CliEnsembleTest::aRunThatBlowsUpIsRecordedAndTheOthersFinish()
{
    const ScratchDirectory dir;
    const Result r = runGranular(blowingUpEnsemble("1..4") + " --jobs 2 --out '" + dir.path.string() + "'");
    QCOMPARE(r.exitCode, 1);
    const std::set<std::int64_t> failed = failedSeeds(dir.path);
    QVERIFY2(!failed.empty() && failed.size() < 4, r.err.c_str());  // some blow up, some finish
    QVERIFY2(isOneLineNaming(r.err, "failed runs: seeds "), r.err.c_str());
    const auto ensemble = nlohmann::json::parse(slurp(dir.path / "ensemble.json"));
    QCOMPARE(ensemble["finished"].get<std::size_t>(), 4 - failed.size());
    for (std::int64_t seed = 1; seed <= 4; ++seed) {
        const fs::path run = dir.path / "runs" / std::to_string(seed);
        const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
        const bool blewUp = summary["stopped"].get<std::string>() == "blow-up";
        QCOMPARE(blewUp, failed.count(seed) == 1);
        if (blewUp) {
            QVERIFY2(r.err.find(std::to_string(seed)) != std::string::npos, r.err.c_str());
        }
    }
    for (const auto& failure : ensemble["failed"]) {
        QVERIFY(failure["message"].get<std::string>().rfind("blow-up at step ", 0) == 0);
    }
    // The statistics are over the finished runs only.
    QCOMPARE(ensemble["statistics"]["final.pressure"]["n"].get<std::size_t>(), 4 - failed.size());
}

void CliEnsembleTest::badSeedsAndJobsAreRefusedAndNothingIsWritten()
{
    const ScratchDirectory dir;
    const fs::path out = dir.path / "e";
    for (const char* seeds : {"5..1", "a..b", "1..", "-3..2", "1..200000", "1...4"}) {
        const Result r =
            runGranular("ensemble periodic2d --seeds '" + std::string(seeds) + "' --out '" + out.string() + "'");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(isOneLineNaming(r.err, "--seeds"), r.err.c_str());
        QVERIFY(!fs::exists(out));
    }
    const Result jobs = runGranular("ensemble periodic2d --seeds 1..2 --jobs 0 --out '" + out.string() + "'");
    QCOMPARE(jobs.exitCode, 2);
    QVERIFY2(isOneLineNaming(jobs.err, "--jobs"), jobs.err.c_str());
    const Result key = runGranular("ensemble periodic2d --seeds 1..2 --set solver.dt=-1 --out '" + out.string() + "'");
    QCOMPARE(key.exitCode, 2);
    QVERIFY2(isOneLineNaming(key.err, "solver.dt"), key.err.c_str());
    QVERIFY(!fs::exists(out));
    // A seed of --set was dropped without a word (and kept in ensemble.json's settings): --seeds gives the seeds.
    const Result seed = runGranular("ensemble chain1d --seeds 1..2 --set seed=5 --out '" + out.string() + "'");
    QCOMPARE(seed.exitCode, 2);
    QVERIFY2(isOneLineNaming(seed.err, "--set seed=5: an ensemble runs one seed after another; accepted: the seeds "
                                       "as --seeds A..B (e.g. --seeds 5..5"),
             seed.err.c_str());
    QVERIFY(!fs::exists(out));
    // A TMPDIR that is missing (each seed is run there first) threw out of every seed's job: exit 1, nothing kept.
    const Result scratch =
        runGranularAfter("export TMPDIR='" + (dir.path / "missing").string() + "'",
                         "ensemble chain1d --seeds 1..2 --set run.time=1 --out '" + out.string() + "'");
    QCOMPARE(scratch.exitCode, 2);
    QVERIFY2(isOneLineNaming(scratch.err, "TMPDIR"), scratch.err.c_str());
    QVERIFY(!fs::exists(out));
}

void CliEnsembleTest::advisoriesAreShownAsByRun()
{
    // The warnings of granular run (here: a dt that does not resolve the contact) were dropped by ensemble and sweep.
    const ScratchDirectory dir;
    const std::string slow = " --quiet --set solver.dt=5e-7 --set run.time=0.0002 --out '";
    const Result ensemble = runGranular("ensemble md_impact --seeds 1..2" + slow + (dir.path / "e").string() + "'");
    QCOMPARE(ensemble.exitCode, 0);
    QVERIFY2(isOneLineNaming(ensemble.err, "resolves the contact by only 0.329 steps"), ensemble.err.c_str());
    const Result sweep =
        runGranular("sweep md_impact --key material.restitution --values 0.5" + slow + (dir.path / "s").string() + "'");
    QCOMPARE(sweep.exitCode, 0);
    QVERIFY2(isOneLineNaming(sweep.err, "material.restitution = 0.5: md: solver.dt = 5e-07 s"), sweep.err.c_str());
}

void CliEnsembleTest::sweepIsTheSameForAnyNumberOfThreads()
{
    const ScratchDirectory dir;
    const std::string sweep = "sweep periodic2d --quiet --key pressure.inertia --values 50,100,200 --set run.time=3";
    const Result one = runGranular(sweep + " --jobs 1 --out '" + (dir.path / "one").string() + "'");
    QVERIFY2(one.exitCode == 0, one.err.c_str());
    const Result two = runGranular(sweep + " --jobs 2 --out '" + (dir.path / "two").string() + "'");
    QVERIFY2(two.exitCode == 0, two.err.c_str());
    QVERIFY(sameBytes(dir.path / "one" / "sweep.csv", dir.path / "two" / "sweep.csv"));
    QVERIFY(fs::exists(dir.path / "two" / "sweep_timing.csv"));
}

// Running again into the same DIR replaces the earlier ensemble or sweep (it was refused as "holds other files").
void CliEnsembleTest::aSecondEnsembleReplacesTheFirst()
{
    const ScratchDirectory dir;
    const std::string out = " --out '" + (dir.path / "e").string() + "'";
    QCOMPARE(runGranular("ensemble periodic2d --quiet --seeds 1..2 --set run.time=1" + out).exitCode, 0);
    const Result again = runGranular("ensemble periodic2d --quiet --seeds 3..3 --set run.time=1" + out);
    QVERIFY2(again.exitCode == 0, again.err.c_str());
    QVERIFY(!fs::exists(dir.path / "e" / "runs" / "1"));
    QVERIFY(fs::exists(dir.path / "e" / "runs" / "3" / "series.csv"));
    const std::string sweep = "sweep periodic2d --quiet --key solver.iterations --values 10 --set run.time=1 --out '" +
                              (dir.path / "s").string() + "'";
    QCOMPARE(runGranular(sweep).exitCode, 0);
    const Result sweepAgain = runGranular(sweep);
    QVERIFY2(sweepAgain.exitCode == 0, sweepAgain.err.c_str());
}

QTEST_APPLESS_MAIN(CliEnsembleTest)
#include "tst_cli_ensemble.moc"
