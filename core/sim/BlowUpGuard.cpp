#include "sim/BlowUpGuard.h"

#include "model/World.h"
#include "scenario/Value.h"
#include "settings/Settings.h"
#include "util/Parallel.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>

namespace granular {

namespace {

std::string number(double x)
{
    std::ostringstream text;
    text.precision(3);
    text << x;
    return text.str();
}

/// "the floor wall", "the wall" (the chain's wall is named "wall").
std::string wallPhrase(const std::string& name)
{
    return name == "wall" ? std::string("the wall") : "the " + name + " wall";
}

/// The force that drives a contact-dynamics run of these settings, as "key = value unit": the one to reduce where the
/// grains cannot hold it.
std::string drivingForce(const Settings& s)
{
    switch (s.setup) {
    case Setup::Chain:
        return "chain.force = " + number(s.chain.force) + " N on disks of chain.mass = " + number(s.chain.mass) + " kg";
    case Setup::Piston:
        return "piston.force = " + number(s.piston.force) + " N";
    case Setup::Periodic:
        return "pressure.external = " + number(s.pressure.externalPressure) + " Pa";
    case Setup::Cloud:
    case Setup::Drum:
    case Setup::Pair:
    case Setup::Compression:
        break;
    }
    return "the grains' weight, gravity = " + number(s.gravity.norm()) + " m/s^2";
}

/// What most likely broke a run of these settings, in words with the key to change.
std::string likelyCause(const Settings& s, bool nonFinite, bool deepOverlap, const BlowUpGuard::Advice& advice)
{
    if (nonFinite) {
        return "a value beyond a double's range: a mass, force or time step at the edge of its accepted range "
               "(e.g. chain.mass, piston.force, solver.dt)";
    }
    // The driven grain moves whatever its contact pushes: driven towards the fixed grain (it starts straight above
    // it), the overlap grows at its speed down the line of centres, whatever the step.
    const double drivenSpeed = -s.particles.velocity.y();
    if (deepOverlap && s.setup == Setup::Pair && s.pair.driven && drivenSpeed > 0.0) {
        return "pair.driven = true: the upper grain keeps its velocity whatever the contact pushes, so the overlap "
               "grows at its " +
               number(drivenSpeed) + " m/s towards the fixed grain and passes the grain radius, " +
               number(s.particles.radiusMax) + " m, " + number(s.particles.radiusMax / drivenSpeed) +
               " s after the grains touch; end the run sooner (run.time) or drive the grain slower "
               "(particles.velocity)";
    }
    if (advice) {
        for (const auto& line : advice()) {
            return line;
        }
    }
    switch (s.solver.method) {
    case Method::ContactDynamics:
    case Method::ConstantPressure:
        return "a force too large for solver.iterations = " + std::to_string(s.solver.iterations) +
               " per step at solver.dt = " + number(s.solver.dt) + " s (here " + drivingForce(s) +
               "): rigid grains cannot hold it; reduce it or dt, or raise the iterations";
    case Method::SoftParticle:
    case Method::MultiContact:
        return "solver.dt = " + number(s.solver.dt) + " s with solver.substeps = " + std::to_string(s.solver.substeps) +
               " is too long for the stiffest contact; use solver.substeps = 0 (automatic) or a shorter dt";
    case Method::Ballistic:
        break;
    }
    return "solver.dt = " + number(s.solver.dt) + " s or an applied force is too large";
}

/// What can be wrong with a grain.
enum class GrainFault : std::uint8_t { None, NonFinite, TooFast, BeyondWall, BeyondPiston, OutsideDrum };

/// What a scan for faulty grains reads, the arrays' and walls' addresses by value: through `world` the compiler
/// reloaded them for every grain and wall (the scan was ~5 % of a contact-dynamics step of the 20,000-sphere packing on
/// one thread with one call per grain).
struct GrainScan {
    const Vec3* position;
    const Vec3* velocity;
    const Vec3* angularVelocity;
    const double* mass;
    const double* radius;
    const PlaneWall* walls;
    std::size_t wallCount;
    const Piston* piston;
    const Drum* drum;
    double dt;
    double container;  ///< m, the bounds' diagonal (0: none)
    bool contained;    ///< whether the method keeps its grains in their container

    GrainScan(const World& world, double step, double containerLength, bool keepsGrains)
        : position(world.particles.position.data()), velocity(world.particles.velocity.data()),
          angularVelocity(world.particles.angularVelocity.data()), mass(world.particles.mass.data()),
          radius(world.particles.radius.data()), walls(world.walls.data()), wallCount(world.walls.size()),
          piston(world.piston ? &*world.piston : nullptr), drum(world.drum ? &*world.drum : nullptr), dt(step),
          container(containerLength), contained(keepsGrains)
    {
    }

