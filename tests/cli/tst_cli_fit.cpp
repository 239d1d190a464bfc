// `granular fit` as scripts see it: the JSON of x(t) = x0 + A exp(-t/tau) sin(omega t + phase)
// (Unger & Kertesz 2003, eq. 64) fitted to a series CSV, its key order, exit code 2 with one line on bad input, and a
// one-line warning where the fit converged on noise.
#include "CsvSeries.h"

#include "CliProcess.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cmath>
#include <cstdint>
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

// The series: x = the damped oscillation below; y = a straight line; n = uniform noise about 3.
constexpr double kX0 = 0.25;
constexpr double kAmplitude = 0.8;
constexpr double kTau = 12.0;
constexpr double kOmega = 1.3;
constexpr double kPhase = -0.6;

/// t = 0, 0.05, ..., 30 in the CSV format of `granular run` (io/CsvSeries.h).
fs::path writeSeries(const fs::path& directory)
{
    const fs::path file = directory / "series.csv";
    std::ofstream stream(file);
    granular::CsvSeries series(stream, {"x", "y", "n"});
    std::uint64_t state = 7;  // a linear congruential generator: the same noise on every machine
    for (int i = 0; i <= 600; ++i) {
        const double t = 0.05 * i;
        const double x = kX0 + kAmplitude * std::exp(-t / kTau) * std::sin(kOmega * t + kPhase);
        state = 6364136223846793005ULL * state + 1442695040888963407ULL;
        const double noise = static_cast<double>(state >> 11U) * 0x1.0p-53 - 0.5;
        series.row(t, {x, 1.0 + 0.5 * t, 3.0 + noise});
    }
    return file;
}

bool agrees(double value, double expected)
{
    return std::fabs(value - expected) <= 1e-6 * std::fabs(expected);
}

}  // namespace

class CliFitTest : public QObject {
    Q_OBJECT

private slots:
    void fitPrintsParametersInContractOrder();
    void windowSelectsTheSamples();
    void badInputExitsTwoWithOneLine();
    void aByteOrderMarkIsNoPartOfTheHeader();
    void straightLineDoesNotConvergeAndExitsOne();
    void noiseConvergesUnresolvedWithAWarning();
    void valuesCarryTheColumnsUnitFromTheRunsSummary();
};

void CliFitTest::fitPrintsParametersInContractOrder()
{
    const ScratchDirectory dir;
    const fs::path csv = writeSeries(dir.path);
    const Result r = runGranular("fit '" + csv.string() + "' --column x --from 2 --to 25");
    QVERIFY2(r.exitCode == 0, r.err.c_str());
    QVERIFY(r.err.empty());
    const auto json = nlohmann::ordered_json::parse(r.out);
    std::vector<std::string> keys;
    for (const auto& item : json.items()) {
        keys.push_back(item.key());
    }
    const std::vector<std::string> contract{"x0",
                                            "amplitude",
                                            "tau",
                                            "omega",
                                            "phase",
                                            "rmse",
                                            "r2",
                                            "samples",
                                            "from",
                                            "to",
                                            "amplitude_at_from",
                                            "converged",
                                            "x0_error",
                                            "amplitude_at_from_error",
                                            "tau_error",
                                            "omega_error",
                                            "resolved",
                                            "units"};
    QVERIFY2(keys == contract, r.out.c_str());
    QVERIFY(json["resolved"].get<bool>());
    QCOMPARE(json["units"]["omega_error"].get<std::string>(), std::string("rad/s"));
    // Every number's unit: the times' and omega's, and the column's for the values (a CSV without a run's summary.json
    // beside it: described).
    QCOMPARE(json["units"]["tau"].get<std::string>(), std::string("s"));
    QCOMPARE(json["units"]["omega"].get<std::string>(), std::string("rad/s"));
    QCOMPARE(json["units"]["from"].get<std::string>(), std::string("s"));
    QCOMPARE(json["units"]["x0"].get<std::string>(), std::string("the unit of column x"));
    // Every number has one: the counts and ratios "1".
    for (const auto& item : json.items()) {
        QVERIFY2(!item.value().is_number() || json["units"].contains(item.key()), item.key().c_str());
    }
    QCOMPARE(json["units"]["samples"].get<std::string>(), std::string("1"));
    QVERIFY2(agrees(json["x0"].get<double>(), kX0), r.out.c_str());
    QVERIFY2(agrees(json["amplitude"].get<double>(), kAmplitude), r.out.c_str());
    QVERIFY2(agrees(json["tau"].get<double>(), kTau), r.out.c_str());
    QVERIFY2(agrees(json["omega"].get<double>(), kOmega), r.out.c_str());
    QVERIFY2(agrees(json["phase"].get<double>(), kPhase), r.out.c_str());
    QVERIFY(json["rmse"].get<double>() < 1e-9);
    QVERIFY(json["r2"].get<double>() > 1.0 - 1e-12);
    QVERIFY(json["converged"].get<bool>());
}

void CliFitTest::windowSelectsTheSamples()
{
    // Rows t = 2.00, 2.05, ..., 25.00 of the 0.05 grid: 461 samples (bounds included).
    const ScratchDirectory dir;
    const fs::path csv = writeSeries(dir.path);
    const Result r = runGranular("fit '" + csv.string() + "' --column x --from 2 --to 25");
    QCOMPARE(r.exitCode, 0);
    const auto json = nlohmann::json::parse(r.out);
    QCOMPARE(json["samples"].get<int>(), 461);
    QCOMPARE(json["from"].get<double>(), 2.0);
    QCOMPARE(json["to"].get<double>(), 25.0);
    const Result all = runGranular("fit '" + csv.string() + "' --column x");
    QCOMPARE(all.exitCode, 0);
    QCOMPARE(nlohmann::json::parse(all.out)["samples"].get<int>(), 601);
}

