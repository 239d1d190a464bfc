// `granular run periodic2d` and `granular sweep` as scripts see them (Shaebani et al. 2009): the series columns and
// summary keys of a constant-pressure run in a periodic cell, the sweep's CSV, and exit code 2 with one
// line and nothing written on a bad value.
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

namespace {

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> result;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        result.push_back(line);
    }
    return result;
}

}  // namespace

class CliPeriodicTest : public QObject {
    Q_OBJECT

private slots:
    void runWritesThePackingSummary();
    void twoDimensionalUnitsAgree();
    void sweepWritesOneRowPerValue();
    void sweepRejectsABadValueAndWritesNothing();
};

void CliPeriodicTest::runWritesThePackingSummary()
{
    const ScratchDirectory dir;
    const Result result = runGranular("run periodic2d --quiet --set run.time=2 --out '" + dir.path.string() + "'");
    QVERIFY2(result.exitCode == 0, result.err.c_str());
    const auto header = lines(slurp(dir.path / "series.csv")).front();
    for (const char* column : {"dilation_rate", "pressure", "cell_length", "volume_fraction", "kinetic_energy",
                               "contacts", "mean_overlap"}) {
        QVERIFY2(("," + header + ",").find(std::string(",") + column + ",") != std::string::npos, column);
    }
    const auto summary = nlohmann::json::parse(slurp(dir.path / "summary.json"));
    for (const char* key :
         {"volume_fraction", "mean_overlap", "stress", "coordination", "relaxed", "steps", "wall_time_s"}) {
        QVERIFY2(summary.contains(key), key);
    }
    QCOMPARE(summary["steps"].get<int>(), 200);
    QVERIFY(!summary["relaxed"].get<bool>());  // 2 s of the compaction: still a gas
    QCOMPARE(summary["stress"].size(), std::size_t{2});
    QCOMPARE(summary["stress"][0].size(), std::size_t{2});
    // The cell has shrunk from the dilute start (0.3) as a cell of grains at rest does (eq. 23-24, P_in ~ 0 while the
    // grains hardly meet): L_n = L_0 prod_{k=1..n} (1 - k P_ext dt^2 / M_lambda), phi = 0.3 (L_0 / L_200)^2 = 0.312307.
    // (It asserted phi > 0.3, which any shrinking passed.)
    double shrink = 1.0;
    for (int k = 1; k <= 200; ++k) {
        shrink *= 1.0 - k * 1e-6;
    }
    const double fraction = summary["volume_fraction"].get<double>();
    QVERIFY2(std::fabs(fraction / (0.3 / (shrink * shrink)) - 1.0) < 1e-4, std::to_string(fraction).c_str());
}

void CliPeriodicTest::sweepWritesOneRowPerValue()
{
    const ScratchDirectory dir;
    const Result result = runGranular("sweep periodic2d --key solver.iterations --values 20,40 --set run.time=1 "
                                      "--quiet --out '" +
                                      dir.path.string() + "'");
    QVERIFY2(result.exitCode == 0, result.err.c_str());
    const auto rows = lines(slurp(dir.path / "sweep.csv"));
    QCOMPARE(rows.size(), std::size_t{3});
    QCOMPARE(rows[0], std::string("value,mean_overlap,volume_fraction,steps,relaxed,failure"));
    QVERIFY2(rows[1].rfind("20,", 0) == 0 && rows[1].find(",100,0,") != std::string::npos, rows[1].c_str());
    QVERIFY2(rows[2].rfind("40,", 0) == 0 && rows[2].find(",100,0,") != std::string::npos, rows[2].c_str());
    const auto timing = lines(slurp(dir.path / "sweep_timing.csv"));
    QCOMPARE(timing.size(), std::size_t{3});
    QCOMPARE(timing[0], std::string("value,cpu_time_s,wall_time_s"));
}

void CliPeriodicTest::sweepRejectsABadValueAndWritesNothing()
{
    const ScratchDirectory scratch;
    const fs::path dir = scratch.path / "sweep";
    const Result bad =
        runGranular("sweep periodic2d --key pressure.inertia --values 100,-1 --out '" + dir.string() + "'");
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(isOneLineNaming(bad.err, "pressure.inertia"), bad.err.c_str());
    QVERIFY(!fs::exists(dir));
    const Result unknown = runGranular("sweep periodic2d --key no.such.key --values 1 --out '" + dir.string() + "'");
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(isOneLineNaming(unknown.err, "no.such.key"), unknown.err.c_str());
    const Result empty = runGranular("sweep periodic2d --key seed --values 1,,2 --out '" + dir.string() + "'");
    QCOMPARE(empty.exitCode, 2);
    QVERIFY2(isOneLineNaming(empty.err, "--values"), empty.err.c_str());
    QVERIFY(!fs::exists(dir));
}

// README "Units": 2D disks have unit thickness, so energies are in J and pressures in Pa, like forces in N and
// masses in kg (before: J/m for energies, N/m for pressures, N for forces, kg for masses).
void CliPeriodicTest::twoDimensionalUnitsAgree()
{
    for (const char* run :
         {"periodic2d --set run.time=0.5", "chain1d --set run.time=2", "piston2d --set run.time=0.01"}) {
        const ScratchDirectory dir;
        const Result r = runGranular("run " + std::string(run) + " --quiet --out '" + dir.path.string() + "'");
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        const auto units = nlohmann::json::parse(slurp(dir.path / "summary.json"))["units"];
        QCOMPARE(units["kinetic_energy"].get<std::string>(), std::string("J"));
        if (units.contains("pressure")) {
            QCOMPARE(units["pressure"].get<std::string>(), std::string("Pa"));
        }
        for (const auto& [name, unit] : units.items()) {
            const auto text = unit.get<std::string>();
            QVERIFY2(text == "m/s" || text.find("/m") == std::string::npos, (std::string(run) + ": " + name).c_str());
        }
    }
}

QTEST_APPLESS_MAIN(CliPeriodicTest)
#include "tst_cli_periodic.moc"
