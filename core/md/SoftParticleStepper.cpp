#include "md/SoftParticleStepper.h"

#include "md/VerletLanes.h"
#include "method/StageTimer.h"
#include "model/World.h"
#include "periodic/Relaxation.h"
#include "periodic/StressTensor.h"
#include "scenario/Value.h"
#include "util/Parallel.h"
#include "util/StateArchive.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

namespace granular {

namespace md {

SoftParticleSettings softParticleSettingsFrom(const Settings& settings)
{
    SoftParticleSettings soft;
    soft.dt = settings.solver.dt;
    soft.substeps = settings.solver.substeps;
    soft.relativeSkin = settings.contact.margin;
    soft.material = materialModelFrom(settings);
    if (settings.setup == Setup::Periodic) {
        soft.pressure = settings.pressure;
    }
    return soft;
}

}  // namespace md

namespace {

bool isMobile(double mass)
{
    return std::isfinite(mass);
}

/// The fastest approach any contact may see: twice the fastest grain, plus the piston and the
/// drum's rim, plus what gravity can add by a fall across the container (m/s).
double impactSpeed(const World& world)
{
    double fastest = 0.0;
    for (const Vec3& v : world.particles.velocity) {
        fastest = std::max(fastest, v.norm());
    }
    double speed = 2.0 * fastest;
    if (world.piston) {
        speed += std::fabs(world.piston->velocity);
    }
    if (world.drum) {
        speed += std::fabs(world.drum->angularVelocity) * world.drum->radius;
    }
    if (!world.bounds.isEmpty()) {
        // What gravity can add by a fall across the container.
        speed += std::sqrt(2.0 * world.gravity.norm() * world.bounds.sizes().maxCoeff());
    }
    return speed;
}

}  // namespace

SoftParticleStepper::SoftParticleStepper(const md::SoftParticleSettings& settings,
                                         std::unique_ptr<md::ContactDeformation> deformation)
    : deformation_(std::move(deformation))
{
    configure(settings);
}

void SoftParticleStepper::configure(const Settings& settings)
{
    configure(md::softParticleSettingsFrom(settings));
    if (deformation_) {
        deformation_->configure(settings);
    }
}

void SoftParticleStepper::configure(const md::SoftParticleSettings& settings)
{
    const bool newMaterial = !(settings.material == settings_.material) || hertz_.duration == 0.0;
    if (newMaterial) {
        const auto& m = settings.material;
        hertz_ = m.law == NormalLaw::Hertz ? md::calibrateHertz(m.restitution) : md::calibrateHertz(1.0);
        rebuild_ = true;
        primed_ = false;
    }
    settings_ = settings;
}

bool SoftParticleStepper::leftAsItWas(const World& world) const
{
    return world.particles.size() == adoptedCount_ && world.steps == adoptedSteps_ && world.time == adoptedTime_;
}

void SoftParticleStepper::adopt(World& world)
{
    // A world this stepper did not leave as it is (a new or loaded state) starts afresh.
    if (leftAsItWas(world)) {
        return;
    }
    smallestRadius_ = std::numeric_limits<double>::infinity();
    largestRadius_ = 0.0;
    for (const double r : world.particles.radius) {
        smallestRadius_ = std::min(smallestRadius_, r);
        largestRadius_ = std::max(largestRadius_, r);
    }
    candidates_ = md::CandidateList();
    rebuild_ = true;
    primed_ = false;
}

double SoftParticleStepper::largestOverlap() const
{
    double largest = 0.0;
    for (const auto& m : candidates_.memory()) {
        largest = std::max(largest, m.overlap);
    }
    return largest;
}

md::ContactTimeScale SoftParticleStepper::timeScale(const World& world, bool forAdvice) const
{
    return md::contactTimeScale(world, settings_.material, hertz_, impactSpeed(world), largestOverlap(), forAdvice);
}

std::int64_t SoftParticleStepper::substepsFor(const World& world) const
{
    return settings_.substeps > 0 ? settings_.substeps : md::automaticSubsteps(settings_.dt, timeScale(world));
}

std::vector<std::string> SoftParticleStepper::advisories(const World& world) const
{
    std::vector<std::string> advice;
    const std::int64_t substeps = substepsFor(world);
    if (auto warning = md::timeStepAdvice(settings_.dt, substeps, timeScale(world, true))) {
        advice.push_back(std::move(*warning));
    }
    if (settings_.pressure && world.cell) {
        const double threshold = settings_.pressure->relaxThreshold;
        const RelaxationFloor floor = relaxationFloor(world);
        if (threshold < floor.speed || threshold < floor.acceleration || threshold < floor.boundaryAcceleration) {
            advice.push_back("md: pressure.relax_threshold = " + formatShort(threshold) +
                             " is finer than the rounding of the coordinates shows through the fastest contact; as the "
                             "packing is now, the run ends once the speeds are below " +
                             formatShort(std::max(threshold, floor.speed)) + " m/s, the grains' accelerations below " +
                             formatShort(std::max(threshold, floor.acceleration)) + " m/s^2 and the cell's below " +
                             formatShort(std::max(threshold, floor.boundaryAcceleration)) + " m/s^2 (" +
                             formatShort(RelaxationFloor::kMargin) +
                             " times that noise; the floors change with the cell and its contacts)");
        }
    }
    return advice;
}

double SoftParticleStepper::dilateCell(World& world, double dt)
{
    if (!world.cell || !settings_.pressure) {
        return 1.0;
    }
    PeriodicCell& cell = *world.cell;
    const PressureSettings& coupling = *settings_.pressure;
    const double lambda =
        cell.dilationRate() + 0.5 * dt * (cell.innerPressure - coupling.externalPressure) / coupling.inertia;  // eq. 19
    cell.setDilationRate(lambda);
    const double scale = 1.0 + lambda * dt;
    cell.setEdges(scale * cell.edges);  // eq. 24
    world.bounds = cell.box();
    return scale;
}

void SoftParticleStepper::finishCellStep(World& world, double dt)
{
    if (!world.cell || !settings_.pressure) {
        return;
    }
    PeriodicCell& cell = *world.cell;
    const PressureSettings& coupling = *settings_.pressure;
    cell.innerPressure = stressPressure(world);  // eq. 22 with the step's contact forces
    cell.setDilationRate(cell.dilationRate() +
                         0.5 * dt * (cell.innerPressure - coupling.externalPressure) / coupling.inertia);
}

namespace {

void saveLoads(StateWriter& out, const md::BodyLoads& loads)
{
    out.putVector(loads.force);
    out.putVector(loads.torque);
    out.putVector(loads.damping);
    out.putVector(loads.impulse);
    out.put(loads.pistonForce);
    out.put(loads.pistonDamping);
    out.put(loads.pistonImpulse);
}

void loadLoads(StateReader& in, md::BodyLoads& loads)
{
    loads.force = in.getVector<Vec3>();
    loads.torque = in.getVector<Vec3>();
    loads.damping = in.getVector<Vec3>();
    loads.impulse = in.getVector<Vec3>();
    loads.pistonForce = in.get<double>();
    loads.pistonDamping = in.get<double>();
    loads.pistonImpulse = in.get<double>();
}

}  // namespace

void SoftParticleStepper::saveState(StateWriter& out) const
{
    candidates_.saveState(out);
    saveLoads(out, loads_);
    out.put(smallestRadius_);
    out.put(largestRadius_);
    out.put(rebuild_);
    out.put(primed_);
    out.put(static_cast<std::uint64_t>(adoptedCount_));
    out.put(adoptedSteps_);
    out.put(adoptedTime_);
    out.put(deformation_ != nullptr);
    if (deformation_) {
        deformation_->saveState(out);
    }
}

void SoftParticleStepper::loadState(StateReader& in)
{
    indexed_ = false;
    candidates_.loadState(in);
    loadLoads(in, loads_);
    smallestRadius_ = in.get<double>();
    largestRadius_ = in.get<double>();
    rebuild_ = in.get<bool>();
    primed_ = in.get<bool>();
    adoptedCount_ = static_cast<std::size_t>(in.get<std::uint64_t>());
    adoptedSteps_ = in.get<std::int64_t>();
    adoptedTime_ = in.get<double>();
    if (in.get<bool>() != (deformation_ != nullptr)) {
        throw StateError("the saved state is of " + std::string(deformation_ ? "md" : "mcdem") + ", not " + name());
    }
    if (deformation_) {
        deformation_->loadState(in);
    }
}

void SoftParticleStepper::checkState(const World& world) const
{
    if (!leftAsItWas(world)) {
        return;  // adopt() starts afresh
    }
    const std::size_t grains = world.particles.size();
    const auto fits = [grains](const std::vector<Vec3>& perGrain) {
        return perGrain.empty() || perGrain.size() == grains;
    };
    if (candidates_.memory().size() != world.contacts.size() || candidates_.recordedGrains() != grains ||
        !fits(loads_.force) || !fits(loads_.torque) || !fits(loads_.damping) || !fits(loads_.impulse)) {
        throw StateError(
            "the saved " + name() + " state does not fit its world: " + std::to_string(candidates_.memory().size()) +
            " candidate memories for " + std::to_string(world.contacts.size()) + " contacts, a motion record of " +
            std::to_string(candidates_.recordedGrains()) + " grains and loads of " +
            std::to_string(loads_.force.size()) + " for " + std::to_string(grains));
    }
}

bool SoftParticleStepper::finished(const World& world) const
{
    if (world.piston && world.piston->drive) {
        // A driven plate's program is over once its last stroke has ended (half a step's round-off allowed).
        return world.time >= world.piston->drive->end() - 0.5 * settings_.dt;
    }
    return settings_.pressure && world.cell && world.steps > 0 &&
           measureRelaxation(world, *settings_.pressure)
               .below(settings_.pressure->relaxThreshold, relaxationFloor(world));
}

RelaxationFloor SoftParticleStepper::relaxationFloor(const World& world) const
{
    if (!settings_.pressure || !world.cell) {
        return {};
    }
    // The fastest contact's rate pi / resolution: omega_0 where it is underdamped, its fast rate ~c/m where it is
    // overdamped (md's CD-equivalent contacts, zeta ~6: the noise measured on periodic2d follows the fast rate, 12
    // times omega_0, not omega_0). Its stiffness m* rate^2, m* at most the lightest grain's mass: each grain's force
    // noise.
    const double angularFrequency = std::numbers::pi / timeScale(world).resolution;  // 0 where no contact forms
    double lightest = std::numeric_limits<double>::infinity();
    for (const double m : world.particles.mass) {
        lightest = std::min(lightest, m);
    }
    return roundingFloor(world, *settings_.pressure, angularFrequency, lightest * angularFrequency * angularFrequency);
}

md::GrainDrift SoftParticleStepper::grainDrift(World& world, const md::BodyLoads& loads, double dt, double scale)
{
    auto& p = world.particles;
    const std::size_t n = p.size();
    half_.velocity.resize(n);
    half_.angularVelocity.resize(n);
    // The arrays' addresses by value, captured so by the loops that use them: through the captured containers the
    // compiler would reload them at every store (it cannot tell a stored double from a vector's own pointers).
    return md::GrainDrift{p.velocity.data(),
                          p.angularVelocity.data(),
                          p.mass.data(),
                          p.inertia.data(),
                          p.externalForce.data(),
                          loads.force.data(),
                          loads.damping.data(),
                          loads.torque.data(),
                          p.position.data(),
                          half_.velocity.data(),
                          half_.angularVelocity.data(),
                          candidates_.motionRecord(n).displacement,
                          world.gravity,
                          dt,
                          scale};
}

namespace {

/// The drift of grains [first, last) (a loop per range of grains, no call per grain), which also adds each grain's step
/// to the candidates' record of how far it moved since their last rebuild; `cell` wraps the positions into a periodic
/// cell. Outside a periodic cell the grains go eight (AVX-512F) or four (AVX2) at a time where the processor has the
/// lanes (md/VerletLanes.h), the same numbers: 20,000 spheres x1.08 the particle-steps/s on one thread, x1.07 on two
/// (with the kick's lanes; medians of 8 alternating pairs each).
DisplacementBound driftGrains(const md::GrainDrift& grains, const PeriodicCell* cell, std::size_t first,
                              std::size_t last)
{
    DisplacementBound bound;
    std::size_t i = first;
    if (cell == nullptr) {
        i += md::driftLanes(grains, first, last, bound);
    }
    const double dt = grains.dt;
    for (; i < last; ++i) {
        Vec3 v = grains.velocity[i];
        if (isMobile(grains.mass[i])) {
            const double inverseMass = 1.0 / grains.mass[i];
            v += (0.5 * dt) *
                 (inverseMass * (grains.force[i] + grains.damping[i] + grains.externalForce[i]) + grains.gravity);
        }
        grains.halfVelocity[i] = v;
        grains.halfAngularVelocity[i] = grains.angularVelocity[i] + (0.5 * dt / grains.inertia[i]) * grains.torque[i];
        const Vec3 step = dt * v;
        grains.position[i] = grains.scale * grains.position[i] + step;  // eq. 26 in a periodic cell, plain drift else
        if (cell != nullptr) {
            grains.position[i] = cell->wrap(grains.position[i]);
        }
        grains.displacement[i] += step;
        bound.add(grains.displacement[i]);
    }
    // A copy, not the local itself: returned by name, the local would be the caller's return slot, which GCC keeps in
    // memory, a chain of stores and loads through every grain's minima and maxima.
    return {bound};
}

}  // namespace

void SoftParticleStepper::drift(World& world, double dt)
{
    const double scale = dilateCell(world, dt);
    const PeriodicCell* cell = world.cell ? &*world.cell : nullptr;
    const md::GrainDrift grains = grainDrift(world, loads_, dt, scale);
    // On several threads, each drifts the grains whose loads it sums (the assembly's blocks): this machine's two cores
    // pass a cache line to and fro in ~480 ns, and even halves of the grains made one thread read a few thousand
    // grains' loads from the other's cache. 20,000 spheres on two threads: x1.017-1.074 the particle-steps/s (medians
    // of three sets of 10-12 alternating pairs).
    const DisplacementBound moved = assembly_.reduceOverBlocks(
        world.particles.size(), DisplacementBound{},
        [=](std::size_t first, std::size_t last) { return driftGrains(grains, cell, first, last); },
        std::mem_fn(&DisplacementBound::merge));
    finishDrift(world, loads_, dt, world.time, scale, moved);
}

void SoftParticleStepper::finishDrift(World& world, const md::BodyLoads& loads, double dt, double time, double scale,
                                      const DisplacementBound& moved)
{
    double pistonStep = 0.0;
    if (world.piston && world.piston->drive) {
        // A driven plate: its height follows the program whatever the grains do (normal -y).
        Piston& plate = *world.piston;
        const double height = plate.drive->height(time + dt);
        pistonStep = plate.plane.point.y() - height;  // along the normal
        half_.piston = pistonStep / dt;
        plate.plane.point.y() = height;
    } else if (world.piston) {
        Piston& piston = *world.piston;
        const double along = loads.pistonForce + loads.pistonDamping + piston.appliedForce(time);
        half_.piston = piston.velocity + 0.5 * dt * (along / piston.mass + world.gravity.dot(piston.plane.normal));
        pistonStep = dt * half_.piston;
        piston.plane.point += pistonStep * piston.plane.normal;
    }
    if (world.drum) {
        world.drum->angle += dt * world.drum->angularVelocity;
    }
    candidates_.finishMotion(moved, pistonStep);
    if (scale != 1.0) {
        // Two grains close in by |scale - 1| times their distance: the most that a pair left out of the list comes
        // nearer its margin is that of a pair at the margin.
        candidates_.recordStrain(std::fabs(scale - 1.0) * (2.0 * largestRadius_ + candidates_.margin()));
    }
}

namespace {

/// The second half of a grain's velocity-Verlet step: v += dt/2m (F(t) + F(t + dt)) + J/m + dt (g + F_ext/m) for a
/// mobile grain (elastic and tangential forces by the trapezoid, the dashpot's exact impulse J), w += dt/2I (T(t) +
/// T(t + dt)). The arrays' addresses by value, as in drift().
struct GrainKick {
    md::GrainKickArrays arrays;