void CliFitTest::badInputExitsTwoWithOneLine()
{
    const ScratchDirectory dir;
    const std::string csv = "'" + writeSeries(dir.path).string() + "'";
    // A second column of the same name: the fit took the first without a word.
    const fs::path duplicated = dir.path / "duplicated.csv";
    std::ofstream(duplicated) << "t,x,y,x\n0,1,2,3\n";
    // A byte-order mark and nothing else on the first line: a header of no columns, reported as rows too long.
    const fs::path markOnly = dir.path / "mark-only.csv";
    std::ofstream(markOnly) << "\xEF\xBB\xBF\n0,1\n";
    const struct {
        std::string arguments;
        std::string named;
    } cases[] = {
        {"fit " + csv + " --column z", "no column 'z'; accepted: one of t, x, y"},
        {"fit '" + (dir.path / "missing.csv").string() + "' --column x", "missing.csv: cannot read"},
        {"fit " + csv + " --column x --from 5 --to 5.2", "5 samples of 'x'"},
        {"fit " + csv + " --column x --from 7 --to 3", "--from 7 must be less than --to 3"},
        {"fit " + csv + " --column x --from nan", "--from is nan; accepted: a finite time in s"},
        {"fit " + csv + " --column x --to 1e400", "--to is inf; accepted: a finite time in s"},
        {"fit " + csv + " --column x --from abc", "--from: 'abc' is not a number; accepted: a finite time in s"},
        {"fit " + csv + " --column x --to ''", "--to: '' is not a number; accepted: a finite time in s"},
        {"fit '" + duplicated.string() + "' --column x",
         "column 'x' appears twice in the header; accepted: each column name once"},
        {"fit '" + markOnly.string() + "' --column x", "empty header row; accepted: the column names separated by"},
        {"fit " + csv, "--column"},
    };
    for (const auto& c : cases) {
        const Result r = runGranular(c.arguments);
        QVERIFY2(r.exitCode == 2, c.arguments.c_str());
        QVERIFY2(isOneLineNaming(r.err, c.named), (c.arguments + " -> " + r.err).c_str());
        QVERIFY2(r.out.empty(), c.arguments.c_str());
    }
}

void CliFitTest::aByteOrderMarkIsNoPartOfTheHeader()
{
    // A series saved by a spreadsheet as "CSV UTF-8" starts with a byte-order mark: its time column was not found.
    const ScratchDirectory dir;
    const fs::path plain = writeSeries(dir.path);
    const fs::path marked = dir.path / "marked.csv";
    {
        std::ifstream in(plain);
        std::ofstream out(marked);
        out << "\xEF\xBB\xBF" << in.rdbuf();
    }
    const Result a = runGranular("fit '" + plain.string() + "' --column x");
    const Result b = runGranular("fit '" + marked.string() + "' --column x");
    QVERIFY2(b.exitCode == 0, b.err.c_str());
    QCOMPARE(b.out, a.out);
}

void CliFitTest::straightLineDoesNotConvergeAndExitsOne()
{
    // A line is the limit omega -> 0, A -> infinity of the model, not attained at any finite
    // parameters: Levenberg-Marquardt runs out of evaluations. The best attempt is still printed.
    const ScratchDirectory dir;
    const fs::path csv = writeSeries(dir.path);
    const Result r = runGranular("fit '" + csv.string() + "' --column y");
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(isOneLineNaming(r.err, "'y' did not converge"), r.err.c_str());
    QVERIFY(!nlohmann::json::parse(r.out)["converged"].get<bool>());
}

void CliFitTest::noiseConvergesUnresolvedWithAWarning()
{
    const ScratchDirectory dir;
    const fs::path csv = writeSeries(dir.path);
    const Result r = runGranular("fit '" + csv.string() + "' --column n");
    QVERIFY2(r.exitCode == 0, r.err.c_str());
    QVERIFY2(isOneLineNaming(r.err, "no oscillation resolved in 'n'"), r.err.c_str());
    const auto json = nlohmann::json::parse(r.out);
    QVERIFY(json["converged"].get<bool>());
    QVERIFY(!json["resolved"].get<bool>());
}

void CliFitTest::valuesCarryTheColumnsUnitFromTheRunsSummary()
{
    const ScratchDirectory dir;
    const fs::path csv = writeSeries(dir.path);
    std::ofstream(dir.path / "summary.json") << R"({"units": {"x": "m", "y": ""}})";
    const Result x = runGranular("fit '" + csv.string() + "' --column x");
    QVERIFY2(x.exitCode == 0, x.err.c_str());
    const auto json = nlohmann::json::parse(x.out);
    QCOMPARE(json["units"]["x0"].get<std::string>(), std::string("m"));
    QCOMPARE(json["units"]["amplitude"].get<std::string>(), std::string("m"));
    QCOMPARE(json["units"]["rmse"].get<std::string>(), std::string("m"));
    QCOMPARE(json["units"]["tau"].get<std::string>(), std::string("s"));
}

QTEST_APPLESS_MAIN(CliFitTest)
#include "tst_cli_fit.moc"
