// The `granular` command line as scripts see it: exit codes, one-line messages, output files.
#include "CsvSeries.h"
#include "ScenarioJson.h"

#include "CliProcess.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

class CliTest : public QObject {
    Q_OBJECT

private slots:
    void listPrintsNameDashDescription();
    void showPrintsResolvedScenarioWithOverrides();
    void runWritesSeriesSummaryAndScenario();
    void freeFallSeriesMatchesClosedForm();
    void vtkFramesWrittenWhenAsked();
    void everyFileWritesATimeWithTheSeriesDigits();
    void badInputExitsTwoWithOneLineNamingTheKey();
    void badScenarioFileGivesLineAndColumn();
    void badInputWritesNothing();
    void unwritableOutputExitsTwo();
    void quietRunPrintsNothing();
};

void CliTest::listPrintsNameDashDescription()
{
    const Result r = runGranular("list");
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.find("freefall3d - ") != std::string::npos);
    QVERIFY(r.out.find("freefall2d - ") != std::string::npos);
    QVERIFY(r.err.empty());
}

void CliTest::showPrintsResolvedScenarioWithOverrides()
{
    const Result r = runGranular("show freefall2d --set solver.dt=0.0005 --set solver.iterations=7");
    QCOMPARE(r.exitCode, 0);
    const auto json = nlohmann::json::parse(r.out);
    QCOMPARE(json["solver"]["dt"].get<double>(), 0.0005);
    QCOMPARE(json["solver"]["iterations"].get<int>(), 7);
    QCOMPARE(json["world"]["dimension"].get<int>(), 2);
    QVERIFY(json.contains("seed") && json["run"].contains("time") && json["output"].contains("interval"));
}

void CliTest::runWritesSeriesSummaryAndScenario()
{
    const ScratchDirectory dir;
    const Result r = runGranular("run freefall3d --quiet --out '" + (dir.path / "run").string() +
                                 "' --set run.time=0.01 --set output.interval=0.002 --seed 5");
    QCOMPARE(r.exitCode, 0);
    const auto table = granular::readCsv((dir.path / "run" / "series.csv").string());
    QCOMPARE(table.columns.front(), std::string("t"));
    QCOMPARE(table.rows.size(), std::size_t{6});  // t = 0, 0.002, ..., 0.01
    QCOMPARE(table.rows.back()[0], 0.01);
    const auto summary = nlohmann::json::parse(slurp(dir.path / "run" / "summary.json"));
    QCOMPARE(summary["steps"].get<int>(), 100);
    QCOMPARE(summary["seed"].get<int>(), 5);
    QVERIFY(summary["wall_time_s"].get<double>() >= 0.0);
    QVERIFY(summary.contains("contact_updates_per_s"));
    const auto scenario = granular::loadScenarioFile(dir.path / "run" / "scenario.json");
    QCOMPARE(scenario.real("run.time"), 0.01);
    QCOMPARE(scenario.integer("seed"), std::int64_t{5});
    for (const auto& entry : fs::directory_iterator(dir.path / "run")) {
        QVERIFY2(entry.path().filename().string().rfind(".partial", 0) != 0, "staging folder left behind");
    }
}

void CliTest::freeFallSeriesMatchesClosedForm()
{
    // probe_y(t) = y0 + v0 t - g t^2/2: the ballistic method integrates each step's flight exactly.
    const ScratchDirectory dir;
    const Result r = runGranular("run freefall2d --quiet --out '" + dir.path.string() + "'");
    QCOMPARE(r.exitCode, 0);
    const auto table = granular::readCsv((dir.path / "series.csv").string());
    const auto t = table.column("t");
    const auto y = table.column("probe_y");
    const auto vy = table.column("probe_vy");
    const double g = 9.81;
    const double y0 = table.rows.front()[y];
    const double v0 = table.rows.front()[vy];
    QCOMPARE(v0, 0.2);
    double worst = 0.0;
    for (const auto& row : table.rows) {
        const double time = row[t];
        const double exact = y0 + v0 * time - 0.5 * g * time * time;
        worst = std::max(worst, std::fabs(row[y] - exact));
    }
    QVERIFY2(worst < 1e-12, std::to_string(worst).c_str());
}

