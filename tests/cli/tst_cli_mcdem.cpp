// The multi-contact DEM from the command line: bad input answered with one line and exit code 2, a
// compression run from a packing file writes its levels and contact forces, and `granular compare` computes
// R_top, err_f, bhat and err_Z (Brodu et al. 2015).
#include "CliProcess.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

using namespace granular::clitest;

namespace {

bool oneLine(const std::string& text)
{
    return !text.empty() && text.find('\n') == text.size() - 1;
}

/// 36 hydrogel grains on a 3 x 4 x 3 lattice of 21 mm in a 66 mm box, as a CSV packing.
void writePacking(const fs::path& path)
{
    std::ofstream out(path);
    out << "x,y,z,radius\n";
    for (int layer = 0; layer < 4; ++layer) {
        for (int i = 0; i < 9; ++i) {
            out << 0.011 + 0.022 * (i % 3) << ',' << 0.0105 + 0.0205 * layer << ',' << 0.011 + 0.022 * (i / 3) << ','
                << (i % 2 == 0 ? 0.0104 : 0.0098) << '\n';
        }
    }
}

/// A short protocol on that packing: two strokes of 8 mm, 0.04 s each.
std::string shortCompression(const fs::path& packing, const std::string& gamma, const fs::path& out)
{
    return "run mcdem_compress --quiet --set particles.file='" + packing.string() +
           "' --set box.width=0.066 --set box.depth=0.066 --set compression.top_start=0.0825"
           " --set compression.top_end=0.0745 --set compression.stroke_time=0.04 --set compression.strokes=2"
           " --set compression.settle_time=0.02 --set mcdem.gamma=" +
           gamma + " --out '" + out.string() + "'";
}

/// Edited copies of a compression run: a force that is not a number is refused naming the file and the column,
/// grains without force (every contact force 0) compare, and a reference whose top force is 0 N is refused (they
/// crashed compare, or gave null ratios with exit 0).
void compareRefusesBrokenRuns(const fs::path& run, const fs::path& scratch)
{
    const fs::path broken = scratch / "broken";
    fs::copy(run, broken);
    const auto writeFile = [](const fs::path& path, const std::string& text) { std::ofstream(path) << text; };
    writeFile(broken / "contact_forces.csv", "stroke,level,force\n1,1,nan\n");
    const Result notANumber = runGranular("compare '" + broken.string() + "' '" + run.string() + "'");
    QCOMPARE(notANumber.exitCode, 2);
    QVERIFY2(oneLine(notANumber.err) &&
                 notANumber.err.find("contact_forces.csv, data row 1: force = nan") != std::string::npos,
             notANumber.err.c_str());
    const fs::path unloaded = scratch / "unloaded";
    fs::copy(broken, unloaded);
    writeFile(broken / "contact_forces.csv", "stroke,level,force\n1,1,0\n1,1,0\n");
    writeFile(unloaded / "contact_forces.csv", "stroke,level,force\n1,1,0\n");
    const Result zero = runGranular("compare '" + broken.string() + "' '" + unloaded.string() + "'");
    QVERIFY2(zero.exitCode == 0, zero.err.c_str());
    QCOMPARE(nlohmann::json::parse(zero.out)["bhat"].get<double>(), 0.0);
    // A reference whose contact_forces.csv lost its rows (the header alone): no level has forces in both runs, so bhat
    // and err_Z are null, with a line that says why (they read 0, a perfect match, before 2026-12-02's evening); R_top
    // and err_f still compare.
    writeFile(unloaded / "contact_forces.csv", "stroke,level,force\n");
    const Result lost = runGranular("compare '" + run.string() + "' '" + unloaded.string() + "'");
    QVERIFY2(lost.exitCode == 0, lost.err.c_str());
    const auto compared = nlohmann::json::parse(lost.out);
    QVERIFY2(compared["bhat"].is_null() && compared["err_Z"].is_null(), (lost.out + lost.err).c_str());
    QCOMPARE(compared["levels_compared"].get<int>(), 0);
    QCOMPARE(compared["R_top"].get<double>(), 1.0);
    QVERIFY2(oneLine(lost.err) && lost.err.find("bhat and err_Z are null") != std::string::npos &&
                 lost.err.find("contact_forces.csv") != std::string::npos,
             lost.err.c_str());
    // The reference's series with every top force 0.
    std::ifstream in(run / "series.csv");
    std::string header;
    std::getline(in, header);
    std::size_t column = 0;
    for (std::size_t at = 0; at < header.find("top_force"); ++at) {
        column += header[at] == ',' ? 1 : 0;
    }
    std::string text = header + "\n";
    for (std::string line; std::getline(in, line);) {
        std::size_t start = 0;
        for (std::size_t c = 0; c < column; ++c) {
            start = line.find(',', start) + 1;
        }
        const std::size_t end = line.find(',', start);
        text += line.substr(0, start) + "0" + (end == std::string::npos ? "" : line.substr(end)) + "\n";
    }
    writeFile(unloaded / "series.csv", text);
    const Result unpressed = runGranular("compare '" + run.string() + "' '" + unloaded.string() + "'");
    QCOMPARE(unpressed.exitCode, 2);
    QVERIFY2(oneLine(unpressed.err) && unpressed.err.find("top force") != std::string::npos, unpressed.err.c_str());
}

}  // namespace

