// BlowUpGuard (checks after every step that the world is still physical): a sound world passes; each broken grain
// (non-finite, a step longer than the container, beyond a wall, beyond the piston, outside the drum) stops the run
// with one line that names the first broken grain in index order, the quantity and a likely cause, at any thread
// count; free flight may leave the box; an overlap beyond the smallest radius stops it too.
#include "model/World.h"
#include "settings/Settings.h"
#include "sim/BlowUpGuard.h"
#include "util/Parallel.h"

#include <QTest>

#include <cstdio>
#include <limits>
#include <string>

using namespace granular;

namespace {

constexpr double kRadius = 0.01;  // m
constexpr int kGrains = 6000;     // enough for the scan to be shared out on several threads
static_assert(kGrains >= kSmallestParallelLoop, "the scan must be shared out for the thread counts to matter");

/// A unit box (m) with six walls and kGrains grains of radius kRadius at rest well inside it, on a lattice.
World soundWorld()
{
    World world;
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), Vec3::Ones());
    const char* names[] = {"left", "right", "floor", "top", "back", "front"};
    for (int axis = 0; axis < 3; ++axis) {
        PlaneWall low{names[2 * axis], Vec3::Zero(), Vec3::Unit(axis)};
        PlaneWall high{names[2 * axis + 1], Vec3::Ones(), -Vec3::Unit(axis)};
        world.walls.push_back(low);
        world.walls.push_back(high);
    }
    for (int i = 0; i < kGrains; ++i) {
        const Vec3 x(0.1 + 0.04 * (i % 20), 0.1 + 0.04 * ((i / 20) % 20), 0.1 + 0.04 * (i / 400));
        world.particles.add(x, kRadius, 2500.0, 3);
    }
    return world;
}

Settings contactDynamics()
{
    Settings settings;
    settings.solver.method = Method::ContactDynamics;
    settings.solver.dt = 1e-3;
    return settings;
}