void CliTest::vtkFramesWrittenWhenAsked()
{
    const ScratchDirectory dir;
    const Result r = runGranular("run freefall2d --quiet --set output.vtk=true --set run.time=0.003 --out '" +
                                 dir.path.string() + "'");
#ifdef GRANULAR_CLI_WRITES_VTK
    QCOMPARE(r.exitCode, 0);
    QVERIFY(fs::exists(dir.path / "run.pvd"));
    for (const char* part : {"particles", "contacts", "boundaries"}) {
        QVERIFY(fs::exists(dir.path / "frames" / (std::string(part) + "_000000.vtp")));
        QVERIFY(fs::exists(dir.path / "frames" / (std::string(part) + "_000003.vtp")));
    }
    const std::string vtp = slurp(dir.path / "frames" / "particles_000003.vtp");
    QVERIFY(vtp.find("NumberOfPoints=\"300\"") != std::string::npos);
    QVERIFY(vtp.find("Name=\"radius\"") != std::string::npos);
#else
    // A build without VTK refuses the key before the run, naming it.
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(isOneLineNaming(r.err, "output.vtk"), r.err.c_str());
#endif
}

void CliTest::everyFileWritesATimeWithTheSeriesDigits()
{
    // The clock sums dt, so it carries round-off (0.099999999999999992): series.csv wrote twelve digits (0.1), run.pvd,
    // the frames' TimeValue and summary.json the raw sum; 50 of md_impact's 51 frame times matched no row's t.
#ifndef GRANULAR_CLI_WRITES_VTK
    QSKIP("this build's CLI has no VTK: it writes no frames");
#endif
    const ScratchDirectory dir;
    const Result r = runGranular("run md_impact --quiet --set output.vtk=true --set run.time=0.0005 --out '" +
                                 dir.path.string() + "'");
    QVERIFY2(r.exitCode == 0, r.err.c_str());
    std::vector<std::string> rows;
    std::istringstream series(slurp(dir.path / "series.csv"));
    std::string line;
    std::getline(series, line);  // the header
    while (std::getline(series, line)) {
        rows.push_back(line.substr(0, line.find(',')));
    }
    std::vector<std::string> frames;  // the particles' entries of run.pvd
    const std::string pvd = slurp(dir.path / "run.pvd");
    for (std::size_t at = pvd.find("timestep=\""); at != std::string::npos; at = pvd.find("timestep=\"", at + 1)) {
        if (pvd.compare(pvd.find("part=\"", at), 8, "part=\"0\"") == 0) {
            frames.push_back(pvd.substr(at + 10, pvd.find('"', at + 10) - at - 10));
        }
    }
    QCOMPARE(frames.size(), rows.size());
    QVERIFY(rows.size() > 10);
    for (std::size_t k = 0; k < rows.size(); ++k) {
        QVERIFY2(frames[k] == rows[k], ("frame " + frames[k] + ", row " + rows[k]).c_str());
    }
    const auto summary = nlohmann::json::parse(slurp(dir.path / "summary.json"));
    QCOMPARE(summary["simulated_time_s"].get<double>(), std::stod(rows.back()));
    QVERIFY(summary["simulated_time_s"].get<double>() == std::stod(rows.back()));  // exactly (QCOMPARE is fuzzy)
}