class CliMultiContactTest : public QObject {
    Q_OBJECT

private slots:
    void badValuesNameTheKeyAndTheRange()
    {
        const Result gamma = runGranular("run mcdem_compress --set mcdem.gamma=-1");
        QCOMPARE(gamma.exitCode, 2);
        QCOMPARE(gamma.err,
                 std::string("granular: mcdem.gamma: -1 is out of range; accepted: a real number in [0, 100]\n"));
        const Result nu = runGranular("run mcdem_compress --set material.poisson_ratio=0.6");
        QCOMPARE(nu.exitCode, 2);
        QVERIFY2(nu.err.rfind("granular: material.poisson_ratio: 0.6 is out of range; accepted: a real number in [0, "
                              "0.5]",
                              0) == 0,
                 nu.err.c_str());
        const Result law = runGranular("run mcdem_compress --set material.law=linear");
        QCOMPARE(law.exitCode, 2);
        QVERIFY2(law.err.find("material.law: mcdem deforms Hertz grains") != std::string::npos, law.err.c_str());
        const Result rigid = runGranular("run mcdem_compress --set solver.method=cd");
        QCOMPARE(rigid.exitCode, 2);
        QVERIFY2(rigid.err.find("solver.method: a plate driven into a packing needs grains that deform") !=
                     std::string::npos,
                 rigid.err.c_str());
        for (const auto& r : {gamma, nu, law, rigid}) {
            QVERIFY(oneLine(r.err));
        }
    }

