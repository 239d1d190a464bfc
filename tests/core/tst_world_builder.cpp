// Initial worlds: particle masses and moments of inertia from their closed forms, placement
// inside the box without overlaps, seeds, and parameters that do not fit together.
#include "model/WorldState.h"
#include "scenario/Scenario.h"
#include "scenario/ScenarioError.h"
#include "settings/SettingsBinding.h"
#include "setup/WorldBuilder.h"
#include "sim/Simulation.h"
#include "util/StateArchive.h"

#include <QTest>

#include <cmath>
#include <numbers>
#include <string>

using namespace granular;

namespace {

Scenario box(int dimension)
{
    Scenario s;
    s.set("world.dimension", std::int64_t{dimension});
    s.set("particles.count", std::int64_t{200});
    s.set("particles.radius_min", 0.5e-3);
    s.set("particles.radius_max", 1e-3);
    s.set("particles.jitter", 0.5);
    s.set("particles.density", 2000.0);
    s.set("box.height", 0.07);  // 29 layers of 2.4 mm lattice cells, 8 (x 8) per layer
    return s;
}

/// The world of a scenario, through its typed settings (as Simulation builds it).
World build(const Scenario& s)
{
    return buildWorld(parseSettings(s));
}

}  // namespace

class WorldBuilderTest : public QObject {
    Q_OBJECT

private slots:
    void sphereMassAndInertiaFollowClosedForms();
    void diskMassAndInertiaFollowClosedForms();
    void particlesStartInsideTheBoxWithoutOverlap();
    void wallsMatchTheChosenBox();
    void sameSeedSameWorldOtherSeedOtherWorld();
    void tooManyParticlesIsRejectedWithCapacity();
    void hugeBoxOfTinyGrainsIsFilledWithoutOverflow();
    void inconsistentRadiiAreRejected();
    void probeMustNameAParticle();
    void probeMustNameAParticleOfARestoredState();
    void savedContactsMustBeOfAKindAndInOrder();
    void aMethodStateThatDoesNotFitItsWorldIsRefused();
};

void WorldBuilderTest::sphereMassAndInertiaFollowClosedForms()
{
    const World world = build(box(3));
    const auto& p = world.particles;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double r = p.radius[i];
        const double m = 2000.0 * 4.0 / 3.0 * std::numbers::pi * r * r * r;  // m = rho 4/3 pi r^3
        QCOMPARE(p.mass[i], m);
        QCOMPARE(p.inertia[i], 0.4 * m * r * r);  // I = 2/5 m r^2 (docs/REFERENCES.md)
    }
}

void WorldBuilderTest::diskMassAndInertiaFollowClosedForms()
{
    const World world = build(box(2));
    const auto& p = world.particles;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double r = p.radius[i];
        const double m = 2000.0 * std::numbers::pi * r * r;  // unit thickness
        QCOMPARE(p.mass[i], m);
        QCOMPARE(p.inertia[i], 0.5 * m * r * r);  // I = 1/2 m r^2
        QCOMPARE(p.position[i].z(), 0.0);
    }
}

void WorldBuilderTest::particlesStartInsideTheBoxWithoutOverlap()
{
    for (const int dimension : {2, 3}) {
        const World world = build(box(dimension));
        const auto& p = world.particles;
        QCOMPARE(p.size(), std::size_t{200});
        for (std::size_t i = 0; i < p.size(); ++i) {
            QVERIFY(p.radius[i] >= 0.5e-3 && p.radius[i] <= 1e-3);
            for (const auto& wall : world.walls) {
                QVERIFY(wall.signedDistance(p.position[i]) >= p.radius[i]);
            }
            for (std::size_t j = 0; j < i; ++j) {
                QVERIFY((p.position[i] - p.position[j]).norm() > p.radius[i] + p.radius[j]);
            }
        }
    }
}

void WorldBuilderTest::wallsMatchTheChosenBox()
{
    Scenario s = box(3);
    s.set("box.walls", std::string("closed"));
    QCOMPARE(build(s).walls.size(), std::size_t{6});
    s.set("box.walls", std::string("open"));
    QCOMPARE(build(s).walls.size(), std::size_t{5});
    s.set("world.dimension", std::int64_t{2});
    QCOMPARE(build(s).walls.size(), std::size_t{3});
    s.set("box.walls", std::string("floor"));
    const World floorOnly = build(s);
    QCOMPARE(floorOnly.walls.size(), std::size_t{1});
    QVERIFY(floorOnly.walls[0].normal == Vec3::UnitY());
}

void WorldBuilderTest::sameSeedSameWorldOtherSeedOtherWorld()
{
    Scenario s = box(3);
    const World a = build(s);
    const World b = build(s);
    QVERIFY(a.particles.position == b.particles.position);
    QVERIFY(a.particles.radius == b.particles.radius);
    s.set("seed", std::int64_t{2});
    QVERIFY(build(s).particles.radius != a.particles.radius);
}

void WorldBuilderTest::tooManyParticlesIsRejectedWithCapacity()
{
    Scenario s = box(3);
    s.set("particles.count", std::int64_t{100000});
    try {
        (void)build(s);
        QFAIL("expected a ScenarioError");
    } catch (const ScenarioError& error) {
        const std::string message = error.what();
        QVERIFY2(message.find("particles.count: 100000 particles do not fit") == 0, message.c_str());
        QVERIFY2(message.find("accepted: at most 1856") != std::string::npos, message.c_str());  // 8 x 29 x 8
        // The container's size and the sites' spacing, so that a narrowed box reads as the cause.
        QVERIFY2(message.find(" do not fit in the container of ") != std::string::npos &&
                     message.find(" m apart: 2 radius_max (1 + gap))") != std::string::npos,
                 message.c_str());
    }
}