void CliTest::badInputExitsTwoWithOneLineNamingTheKey()
{
    const struct {
        const char* arguments;
        const char* named;
    } cases[] = {
        {"run freefall3d --set solver.dt=-1", "solver.dt: -1 is out of range; accepted: a real number in (0, 1000] s"},
        {"run freefall3d --set solver.dtt=1", "unknown key 'solver.dtt'"},
        {"run freefall3d --set particles.count=abc", "particles.count: expected an integer"},
        {"run freefall3d --set particles.count", "--set: 'particles.count' is not of the form KEY=VALUE"},
        {"run freefall3d --set particles.count=100000", "particles.count: 100000 particles do not fit"},
        {"run no_such_scenario", "no_such_scenario"},
        {"run freefall3d --threads 0", "--threads"},
        {"run freefall3d --seed -3", "--seed"},
        {"show freefall3d --set world.dimension=4", "world.dimension: 4 is out of range"},
        // Keys in range whose combination is not (they ran: a pulling piston left the box, a negative wall
        // friction was taken as "same as contact.friction", a run of 0.001 s took a 1 s step).
        {"run piston2d --set piston.load_step=-1e6",
         "piston.load_step: -1e+06 N makes the piston's force -980000 N after the step"},
        {"run piston2d --set contact.wall_friction=-0.5",
         "contact.wall_friction: -0.5 is out of range; accepted: a real number in [0, 100], or -1"},
        {"run chain1d --set run.time=0.001",
         "run.time: 0.001 s is shorter than one step of solver.dt = 1 s; accepted: at least solver.dt"},
        {"frobnicate", "frobnicate"},
        {"", "subcommand"},
    };
    for (const auto& c : cases) {
        const Result r = runGranular(c.arguments);
        QVERIFY2(r.exitCode == 2, c.arguments);
        QVERIFY2(isOneLineNaming(r.err, c.named), (std::string(c.arguments) + " -> " + r.err).c_str());
        QVERIFY2(r.out.empty(), c.arguments);
    }
}

void CliTest::badScenarioFileGivesLineAndColumn()
{
    const ScratchDirectory dir;
    const fs::path file = dir.path / "broken.json";
    std::ofstream(file) << "{\n  \"seed\": 3,\n  \"solver\": { \"dt\": 0.1,, }\n}\n";
    const Result r = runGranular("run '" + file.string() + "'");
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(isOneLineNaming(r.err, "broken.json: malformed JSON: parse error at line 3, column"), r.err.c_str());

    const fs::path wrong = dir.path / "wrong.json";
    std::ofstream(wrong) << R"({"solver": {"iterations": 0}})";
    const Result w = runGranular("run '" + wrong.string() + "'");
    QCOMPARE(w.exitCode, 2);
    QVERIFY2(isOneLineNaming(w.err, "solver.iterations: 0 is out of range; accepted: an integer in [1, 10000000]"),
             w.err.c_str());
}

void CliTest::badInputWritesNothing()
{
    const ScratchDirectory dir;
    const fs::path out = dir.path / "never";
    const Result r = runGranular("run freefall3d --set solver.dt=0 --out '" + out.string() + "'");
    QCOMPARE(r.exitCode, 2);
    QVERIFY(!fs::exists(out));
}

void CliTest::unwritableOutputExitsTwo()
{
    // A file where DIR should be is bad input (--out), refused before the run.
    const ScratchDirectory dir;
    const fs::path blocker = dir.path / "a-file";
    std::ofstream(blocker) << "not a directory";
    const Result r = runGranular("run freefall2d --quiet --out '" + blocker.string() + "'");
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(isOneLineNaming(r.err, "--out: "), r.err.c_str());
    QCOMPARE(slurp(blocker), std::string("not a directory"));
}

void CliTest::quietRunPrintsNothing()
{
    const Result quiet = runGranular("run freefall2d --quiet --set run.time=0.01");
    QCOMPARE(quiet.exitCode, 0);
    QVERIFY(quiet.out.empty() && quiet.err.empty());
    const Result plain = runGranular("run freefall2d --set run.time=0.01");
    QCOMPARE(plain.exitCode, 0);
    QVERIFY2(plain.err.empty(), "progress must not be drawn when stderr is not a terminal");
    QVERIFY(plain.out.find("ran freefall2d: 100 steps") == 0);
}

QTEST_APPLESS_MAIN(CliTest)
#include "tst_cli.moc"