    GrainKick(World& world, const md::BodyLoads& loads, const md::BodyLoads& next, double step)
        : arrays{world.particles.velocity.data(),
                 world.particles.angularVelocity.data(),
                 world.particles.mass.data(),
                 world.particles.inertia.data(),
                 world.particles.externalForce.data(),
                 loads.force.data(),
                 next.force.data(),
                 next.impulse.data(),
                 loads.torque.data(),
                 next.torque.data(),
                 world.gravity,
                 step}
    {
    }

    [[gnu::always_inline]] void operator()(std::size_t i) const
    {
        if (isMobile(arrays.mass[i])) {
            const double inverseMass = 1.0 / arrays.mass[i];
            arrays.velocity[i] += (0.5 * arrays.dt * inverseMass) * (arrays.force[i] + arrays.nextForce[i]) +
                                  inverseMass * arrays.nextImpulse[i] +
                                  arrays.dt * (arrays.gravity + inverseMass * arrays.externalForce[i]);
        }
        arrays.angularVelocity[i] += (0.5 * arrays.dt / arrays.inertia[i]) * (arrays.torque[i] + arrays.nextTorque[i]);
    }

    /// Grains [first, last): eight at a time where the processor has the lanes (md/VerletLanes.h), the same numbers.
    void operator()(std::size_t first, std::size_t last) const
    {
        for (std::size_t i = first + md::kickLanes(arrays, first, last); i < last; ++i) {
            (*this)(i);
        }
    }
};

}  // namespace

void SoftParticleStepper::kick(World& world, double dt, double time)
{
    const GrainKick kickGrain(world, loads_, next_, dt);
    parallelRanges(world.particles.size(),
                   [kickGrain](std::size_t first, std::size_t last) { kickGrain(first, last); });
    kickPiston(world, dt, time);
}

void SoftParticleStepper::kickPiston(World& world, double dt, double time) const
{
    if (world.piston && world.piston->drive) {
        world.piston->velocity = -world.piston->drive->velocity(time + dt);  // along the normal, -y
    } else if (world.piston) {
        Piston& piston = *world.piston;
        const double applied = 0.5 * (piston.appliedForce(time) + piston.appliedForce(time + dt));
        piston.velocity += (0.5 * dt / piston.mass) * (loads_.pistonForce + next_.pistonForce) +
                           (next_.pistonImpulse + dt * applied) / piston.mass +
                           dt * world.gravity.dot(piston.plane.normal);
    }
}

void SoftParticleStepper::refreshCandidateList(World& world, StepDiagnostics& diagnostics)
{
    const StageTimer timer(diagnostics, StepStage::Neighbours);
    const double skin = settings_.relativeSkin * smallestRadius_;
    // The bulges' reach that this step's evaluation will have (mcdem), from the memory of the last one; a list made
    // afresh for a new world (no memory of its contacts yet) takes the last reach known.
    double reach = 0.0;
    if (deformation_) {
        reach = candidates_.memory().size() == world.contacts.size()
                    ? deformation_->reachAhead(world, candidates_.memory())
                    : deformation_->reach();
    }
    if (candidates_.refresh(world, skin, reach, settings_.material, hertz_.alpha, rebuild_)) {
        rebuild_ = false;
        indexed_ = false;
    }
    if (!indexed_ || !assembly_.indexes(world)) {
        assembly_.index(world);
        indexed_ = true;
    }
}

void SoftParticleStepper::advance(World& world, double dt, double endTime, StepDiagnostics& diagnostics,
                                  bool lastOfStep)
{
    // world.contacts is looked at after a solver step, and by the cell's stress after every MD step.
    const bool publish = lastOfStep || world.cell.has_value();
    if (!primed_) {
        // A new or changed world's loads need its candidates (made afresh where the world is new).
        refreshCandidateList(world, diagnostics);
        const StageTimer timer(diagnostics, StepStage::Contacts);
        md::evaluateCurrentForces(world, candidates_.memory(), loads_, deformation_.get());
        md::addDampingForces(world, candidates_.memory(), loads_, assembly_, true);
        if (world.cell && settings_.pressure) {
            world.cell->innerPressure = stressPressure(world);
        }
        primed_ = true;
    }
    const double time = world.time;
    if (drifted_) {
        drifted_ = false;  // the MD step before drifted the grains already, in its dashpots' pass
    } else {
        const StageTimer timer(diagnostics, StepStage::Integrate);
        drift(world, dt);
    }
    // After the drift, so that the candidates cover every pair that touches where the forces are evaluated.
    refreshCandidateList(world, diagnostics);
    // Several blocks of contacts: each block's grains kicked on the block's thread as soon as their loads are summed,
    // while they are in that thread's cache, with no pass of its own. next_ holds this step's loads by then (sized by
    // evaluateStepForces). 20,000 spheres on two threads: x1.011 the particle-steps/s (12 alternating pairs).
    std::function<void(std::size_t, std::size_t)> kickBlock;
    if (!assembly_.oneBlock()) {
        kickBlock = [&](std::size_t first, std::size_t last) {
            const GrainKick kickGrain(world, loads_, next_, dt);
            kickGrain(first, last);
        };
    }
    {
        const StageTimer timer(diagnostics, StepStage::Contacts);
        md::evaluateStepForces(world, candidates_.memory(), half_, dt, next_, deformation_.get(), assembly_, publish,
                               kickBlock);
    }
    // One block of contacts (one solver thread, or too few contacts to share out), and a kick that would run on one
    // thread too: the kick and the dashpots in one pass, grain by grain (the same loads). Many grains with few
    // contacts keep their kick on every thread.
    if (assembly_.oneBlock() &&
        (solverThreads() == 1 || static_cast<std::ptrdiff_t>(world.particles.size()) < kSmallestParallelLoop)) {
        const StageTimer timer(diagnostics, StepStage::Integrate);
        // next_ holds this step's loads, sized by evaluateStepForces: the resize in kickAndAddDampingForces keeps the
        // arrays kickGrain points into.
        const GrainKick kickGrain(world, loads_, next_, dt);
        // Within a solver step, outside a periodic cell (whose dilation needs the step's pressure first), the next MD
        // step's drift of each run of grains as soon as their loads are final: the grains' arrays are then still in
        // the cache. The same numbers as the drift at the next step's start.
        const bool driftAhead = !lastOfStep && !world.cell;
        const md::GrainDrift grains = grainDrift(world, next_, dt, 1.0);
        DisplacementBound moved;
        md::kickAndAddDampingForces(
            world, candidates_.memory(), next_, assembly_, publish, kickGrain, [&] { kickPiston(world, dt, time); },
            [&](std::size_t first, std::size_t last) {
                if (driftAhead) {
                    moved.merge(driftGrains(grains, nullptr, first, last));
                }
            });
        if (driftAhead) {
            finishDrift(world, next_, dt, endTime, 1.0, moved);
            drifted_ = true;
        }
    } else {
        {
            const StageTimer timer(diagnostics, StepStage::Integrate);
            if (kickBlock) {
                kickPiston(world, dt, time);
            } else {
                kick(world, dt, time);
            }
        }
        const StageTimer timer(diagnostics, StepStage::Contacts);
        md::addDampingForces(world, candidates_.memory(), next_, assembly_, publish);
    }
    {
        const StageTimer timer(diagnostics, StepStage::Integrate);
        finishCellStep(world, dt);
    }
    std::swap(loads_, next_);
}

StepDiagnostics SoftParticleStepper::step(World& world)
{
    StepDiagnostics diagnostics;
    adopt(world);
    drifted_ = false;  // (a step that threw may have left it set: a blow-up)
    const std::int64_t substeps = substepsFor(world);
    const double dt = settings_.dt / static_cast<double>(substeps);
    const double start = world.time;
    for (std::int64_t s = 1; s <= substeps; ++s) {
        const double end = s == substeps ? start + settings_.dt : start + static_cast<double>(s) * dt;
        advance(world, dt, end, diagnostics, s == substeps);
        world.time = end;
    }
    ++world.steps;
    {
        const StageTimer timer(diagnostics, StepStage::Observe);
        double overlapSum = 0.0;
        double pistonForce = 0.0;
        const auto& memory = candidates_.memory();
        for (std::size_t k = 0; k < memory.size(); ++k) {
            const double overlap = memory[k].overlap;
            if (overlap <= 0.0) {
                continue;
            }
            ++diagnostics.contacts;
            overlapSum += overlap;
            diagnostics.maxOverlap = std::max(diagnostics.maxOverlap, overlap);
            const Contact& c = world.contacts[k];
            if (c.kind == ContactKind::Piston) {
                pistonForce += c.force.dot(c.normal);
            }
        }
        if (diagnostics.contacts > 0) {
            diagnostics.meanOverlap = overlapSum / static_cast<double>(diagnostics.contacts);
        }
        if (world.piston) {
            world.piston->contactForce = pistonForce;
        }
        diagnostics.iterations = substeps;
        diagnostics.candidates = static_cast<std::int64_t>(world.contacts.size());
        diagnostics.contactUpdates = substeps * diagnostics.candidates;
    }
    adoptedCount_ = world.particles.size();
    adoptedSteps_ = world.steps;
    adoptedTime_ = world.time;
    return diagnostics;
}

}  // namespace granular