    void badPackingFileNamesItsLine()
    {
        const ScratchDirectory scratch;
        const fs::path packing = scratch.path / "bad.csv";
        std::ofstream(packing) << "x,y,z,radius\n0.01,0.01,0.01,0.01\n0.02,0.01,0.01,zero\n";
        const fs::path out = scratch.path / "run";
        const Result r = runGranular("run mcdem_compress --set particles.file='" + packing.string() + "' --out '" +
                                     out.string() + "'");
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, "granular: particles.file: " + packing.string() + ":3: radius 'zero' is not a finite number\n");
        QVERIFY(!fs::exists(out / "series.csv"));
    }

    void compressionRunWritesLevelsAndCompareMeasuresIt()
    {
        const ScratchDirectory scratch;
        const fs::path packing = scratch.path / "packing.csv";
        writePacking(packing);
        const fs::path independent = scratch.path / "independent";
        const fs::path multi = scratch.path / "multi";
        QCOMPARE(runGranular(shortCompression(packing, "0", independent)).exitCode, 0);
        const Result run = runGranular(shortCompression(packing, "1.125", multi));
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        for (const char* file : {"series.csv", "levels.csv", "contact_forces.csv", "summary.json"}) {
            QVERIFY2(fs::exists(multi / file), file);
        }
        const std::string levels = slurp(multi / "levels.csv");
        QVERIFY(levels.rfind("stroke,level,t,compression,top_force,volume_fraction,coordination,"
                             "coordination_above_threshold,mean_force,phi_z_mean_force\n",
                             0) == 0);
        const auto summary = nlohmann::json::parse(slurp(multi / "summary.json"));
        QCOMPARE(summary["compression"]["strokes"].size(), std::size_t{1});
        QVERIFY(summary["compression"]["scaling_loading"]["levels"].get<int>() == 11);

        const Result self = runGranular("compare '" + multi.string() + "' '" + multi.string() + "'");
        QCOMPARE(self.exitCode, 0);
        const auto same = nlohmann::json::parse(self.out);
        QCOMPARE(same["R_top"].get<double>(), 1.0);
        QCOMPARE(same["err_f"]["loading"].get<double>(), 0.0);
        QVERIFY(std::abs(same["bhat"].get<double>()) < 1e-12);  // -log(sum p) of one distribution: round-off
        QCOMPARE(same["err_Z"].get<double>(), 0.0);

        const Result against = runGranular("compare '" + multi.string() + "' '" + independent.string() + "'");
        QCOMPARE(against.exitCode, 0);
        const auto c = nlohmann::json::parse(against.out);
        QCOMPARE(c["loading_stroke"].get<int>(), 1);
        QCOMPARE(c["unloading_stroke"].get<int>(), 2);
        QVERIFY2(c["R_top"].get<double>() > 1.0, against.out.c_str());  // the bulges stiffen the packing
        QVERIFY(c["bhat"].get<double>() > 0.0);

        // Stopped inside the first down-stroke (settling 0.02 s, then half of the 0.04 s stroke): its levels so far,
        // and no stroke in the summary. It used to list the force where the run stopped as the stroke's deepest.
        const fs::path half = scratch.path / "half";
        QCOMPARE(runGranular(shortCompression(packing, "1.125", half) + " --set run.time=0.04").exitCode, 0);
        const auto halfSummary = nlohmann::json::parse(slurp(half / "summary.json"));
        QVERIFY2(halfSummary["compression"]["levels"].size() >= 5, halfSummary.dump().c_str());
        QCOMPARE(halfSummary["compression"]["strokes"].size(), std::size_t{0});
        // No up-stroke level: the unloading line is undetermined, null (it read slope 0, r2 0, which an ensemble
        // averaged as values); the loading line of the levels so far is a number.
        const auto& unloading = halfSummary["compression"]["scaling_unloading"];
        QCOMPARE(unloading["levels"].get<int>(), 0);
        QVERIFY2(unloading["slope"].is_null() && unloading["offset_N"].is_null() && unloading["r2"].is_null(),
                 unloading.dump().c_str());
        QVERIFY(halfSummary["compression"]["scaling_loading"]["slope"].is_number());

        const Result missing = runGranular("compare '" + multi.string() + "' '" + scratch.path.string() + "'");
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(oneLine(missing.err));
        compareRefusesBrokenRuns(multi, scratch.path);
    }

    /// Brodu et al.'s protocol records every level of every stroke, also where a stroke turns between two steps (the
    /// settling time below puts every turn 7.4 us after a step of 20 us) and where the run stops by the program's end
    /// just before it: 11 levels per stroke, and the deepest compression of each down-stroke in the summary. Before,
    /// both turning levels were lost (10 rows per stroke, no strokes in the summary).
    void aStrokeTurningBetweenStepsRecordsItsDeepestLevel()
    {
        const ScratchDirectory scratch;
        const fs::path out = scratch.path / "turns";
        const Result run = runGranular("run mcdem_compress --quiet --set particles.count=20 --set solver.dt=2e-5"
                                       " --set compression.settle_time=0.5000074 --set run.time=1.8 --out '" +
                                       out.string() + "'");
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        std::istringstream levels(slurp(out / "levels.csv"));
        std::string line;
        std::getline(levels, line);  // the header
        std::map<int, int> rowsPerStroke;
        while (std::getline(levels, line)) {
            ++rowsPerStroke[std::stoi(line.substr(0, line.find(',')))];
        }
        QCOMPARE(rowsPerStroke.size(), std::size_t{4});
        for (const auto& [stroke, rows] : rowsPerStroke) {
            QVERIFY2(rows == 11,
                     ("stroke " + std::to_string(stroke) + ": " + std::to_string(rows) + " levels").c_str());
        }
        const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
        QCOMPARE(summary["compression"]["strokes"].size(), std::size_t{2});
    }
};

QTEST_APPLESS_MAIN(CliMultiContactTest)
#include "tst_cli_mcdem.moc"