/// The guard's message for the world, or "" if it passes.
std::string verdict(const World& world, const Settings& settings, const StepDiagnostics& step = {})
{
    try {
        BlowUpGuard::check(world, step, settings, {});
    } catch (const BlowUp& blowUp) {
        return blowUp.what();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

/// Restores the solver threads when a slot ends.
class ThreadCount {
public:
    ThreadCount() : saved_(solverThreadSetting()) {}
    ~ThreadCount() { setSolverThreads(saved_); }
    ThreadCount(const ThreadCount&) = delete;
    ThreadCount& operator=(const ThreadCount&) = delete;
    ThreadCount(ThreadCount&&) = delete;
    ThreadCount& operator=(ThreadCount&&) = delete;

private:
    int saved_;
};

}  // namespace

class TestBlowUpGuard : public QObject {
    Q_OBJECT

private slots:
    void aSoundWorldPasses() { QCOMPARE(verdict(soundWorld(), contactDynamics()), std::string()); }

    void theFirstGrainBeyondAWallIsNamedAtAnyThreadCount()
    {
        const ThreadCount restore;
        World world = soundWorld();
        world.particles.position[5000].x() = 1.25;  // 0.25 m beyond the right wall
        world.particles.position[4321].y() = -0.5;  // 0.5 m beyond the floor: the first in index order
        for (const int threads : {1, 2, 3}) {
            setSolverThreads(threads);
            const std::string message = verdict(world, contactDynamics());
            std::printf("%d threads: %s\n", threads, message.c_str());
            QVERIFY2(contains(message, "grain 4321 is 0.5 m beyond the floor wall, outside its container"),
                     message.c_str());
            QVERIFY2(message.rfind("blow-up at step 0 (t = 0 s): ", 0) == 0, message.c_str());
        }
    }

    void aGrainWithinItsRadiusOfTheWallPasses()
    {
        World world = soundWorld();
        world.particles.position[7].z() = -0.9 * kRadius;  // its centre beyond the back wall by less than its radius
        QCOMPARE(verdict(world, contactDynamics()), std::string());
    }

    void aNonFiniteVelocityNamesItsGrainAndTheRange()
    {
        World world = soundWorld();
        world.particles.angularVelocity[123].y() = std::numeric_limits<double>::quiet_NaN();
        const std::string message = verdict(world, contactDynamics());
        QVERIFY2(contains(message, "grain 123 has a non-finite position or velocity"), message.c_str());
        QVERIFY2(contains(message, "likely cause: a value beyond a double's range"), message.c_str());
    }

    void aStepLongerThanTheContainerIsTooFast()
    {
        World world = soundWorld();
        // 2000 m/s x 1 ms = 2 m per step, more than the box's diagonal of sqrt(3) m.
        world.particles.velocity[42] = Vec3(2000.0, 0.0, 0.0);
        const std::string message = verdict(world, contactDynamics());
        QVERIFY2(contains(message, "grain 42 moves 2 m per step at 2e+03 m/s, more than the container's 1.73 m"),
                 message.c_str());
        world.particles.velocity[42] = Vec3(1500.0, 0.0, 0.0);  // 1.5 m per step: within the diagonal
        QCOMPARE(verdict(world, contactDynamics()), std::string());
    }

    void aGrainBeyondThePistonIsNamed()
    {
        World world = soundWorld();
        world.piston = Piston{};
        world.piston->plane = PlaneWall{"piston", Vec3(0.5, 0.9, 0.5), -Vec3::UnitY()};
        QVERIFY2(verdict(world, contactDynamics()).empty(), "every grain is below the piston");
        world.particles.position[3000].y() = 0.9 + 0.9 * kRadius;  // beyond the plane by less than its radius
        QCOMPARE(verdict(world, contactDynamics()), std::string());
        world.particles.position[3000].y() = 0.95;
        const std::string message = verdict(world, contactDynamics());
        QVERIFY2(contains(message, "grain 3000 is 0.05 m beyond the piston, outside its container"), message.c_str());
    }

    void aGrainWithSeveralFaultsIsReportedByTheFirstCheckItFails()
    {
        World world = soundWorld();
        world.piston = Piston{};
        world.piston->plane = PlaneWall{"piston", Vec3(0.5, 0.9, 0.5), -Vec3::UnitY()};
        // Beyond the piston and beyond the right wall: the walls are looked at first.
        world.particles.position[900] = Vec3(1.5, 0.95, 0.5);
        QVERIFY(contains(verdict(world, contactDynamics()), "grain 900 is 0.5 m beyond the right wall"));
        // Also too fast: that comes before the walls.
        world.particles.velocity[900] = Vec3(0.0, 0.0, 5000.0);
        QVERIFY(contains(verdict(world, contactDynamics()), "grain 900 moves 5 m per step"));
        // A grain of infinite mass (fixed) may move that fast.
        world.particles.mass[900] = std::numeric_limits<double>::infinity();
        QVERIFY(contains(verdict(world, contactDynamics()), "grain 900 is 0.5 m beyond the right wall"));
        // Also not finite: that comes first of all.
        world.particles.velocity[900].x() = std::numeric_limits<double>::infinity();
        QVERIFY(contains(verdict(world, contactDynamics()), "grain 900 has a non-finite position or velocity"));
    }

    void aGrainOutsideTheDrumIsNamedWithItsDistanceFromTheAxis()
    {
        World world = soundWorld();
        world.walls.clear();
        world.drum = Drum{};
        world.drum->centre = Vec3(0.5, 0.5, 0.0);
        world.drum->axis = Vec3::UnitZ();
        world.drum->radius = 0.5;
        // The lattice's corners are sqrt(0.4^2 + 0.36^2) = 0.54 m from the axis: move every grain onto the axis.
        for (Vec3& x : world.particles.position) {
            x.x() = 0.5;
            x.y() = 0.5;
        }
        QCOMPARE(verdict(world, contactDynamics()), std::string());
        world.particles.position[77] = Vec3(0.5 + 0.3, 0.5 + 0.4, 7.0);  // 0.5 m from the axis, at any height
        QCOMPARE(verdict(world, contactDynamics()), std::string());      // within its radius of the surface
        world.particles.position[77] = Vec3(0.5 + 0.6, 0.5 + 0.8, 7.0);  // 1 m from the axis
        const std::string message = verdict(world, contactDynamics());
        QVERIFY2(contains(message, "grain 77 is outside the drum, 1 m from its axis"), message.c_str());
    }

    void freeFlightMayLeaveTheBox()
    {
        World world = soundWorld();
        world.particles.position[10] = Vec3(5.0, -3.0, 2.0);
        world.particles.velocity[10] = Vec3(1e6, 0.0, 0.0);
        Settings settings = contactDynamics();
        settings.solver.method = Method::Ballistic;
        QCOMPARE(verdict(world, settings), std::string());
        world.particles.position[10].x() = std::numeric_limits<double>::infinity();
        QVERIFY(contains(verdict(world, settings), "grain 10 has a non-finite position or velocity"));
    }

    void anOverlapBeyondTheSmallestRadiusStopsTheRun()
    {
        World world = soundWorld();
        world.particles.radius[2] = 0.5 * kRadius;
        StepDiagnostics step;
        step.maxOverlap = 0.4 * kRadius;
        QCOMPARE(verdict(world, contactDynamics(), step), std::string());
        step.maxOverlap = 0.6 * kRadius;
        const std::string message = verdict(world, contactDynamics(), step);
        QVERIFY2(contains(message, "an overlap of 0.006 m exceeds the smallest grain radius, 0.005 m"),
                 message.c_str());
    }

    void aDrivenGrainsOverlapIsBlamedOnTheDrive()
    {
        // md_press's pair: the upper grain driven at 1 mm/s into a fixed grain of radius 0.5 mm passes that radius
        // 0.5 s after first touch, whatever the time step (the scenario's run ends at 0.1 s).
        Settings settings;
        settings.setup = Setup::Pair;
        settings.solver.method = Method::SoftParticle;
        settings.solver.dt = 1e-5;
        settings.pair.driven = true;
        settings.particles.radiusMax = 5e-4;
        settings.particles.velocity = Vec3(0.0, -1e-3, 0.0);
        World world;
        world.particles.add(Vec3::Zero(), 5e-4, 2500.0, 3);
        world.particles.add(Vec3(0.0, 4.9e-4, 0.0), 5e-4, 2500.0, 3);
        StepDiagnostics step;
        step.maxOverlap = 5.1e-4;
        std::string message = verdict(world, settings, step);
        QVERIFY2(contains(message, "an overlap of 0.00051 m exceeds the smallest grain radius, 0.0005 m; likely "
                                   "cause: pair.driven = true: the upper grain keeps its velocity whatever the contact "
                                   "pushes, so the overlap "
                                   "grows at its 0.001 m/s towards the fixed grain"),
                 message.c_str());
        QVERIFY2(contains(message, "passes the grain radius, 0.0005 m, 0.5 s after the grains touch"), message.c_str());
        // Driven away from the fixed grain, the drive cannot deepen the overlap: the step is named.
        settings.particles.velocity = Vec3(0.0, 1e-3, 0.0);
        message = verdict(world, settings, step);
        QVERIFY2(!contains(message, "pair.driven") && contains(message, "likely cause: solver.dt = 1e-05 s"),
                 message.c_str());
        // A free upper grain (not driven) overlapping as deeply points at the step, as before.
        settings.particles.velocity = Vec3(0.0, -1e-3, 0.0);
        settings.pair.driven = false;
        message = verdict(world, settings, step);
        QVERIFY2(contains(message, "likely cause: solver.dt = 1e-05 s with solver.substeps = 0 is too long"),
                 message.c_str());
    }

    void theLikelyCauseNamesTheForceThatDrivesTheSetup()
    {
        // Contact dynamics blames the force its setup applies, with its key: the chain's disks pushed at the wall by
        // chain.force (not piston.force, which a chain has none of), the piston's push, the periodic cell's P_ext,
        // else the grains' weight. The chain's wall, named "wall", reads "the wall", not "the wall wall".
        World chain;
        chain.bounds = Eigen::AlignedBox3d(Vec3::Zero(), Vec3(2.0, 1.0, 1.0));
        chain.walls.push_back({"wall", Vec3::Zero(), Vec3::UnitX()});
        chain.particles.add(Vec3(0.5, 0.5, 0.5), kRadius, 2500.0, 2);
        chain.particles.add(Vec3(-0.25, 0.5, 0.5), kRadius, 2500.0, 2);
        Settings settings = contactDynamics();
        settings.setup = Setup::Chain;
        settings.chain.force = 7.0;
        settings.chain.mass = 0.5;
        const std::string chainMessage = verdict(chain, settings);
        QVERIFY2(contains(chainMessage, "grain 1 is 0.25 m beyond the wall, outside its container"),
                 chainMessage.c_str());
        QVERIFY2(contains(chainMessage, "chain.force = 7 N on disks of chain.mass = 0.5 kg"), chainMessage.c_str());
        QVERIFY(!contains(chainMessage, "piston.force"));

        World box = soundWorld();
        box.particles.position[3].y() = -0.5;
        settings.setup = Setup::Piston;
        settings.piston.force = 12.0;
        QVERIFY(contains(verdict(box, settings), "(here piston.force = 12 N)"));
        settings.setup = Setup::Cloud;
        QVERIFY(contains(verdict(box, settings), "(here the grains' weight, gravity = 9.81 m/s^2)"));
    }
};

QTEST_APPLESS_MAIN(TestBlowUpGuard)
#include "tst_blow_up_guard.moc"
