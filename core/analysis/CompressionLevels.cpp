#include "analysis/CompressionLevels.h"

#include "model/World.h"
#include "util/StateArchive.h"

#include <cmath>
#include <numbers>

namespace granular::analysis {

CompressionLevel compressionLevel(const World& world, std::int64_t stroke, int level, double forceThreshold)
{
    CompressionLevel s;
    s.stroke = stroke;
    s.level = level;
    s.time = world.time;
    const Piston& plate = *world.piston;
    s.compression = plate.drive->top - plate.plane.point.y();
    s.topForce = plate.contactForce;
    const auto& p = world.particles;
    double volume = 0.0;
    for (const double r : p.radius) {
        volume += 4.0 / 3.0 * std::numbers::pi * r * r * r;
    }
    const auto size = world.bounds.sizes();
    s.volumeFraction = volume / (size.x() * size.z() * plate.plane.point.y());
    double ends = 0.0;
    double endsAbove = 0.0;
    double sum = 0.0;
    for (const Contact& c : world.contacts) {
        const double f = c.force.dot(c.normal);
        if (f <= 0.0) {
            continue;
        }
        const double weight = c.kind == ContactKind::Particle ? 2.0 : 1.0;
        ends += weight;
        if (f >= forceThreshold) {
            endsAbove += weight;
        }
        if (c.kind == ContactKind::Particle) {
            s.forces.push_back(f);
            sum += f;
        }
    }
    const auto n = static_cast<double>(p.size());
    s.coordination = n > 0.0 ? ends / n : 0.0;
    s.coordinationAbove = n > 0.0 ? endsAbove / n : 0.0;
    s.meanForce = s.forces.empty() ? 0.0 : sum / static_cast<double>(s.forces.size());
    return s;
}

void CompressionRecorder::saveState(StateWriter& out) const
{
    out.put(stroke_);
    out.put(next_);
    out.put(static_cast<std::uint64_t>(snapshots_.size()));
    for (const auto& l : snapshots_) {
        out.put(l.stroke);
        out.put(l.level);
        for (const double x :
             {l.time, l.compression, l.topForce, l.volumeFraction, l.coordination, l.coordinationAbove, l.meanForce}) {
            out.put(x);
        }
        out.putVector(l.forces);
    }
}

void CompressionRecorder::loadState(StateReader& in)
{
    stroke_ = in.get<std::int64_t>();
    next_ = in.get<int>();
    const auto count = in.get<std::uint64_t>();
    snapshots_.clear();
    for (std::uint64_t k = 0; k < count; ++k) {
        CompressionLevel l;
        l.stroke = in.get<std::int64_t>();
        l.level = in.get<int>();
        for (double* x : {&l.time, &l.compression, &l.topForce, &l.volumeFraction, &l.coordination,
                          &l.coordinationAbove, &l.meanForce}) {
            *x = in.get<double>();
        }
        l.forces = in.getVector<double>();
        snapshots_.push_back(std::move(l));
    }
}

void CompressionRecorder::observe(const World& world)
{
    if (!world.piston || !world.piston->drive) {
        return;
    }
    const PlateDrive& drive = *world.piston->drive;
    const std::int64_t stroke = drive.stroke(world.time);
    if (stroke != stroke_) {
        // The old stroke is over: the program took the plate through all its levels, the last at the turning point,
        // which fell between this step and the one before. What it has not recorded yet is recorded here first, at
        // most a step late, as a level inside a stroke is. (Asking for the level within round-off would lose the
        // turning point's level whenever the turn falls between steps.)
        if (stroke_ >= 1 && stroke_ <= drive.strokes) {
            recordReached(world, stroke_, true);
        }
        stroke_ = stroke;
        next_ = 0;
    }
    if (stroke >= 1 && stroke <= drive.strokes) {
        recordReached(world, stroke, false);
    }
}

void CompressionRecorder::finish(const World& world)
{
    if (world.piston && world.piston->drive && stroke_ >= 1 && stroke_ <= world.piston->drive->strokes) {
        recordReached(world, stroke_, true);
    }
}

void CompressionRecorder::recordReached(const World& world, std::int64_t stroke, bool over)
{
    const PlateDrive& drive = *world.piston->drive;
    const double amplitude = drive.top - drive.bottom;
    const double compression = drive.top - world.piston->plane.point.y();
    const bool down = stroke % 2 == 1;
    // A down-stroke meets levels 0, 1, ..., levels; an up-stroke levels, ..., 0. Half a micrometre of
    // round-off in the plate's height counts as reached.
    const double slack = 5e-7;
    while (next_ <= levels_) {
        const int level = down ? next_ : levels_ - next_;
        const double target = amplitude * level / levels_;
        const bool reached = down ? compression >= target - slack : compression <= target + slack;
        if (!reached && !over) {
            break;
        }
        snapshots_.push_back(compressionLevel(world, stroke, level, forceThreshold_));
        ++next_;
    }
}

}  // namespace granular::analysis
