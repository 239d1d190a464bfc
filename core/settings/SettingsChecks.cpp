#include "settings/SettingsChecks.h"

#include "scenario/ScenarioError.h"
#include "scenario/Value.h"
#include "settings/Settings.h"

#include <string>

namespace granular {

namespace {

/// The setups whose grains have radii drawn from [radius_min, radius_max].
bool drawsRadii(Setup setup)
{
    return setup == Setup::Cloud || setup == Setup::Piston || setup == Setup::Drum || setup == Setup::Periodic ||
           setup == Setup::Compression;
}

bool isSoft(Method method)
{
    return method == Method::SoftParticle || method == Method::MultiContact;
}

void checkRadii(const Settings& s)
{
    const double rMin = s.particles.radiusMin;
    const double rMax = s.particles.radiusMax;
    if (drawsRadii(s.setup) && s.particles.file.empty() && rMin > rMax) {
        throw ScenarioError("particles.radius_min: " + formatValue(rMin) +
                            " m exceeds particles.radius_max = " + formatValue(rMax) + " m; accepted: <= radius_max");
    }
}

void checkPeriodic(const Settings& s)
{
    const Method method = s.solver.method;
    if (method != Method::ConstantPressure && method != Method::SoftParticle) {
        throw ScenarioError("solver.method: setup periodic needs a method that holds the pressure; accepted: "
                            "cd_pressure, md");
    }
    if (method == Method::SoftParticle && s.pressure.shape == CellShape::Free) {
        throw ScenarioError("pressure.cell_shape: free is implemented for solver.method = cd_pressure; accepted with "
                            "md: fixed");
    }
    // Well below the jamming limit of random sequential addition (0.547 for disks, 0.38 for spheres).
    const double loosest = s.dimension == 2 ? 0.5 : 0.3;
    if (s.initialFraction > loosest) {
        throw ScenarioError("cell.initial_fraction: " + formatValue(s.initialFraction) +
                            " is too dense for a random start without overlaps; accepted: a real number in (0, " +
                            formatValue(loosest) + "] in " + std::to_string(s.dimension) + "D");
    }
}

void checkPair(const Settings& s)
{
    const double r = s.particles.radiusMax;
    if (s.pair.height < 2.0 * r * (1.0 - 1e-12)) {
        throw ScenarioError("pair.height: " + formatValue(s.pair.height) +
                            " m makes the grains overlap; accepted: >= " + formatValue(2.0 * r) +
                            " m (2 particles.radius_max)");
    }
}

void checkCompression(const Settings& s)
{
    if (!isSoft(s.solver.method)) {
        throw ScenarioError("solver.method: a plate driven into a packing needs grains that deform; accepted with "
                            "setup compression: md, mcdem");
    }
    if (s.dimension != 3) {
        throw ScenarioError("world.dimension: setup compression is a box of spheres; accepted: 3");
    }
    const auto& c = s.compression;
    if (c.topEnd >= c.topStart) {
        throw ScenarioError("compression.top_end: " + formatValue(c.topEnd) +
                            " m is not below compression.top_start = " + formatValue(c.topStart) +
                            " m; accepted: < top_start");
    }
}

void checkParticleFile(const Settings& s)
{
    if (s.setup != Setup::Cloud && s.setup != Setup::Piston && s.setup != Setup::Compression) {
        throw ScenarioError("particles.file: setup " + std::string(choiceName(s.setup)) +
                            " builds its own grains; accepted with setup cloud, piston or compression");
    }
}

void checkMultiContact(const Settings& s)
{
    if (s.material.law != NormalLaw::Hertz) {
        throw ScenarioError(
            "material.law: mcdem deforms Hertz grains (E, nu); accepted with solver.method mcdem: hertz");
    }
    if (s.dimension != 3) {
        throw ScenarioError("world.dimension: mcdem's deformation is the elastic half-space of a sphere; accepted: 3");
    }
}

void checkSoftMaterial(const Settings& s)
{
    const double e = s.material.restitution;
    if (e < 0.0 && e != -1.0) {
        throw ScenarioError("material.restitution: " + formatValue(e) +
                            " is out of range; accepted: a real number in [0, 1], or -1 for the CD-equivalent damping");
    }
    if (s.material.law == NormalLaw::Hertz && e < 0.0) {
        throw ScenarioError(
            "material.restitution: -1 (CD-equivalent damping) exists for the linear law only; accepted: "
            "a real number in [0, 1] with material.law = hertz");
    }
    if (s.material.law == NormalLaw::Hertz && s.dimension != 3) {
        // A disk's mass is per unit thickness (kg/m); Hertz's 4/3 E* sqrt(R*) delta^(3/2) is the force between
        // spheres (N). Two cylinders pressed together follow no such power law.
        throw ScenarioError("material.law: hertz is the law of spheres, and 2D grains are disks with masses per unit "
                            "thickness; accepted in world.dimension 2: linear");
    }
}

/// Most steps a run may take: run.time / solver.dt must fit a 64-bit count with room to spare.
constexpr double kMostSteps = 1e15;

void checkStepCount(const Settings& s)
{
    const double steps = s.run.time / s.solver.dt;
    if (!(steps <= kMostSteps)) {
        throw ScenarioError("solver.dt: " + formatValue(s.solver.dt) +
                            " s divides run.time = " + formatValue(s.run.time) + " s into " + formatValue(steps) +
                            " steps; accepted: at most 1e15 steps (run.time / solver.dt)");
    }
}

/// The piston pushes: its force after the load step, piston.force + piston.load_step, is not negative (a pulling
/// piston left the box: -1e6 N lifted it from 150 m to 170 m).
void checkPistonLoad(const Settings& s)
{
    const double after = s.piston.force + s.piston.loadStep;
    if (after < 0.0) {
        throw ScenarioError("piston.load_step: " + formatValue(s.piston.loadStep) + " N makes the piston's force " +
                            formatValue(after) + " N after the step (piston.force + piston.load_step); accepted: at " +
                            "least -piston.force = " + formatValue(-s.piston.force) + " N (the piston pushes)");
    }
}

/// contact.wall_friction is a coefficient >= 0, or -1 for contact.friction's: other negatives were taken as -1.
void checkWallFriction(const Settings& s)
{
    const double mu = s.contact.wallFriction;
    if (mu < 0.0 && mu != -1.0) {
        throw ScenarioError("contact.wall_friction: " + formatValue(mu) +
                            " is out of range; accepted: a real number in [0, 100], or -1 for contact.friction's");
    }
}

}  // namespace

void checkRunCoversAStep(const Settings& s)
{
    if (s.run.time < s.solver.dt) {
        throw ScenarioError("run.time: " + formatValue(s.run.time) + " s is shorter than one step of solver.dt = " +
                            formatValue(s.solver.dt) + " s; accepted: at least solver.dt");
    }
}

void checkSettings(const Settings& s)
{
    checkStepCount(s);
    checkWallFriction(s);
    if (s.setup == Setup::Piston) {
        checkPistonLoad(s);
    }
    checkRadii(s);
    if (s.setup == Setup::Periodic) {
        checkPeriodic(s);
    }
    if (s.setup == Setup::Pair) {
        checkPair(s);
    }
    if (s.setup == Setup::Compression) {
        checkCompression(s);
    }
    if (!s.particles.file.empty()) {
        checkParticleFile(s);
    }
    if (s.solver.method == Method::ConstantPressure && s.setup != Setup::Periodic) {
        throw ScenarioError("solver.method: cd_pressure needs a periodic cell; accepted: with setup periodic");
    }
    if (s.solver.method == Method::ConstantPressure && s.solver.sweep == SweepOrder::Strips) {
        throw ScenarioError("solver.sweep: strips is implemented for solver.method = cd (every contact of the periodic "
                            "cell moves its dilation rate); accepted with cd_pressure: random, coloured");
    }
    if (s.solver.method == Method::MultiContact) {
        checkMultiContact(s);
    }
    if (isSoft(s.solver.method)) {
        checkSoftMaterial(s);
    }
}

}  // namespace granular