void WorldBuilderTest::hugeBoxOfTinyGrainsIsFilledWithoutOverflow()
{
    // Issue 18, defect 12: 1e15 lattice sites along an edge were cast to an unsigned (undefined behaviour
    // beyond its range), then the vector of sites could not be made or the builder said "at most 0". The
    // lattice is capped instead and the grains are placed inside the box.
    for (const int dimension : {2, 3}) {
        Scenario s = box(dimension);
        s.set("particles.radius_min", 1e-9);
        s.set("particles.radius_max", 1e-9);
        s.set("box.width", 1e6);
        s.set("box.height", 1e6);
        s.set("box.depth", 1e6);
        const World world = build(s);
        QCOMPARE(world.particles.size(), std::size_t{200});
        for (std::size_t i = 0; i < world.particles.size(); ++i) {
            const Vec3& x = world.particles.position[i];
            QVERIFY(x.allFinite());
            for (const auto& wall : world.walls) {
                QVERIFY(wall.signedDistance(x) >= world.particles.radius[i]);
            }
        }
    }
}

void WorldBuilderTest::inconsistentRadiiAreRejected()
{
    Scenario s = box(2);
    s.set("particles.radius_min", 2e-3);
    try {
        (void)build(s);
        QFAIL("expected a ScenarioError");
    } catch (const ScenarioError& error) {
        QVERIFY2(std::string(error.what()).find("particles.radius_min") == 0, error.what());
    }
}

void WorldBuilderTest::probeMustNameAParticle()
{
    // 200 particles: 0 .. 199 from the first, -1 .. -200 back from the last.
    for (const std::int64_t index : {std::int64_t{200}, std::int64_t{-201}}) {
        Scenario s = box(2);
        s.set("probe.index", index);
        try {
            (void)build(s);
            QFAIL("expected a ScenarioError");
        } catch (const ScenarioError& error) {
            const std::string expected =
                "probe.index: " + std::to_string(index) + " is out of range; accepted: an integer in [-200, 199]";
            QVERIFY2(std::string(error.what()).find(expected) == 0, error.what());
        }
    }
    Scenario last = box(2);
    last.set("probe.index", std::int64_t{-200});
    QCOMPARE(build(last).particles.size(), std::size_t{200});
}

void WorldBuilderTest::probeMustNameAParticleOfARestoredState()
{
    // A saved state of 200 grains with a scenario whose probe.index was edited to 500 (an edit that waits for a reset
    // is saved with the scenario): restored, the probe would read past the grains.
    const World state = build(box(2));
    Scenario edited = box(2);
    edited.set("probe.index", std::int64_t{500});
    try {
        const Simulation restored(edited, state);
        QFAIL("expected a ScenarioError");
    } catch (const ScenarioError& error) {
        QVERIFY2(std::string(error.what())
                         .find("probe.index: 500 is out of range; accepted: an integer in [-200, "
                               "199]") == 0,
                 error.what());
    }
    Scenario last = box(2);
    last.set("probe.index", std::int64_t{199});
    const Simulation restored(last, state);
    QCOMPARE(restored.world().particles.size(), std::size_t{200});
}

void WorldBuilderTest::savedContactsMustBeOfAKindAndInOrder()
{
    // The methods merge contacts by key from step to step: a saved list out of that order, or a contact of no kind,
    // is refused when the state is loaded (before, mcdem stopped mid-run on "not sorted", cd took it silently).
    World world = build(box(2));
    Contact a;
    a.partner = 0;
    a.particle = 1;
    Contact b = a;
    b.particle = 2;
    const auto loads = [&world](const std::vector<Contact>& contacts) {
        World state = world;
        state.contacts = contacts;
        StateWriter out;
        saveWorld(out, state);
        StateReader in(out.bytes());
        try {
            static_cast<void>(loadWorld(in));
        } catch (const StateError& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    QCOMPARE(loads({a, b}), std::string());
    QVERIFY(loads({b, a}).find("order") != std::string::npos);
    QVERIFY(loads({a, a}).find("order") != std::string::npos);
    Contact strange = b;
    strange.kind = static_cast<ContactKind>(9);
    QVERIFY(loads({a, strange}).find("body") != std::string::npos);
}

void WorldBuilderTest::aMethodStateThatDoesNotFitItsWorldIsRefused()
{
    // A checkpoint whose world lost a contact while md's state kept its memory (a damaged file whose checksum was
    // made to match) is refused when restored, naming the counts (before, the next step wrote past md's records).
    Scenario scenario = box(2);
    scenario.setFromText("solver.method", "md");
    Simulation simulation(scenario);
    for (int n = 0; n < 500 && simulation.world().contacts.empty(); ++n) {
        simulation.step();  // until the grains near the floor and each other are candidates
    }
    QVERIFY(!simulation.world().contacts.empty());
    StateWriter whole;
    simulation.saveState(whole);
    StateWriter worldAlone;
    saveWorld(worldAlone, simulation.world());
    const std::string methodState = whole.bytes().substr(worldAlone.bytes().size());
    {
        StateReader in(whole.bytes());
        QVERIFY(Simulation::restore(scenario, in) != nullptr);  // the state as saved fits
    }
    World damaged = simulation.world();
    damaged.contacts.pop_back();
    StateWriter spliced;
    saveWorld(spliced, damaged);
    const std::string bytes = spliced.bytes() + methodState;
    StateReader in(bytes);
    std::string message;
    try {
        static_cast<void>(Simulation::restore(scenario, in));
    } catch (const StateError& error) {
        message = error.what();
    }
    QVERIFY2(message.find("candidate memories") != std::string::npos, message.c_str());
}

QTEST_APPLESS_MAIN(WorldBuilderTest)
#include "tst_world_builder.moc"