    /// What is wrong with grain i, if anything: a non-finite state, or, where the method keeps its grains contained, a
    /// step longer than the container or a place outside it (`wall` gets the wall's index). Without words
    /// (grainProblem gives them).
    [[gnu::always_inline]] GrainFault fault(std::size_t i, std::size_t& wall) const
    {
        const Vec3& x = position[i];
        const Vec3& v = velocity[i];
        if (!x.allFinite() || !v.allFinite() || !angularVelocity[i].allFinite()) {
            return GrainFault::NonFinite;
        }
        if (!contained) {
            return GrainFault::None;
        }
        // Squared: no square root for each grain at each step (the scan over 20,000 grains took 11 % less time).
        if (container > 0.0 && std::isfinite(mass[i]) && v.squaredNorm() * (dt * dt) > container * container) {
            return GrainFault::TooFast;
        }
        for (wall = 0; wall < wallCount; ++wall) {
            if (walls[wall].signedDistance(x) < -radius[i]) {
                return GrainFault::BeyondWall;
            }
        }
        if (piston != nullptr && piston->plane.signedDistance(x) < -radius[i]) {
            return GrainFault::BeyondPiston;
        }
        if (drum != nullptr && drum->distanceFromAxis(x) > drum->radius + radius[i]) {
            return GrainFault::OutsideDrum;
        }
        return GrainFault::None;
    }
};

/// Grain i's fault (not None) in words.
std::string grainProblem(const World& world, std::size_t i, double dt, GrainFault fault, std::size_t wall,
                         double container)
{
    const auto& p = world.particles;
    const Vec3& x = p.position[i];
    const Vec3& v = p.velocity[i];
    const std::string grain = "grain " + std::to_string(i);
    switch (fault) {
    case GrainFault::None:
    case GrainFault::NonFinite:
        break;
    case GrainFault::TooFast:
        return grain + " moves " + number(v.norm() * dt) + " m per step at " + number(v.norm()) +
               " m/s, more than the container's " + number(container) + " m";
    case GrainFault::BeyondWall:
        return grain + " is " + number(-world.walls[wall].signedDistance(x)) + " m beyond " +
               wallPhrase(world.walls[wall].name) + ", outside its container";
    case GrainFault::BeyondPiston:
        return grain + " is " + number(-world.piston->plane.signedDistance(x)) +
               " m beyond the piston, outside its container";
    case GrainFault::OutsideDrum:
        return grain + " is outside the drum, " + number(world.drum->distanceFromAxis(x)) + " m from its axis";
    }
    return grain + " has a non-finite position or velocity";
}

}  // namespace

void BlowUpGuard::check(const World& world, const StepDiagnostics& step, const Settings& settings, const Advice& advice)
{
    const auto& p = world.particles;
    const double dt = settings.solver.dt;
    const double container = world.bounds.isEmpty() ? 0.0 : world.bounds.diagonal().norm();
    // Free flight (the ballistic method) has no contacts: its grains may leave the box, so only finiteness counts.
    const bool contained = settings.solver.method != Method::Ballistic;
    std::optional<std::string> what;
    bool nonFinite = false;
    // The grains are looked at on the solver threads, a loop per range; the report names the first grain in index
    // order with a problem (the largest n - i).
    const std::size_t n = p.size();
    const GrainScan scan(world, dt, container, contained);
    const double fromEnd = parallelRangeMaximum(n, 0.0, [scan, n](std::size_t first, std::size_t last) {
        std::size_t wall = 0;
        for (std::size_t i = first; i < last; ++i) {
            if (scan.fault(i, wall) != GrainFault::None) {
                return static_cast<double>(n - i);
            }
        }
        return 0.0;
    });
    if (fromEnd > 0.0) {
        const std::size_t first = n - static_cast<std::size_t>(fromEnd);
        std::size_t wall = 0;
        const GrainFault fault = scan.fault(first, wall);
        nonFinite = fault == GrainFault::NonFinite;
        what = grainProblem(world, first, dt, fault, wall, container);
    }
    const double smallest = n > 0 ? -parallelMaximum(n, -std::numeric_limits<double>::infinity(),
                                                     [&](std::size_t i) { return -p.radius[i]; })
                                  : 0.0;
    if (!what && world.piston) {
        const Piston& piston = *world.piston;
        if (!piston.plane.point.allFinite() || !std::isfinite(piston.velocity)) {
            what = "the piston's position or velocity is not finite";
            nonFinite = true;
        }
        for (const PlaneWall& wall : world.walls) {
            if (!what && wall.signedDistance(piston.plane.point) < 0.0) {
                what = "the piston is " + number(-wall.signedDistance(piston.plane.point)) + " m beyond " +
                       wallPhrase(wall.name) + ", outside its container";
            }
        }
    }
    if (!what && world.cell && !(world.cell->edges.allFinite() && world.cell->volume() > 0.0)) {
        what = "the periodic cell's edges are not finite or its volume is not positive";
        nonFinite = true;
    }
    bool deepOverlap = false;
    if (!what && p.size() > 0 && step.maxOverlap > smallest) {
        deepOverlap = true;
        what = "an overlap of " + number(step.maxOverlap) + " m exceeds the smallest grain radius, " +
               number(smallest) + " m";
    }
    if (what) {
        throw BlowUp("blow-up at step " + std::to_string(world.steps) + " (t = " + number(world.time) +
                     " s): " + *what + "; likely cause: " + likelyCause(settings, nonFinite, deepOverlap, advice));
    }
}

}  // namespace granular
