// `granular run` with the soft-particle method as users see it: the time-step advisor's warning on
// stderr (md_impact at the note's dt = 5e-8 s, t_c = 1.65e-7 s), the one-flag CD-MD switch of
// chain1d (Unger & Kertesz 2003, eq. 67-68: the summary's chain oscillation block compares the MD run with the CD
// theory, eq. 58 and 60, within 5 %), and one line naming the key on bad material input.
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

namespace fs = std::filesystem;
using namespace granular::clitest;  // NOLINT(google-build-using-namespace): the CLI test helpers

class CliSoftParticleTest : public QObject {
    Q_OBJECT

private slots:
    void seedTimeStepIsWarnedWithASuggestion();
    void chainSwitchesToMdWithOneFlag();
    void badMaterialIsOneLineNamingTheKey();
    void substepsAreCappedAndSaySo();
    void aGrainFarAboveTheRestIsNamedAsTheCause();
};

/// A packing file with one grain at y = 1e300 m passes the box check (the plate starts above the highest grain), and
/// the run blows up at once: the cause names the fall across the container and that grain's height, not only an
/// impact speed of 4.4e150 m/s with a time step to blame.
void CliSoftParticleTest::aGrainFarAboveTheRestIsNamedAsTheCause()
{
    const ScratchDirectory dir;
    const fs::path packing = dir.path / "far.csv";
    std::ofstream(packing) << "x,y,z,radius\n0.011,0.0105,0.011,0.0104\n0.033,0.0105,0.011,0.0104\n"
                              "0.011,1e300,0.011,0.0104\n";
    const Result r = runGranular("run mcdem_compress --quiet --set particles.file='" + packing.string() +
                                 "' --set box.width=0.066 --set box.depth=0.066 --set run.time=0.01 --out '" +
                                 (dir.path / "run").string() + "'");
    QVERIFY2(r.err.find("blow-up") != std::string::npos, r.err.c_str());
    QVERIFY2(r.err.find("most of it a fall of 1e+300 m across the container (its highest grain at 1e+300 m)") !=
                 std::string::npos,
             r.err.c_str());
}

void CliSoftParticleTest::seedTimeStepIsWarnedWithASuggestion()
{
    const Result r = runGranular("run md_impact --quiet --set run.time=1e-4");
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.find("granular: warning: md: solver.dt = 5e-08 s resolves the contact by only 3.29 steps") == 0,
             r.err.c_str());
    QVERIFY2(r.err.find("t_c = 1.65e-07 s") != std::string::npos, r.err.c_str());
    QVERIFY2(r.err.find("use solver.dt <= 3.21e-09 s") != std::string::npos, r.err.c_str());
    const Result automatic = runGranular("run md_impact --quiet --set run.time=1e-5 --set solver.substeps=0");
    QCOMPARE(automatic.exitCode, 0);
    QVERIFY2(automatic.err.empty(), automatic.err.c_str());
}

// Unger & Kertesz 2003, eq. 67-68: --set solver.method=md alone; omega and tau vs the CD theory (eq. 58, 60).
void CliSoftParticleTest::chainSwitchesToMdWithOneFlag()
{
    const ScratchDirectory dir;
    const Result r = runGranular("run chain1d --quiet --set solver.method=md --out '" + dir.path.string() + "'");
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.empty(), r.err.c_str());
    const auto summary = nlohmann::json::parse(slurp(dir.path / "summary.json"));
    const auto& ratio = summary.at("oscillation").at("fit_over_theory");
    const double omega = ratio.at("omega").get<double>();
    const double tau = ratio.at("tau").get<double>();
    const std::string message = "MD chain / CD theory: omega " + std::to_string(omega) + ", tau " + std::to_string(tau);
    QVERIFY2(std::fabs(omega - 1.0) < 0.05, message.c_str());
    QVERIFY2(std::fabs(tau - 1.0) < 0.05, message.c_str());

    // md with its own stiffness is another chain: its fit, no theory to hold it against.
    const ScratchDirectory own;
    QCOMPARE(runGranular("run chain1d --quiet --set solver.method=md --set material.stiffness=1e3 --out '" +
                         own.path.string() + "'")
                 .exitCode,
             0);
    const auto ownSummary = nlohmann::json::parse(slurp(own.path / "summary.json"));
    const auto& oscillation = ownSummary.at("oscillation");
    QVERIFY(oscillation.contains("fit"));
    QVERIFY(!oscillation.contains("theory") && !oscillation.contains("fit_over_theory"));
    QVERIFY(oscillation.at("theory_not_applicable").get<std::string>().find("CD-equivalent") != std::string::npos);
}

void CliSoftParticleTest::badMaterialIsOneLineNamingTheKey()
{
    const Result negative = runGranular("run md_impact --quiet --set material.restitution=-0.5");
    QCOMPARE(negative.exitCode, 2);
    QVERIFY2(isOneLineNaming(negative.err, "material.restitution"), negative.err.c_str());
    const Result hertz = runGranular("run chain1d --quiet --set solver.method=md --set material.law=hertz");
    QCOMPARE(hertz.exitCode, 2);
    QVERIFY2(isOneLineNaming(hertz.err, "material.restitution"), hertz.err.c_str());
    // Hertz's law is the force between spheres (N); a 2D disk's mass is per unit thickness (kg/m).
    const Result disks = runGranular(
        "run piston2d --quiet --set solver.method=md --set material.law=hertz --set material.restitution=0.5");
    QCOMPARE(disks.exitCode, 2);
    QVERIFY2(isOneLineNaming(disks.err, "material.law"), disks.err.c_str());
    QVERIFY2(disks.err.find("accepted in world.dimension 2: linear") != std::string::npos, disks.err.c_str());
    const Result range = runGranular("run md_impact --quiet --set material.stiffness=-1");
    QCOMPARE(range.exitCode, 2);
    QVERIFY2(isOneLineNaming(range.err, "material.stiffness"), range.err.c_str());
}

// A solver step is what a run can be stopped after: a contact needing 2.4e10 MD steps per solver.dt (automatic) ran
// on without a word and ignored SIGTERM for minutes; 1e9 set substeps took 626 s. Substeps are at most 1e6, set or
// automatic, and the warning says so instead of suggesting the automatic count that is already on.
void CliSoftParticleTest::substepsAreCappedAndSaySo()
{
    const Result automatic = runGranular("run md_impact --quiet --set solver.substeps=0 --set material.stiffness=1e15 "
                                         "--set particles.density=1e-9 --set run.time=5e-8");
    QCOMPARE(automatic.exitCode, 0);
    QVERIFY2(automatic.err.find("(substeps are at most 1000000 per solver.dt)") != std::string::npos,
             automatic.err.c_str());
    QVERIFY2(automatic.err.find("solver.substeps = 0 (automatic)") == std::string::npos, automatic.err.c_str());
    const Result set = runGranular("run md_impact --quiet --set solver.substeps=1000001");
    QCOMPARE(set.exitCode, 2);
    QVERIFY2(set.err.find("solver.substeps") != std::string::npos && set.err.find("[0, 1000000]") != std::string::npos,
             set.err.c_str());
}

QTEST_APPLESS_MAIN(CliSoftParticleTest)
#include "tst_cli_md.moc"
