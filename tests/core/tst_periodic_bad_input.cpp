// Bad input to the constant-pressure method (Shaebani et al. 2009) gives one clear ScenarioError naming the key and
// the accepted range: M_lambda <= 0 (eq. 19 needs a positive inertia), P_ext <= 0 (the cell would never
// compact), grains that do not fit the initial cell without overlaps, too few grains for minimum-image
// contacts (eq. 21), the method or setup without the other, and the strip sweep (cd only).
#include "PeriodicRuns.h"
#include "scenario/ScenarioError.h"

#include <QTest>

#include <functional>
#include <string>

using namespace granular;

namespace {

/// The message of the ScenarioError thrown by `action`, or "" when none is thrown.
std::string errorOf(const std::function<void()>& action)
{
    try {
        action();
    } catch (const ScenarioError& error) {
        return error.what();
    }
    return "";
}

bool mentions(const std::string& message, const std::string& word)
{
    return message.find(word) != std::string::npos;
}

std::string buildWith(const std::string& key, const std::string& value)
{
    return errorOf([&] {
        Scenario scenario = periodic_test::referenceSystem(1);
        scenario.setFromText(key, value);
        const Simulation simulation(scenario);
    });
}

}  // namespace

class PeriodicBadInputTest : public QObject {
    Q_OBJECT

private slots:
    void nonPositiveInertiaIsRejected();
    void nonPositivePressureIsRejected();
    void grainsThatDoNotFitAreRejected();
    void tooFewGrainsAreRejected();
    void tooDiluteAStartIsRejected();
    void methodAndSetupGoTogether();
    void freeCellShapeNeedsContactDynamics();
    void stripSweepIsRefusedInThePeriodicCell();
    void unknownCellShapeIsRejected();
    void referenceSystemBuilds();
};

// A start so dilute that its cell's contact grid would need more than 1000 cells per grain (1e-6: 1.4 GB for 100
// disks; 1e-300 overflowed the grid's count) is refused, naming the key and the lowest fraction accepted.
void PeriodicBadInputTest::tooDiluteAStartIsRejected()
{
    for (const char* value : {"1e-6", "1e-12", "1e-300"}) {
        const std::string message = buildWith("cell.initial_fraction", value);
        QVERIFY2(mentions(message, "cell.initial_fraction") && mentions(message, "accepted: at least"),
                 (std::string(value) + ": " + message).c_str());
    }
    QCOMPARE(buildWith("cell.initial_fraction", "0.01"), std::string());
}

void PeriodicBadInputTest::nonPositiveInertiaIsRejected()
{
    for (const char* value : {"0", "-100"}) {
        const std::string message = buildWith("pressure.inertia", value);
        QVERIFY2(mentions(message, "pressure.inertia") && mentions(message, "accepted"),
                 ("M_lambda = " + std::string(value) + ": '" + message + "'").c_str());
    }
}

void PeriodicBadInputTest::nonPositivePressureIsRejected()
{
    for (const char* value : {"0", "-1"}) {
        const std::string message = buildWith("pressure.external", value);
        QVERIFY2(mentions(message, "pressure.external") && mentions(message, "accepted"),
                 ("P_ext = " + std::string(value) + ": '" + message + "'").c_str());
    }
}

void PeriodicBadInputTest::grainsThatDoNotFitAreRejected()
{
    // Above the random-sequential-addition limit (~0.55 for disks) the dilute start cannot be made.
    const std::string dense = buildWith("cell.initial_fraction", "0.8");
    QVERIFY2(mentions(dense, "cell.initial_fraction") && mentions(dense, "accepted"), dense.c_str());
    // A radius range upside down.
    const std::string radii = buildWith("particles.radius_min", "1.5");
    QVERIFY2(mentions(radii, "particles.radius_min") && mentions(radii, "accepted"), radii.c_str());
}

void PeriodicBadInputTest::tooFewGrainsAreRejected()
{
    const std::string message = buildWith("particles.count", "4");
    QVERIFY2(mentions(message, "particles.count") && mentions(message, "accepted"), message.c_str());
}

void PeriodicBadInputTest::methodAndSetupGoTogether()
{
    const std::string plainCd = buildWith("solver.method", "cd");
    QVERIFY2(mentions(plainCd, "solver.method") && mentions(plainCd, "cd_pressure"), plainCd.c_str());
    const std::string cloud = errorOf([] {
        Scenario scenario = periodic_test::referenceSystem(1);
        scenario.setFromText("setup", "cloud");  // grains small enough for the cloud's default box
        scenario.setFromText("particles.count", "8");
        scenario.setFromText("particles.radius_min", "0.001");
        scenario.setFromText("particles.radius_max", "0.001");
        const Simulation simulation(scenario);
    });
    QVERIFY2(mentions(cloud, "solver.method") && mentions(cloud, "periodic"), cloud.c_str());
}

void PeriodicBadInputTest::freeCellShapeNeedsContactDynamics()
{
    const std::string message = errorOf([] {
        Scenario scenario = periodic_test::referenceSystem(1);
        scenario.setFromText("solver.method", "md");
        scenario.setFromText("pressure.cell_shape", "free");
        const Simulation simulation(scenario);
    });
    QVERIFY2(mentions(message, "pressure.cell_shape") && mentions(message, "accepted") && mentions(message, "fixed"),
             message.c_str());
}

// The strip sweep needs contacts that share nothing beyond their grains; every contact of the periodic cell moves its
// dilation rate (eq. 27-28), so cd_pressure refuses it, naming the sweeps it takes.
void PeriodicBadInputTest::stripSweepIsRefusedInThePeriodicCell()
{
    const std::string message = buildWith("solver.sweep", "strips");
    QVERIFY2(mentions(message, "solver.sweep") && mentions(message, "accepted") && mentions(message, "coloured"),
             message.c_str());
    QVERIFY2(buildWith("solver.sweep", "coloured").empty(), "the coloured sweep is taken");
}

void PeriodicBadInputTest::unknownCellShapeIsRejected()
{
    const std::string message = buildWith("pressure.cell_shape", "triclinic");
    QVERIFY2(mentions(message, "pressure.cell_shape") && mentions(message, "free"), message.c_str());
}

void PeriodicBadInputTest::referenceSystemBuilds()
{
    const std::string message = errorOf([] { const Simulation simulation(periodic_test::referenceSystem(1)); });
    QVERIFY2(message.empty(), message.c_str());
}

QTEST_APPLESS_MAIN(PeriodicBadInputTest)
#include "tst_periodic_bad_input.moc"
