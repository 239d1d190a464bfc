#include "observe/CompressionObservables.h"

#include "model/World.h"

#include <numbers>

namespace granular {

namespace {

/// Force-carrying contacts per grain: a grain-grain contact counts for both grains, a wall or plate contact
/// for its grain.
double contactsPerGrain(const World& w)
{
    const auto n = static_cast<double>(w.particles.size());
    double ends = 0.0;
    for (const Contact& c : w.contacts) {
        if (c.force.dot(c.normal) > 0.0) {
            ends += c.kind == ContactKind::Particle ? 2.0 : 1.0;
        }
    }
    return n > 0.0 ? ends / n : 0.0;
}

double volumeBelowPlate(const World& w)
{
    const auto size = w.bounds.sizes();
    return size.x() * size.z() * w.piston->plane.point.y();
}

double grainVolume(const World& w)
{
    double sum = 0.0;
    for (const double r : w.particles.radius) {
        sum += 4.0 / 3.0 * std::numbers::pi * r * r * r;
    }
    return sum;
}

}  // namespace

void addCompressionObservables(std::vector<Observable>& list)
{
    list.push_back({"top_force", "N", "force of the grains on the plate, positive up",
                    [](const World& w, const StepDiagnostics&) { return w.piston->contactForce; }});
    list.push_back(
        {"compression", "m", "compression.top_start minus the plate's height",
         [](const World& w, const StepDiagnostics&) { return w.piston->drive->top - w.piston->plane.point.y(); }});
    list.push_back(
        {"stroke", "1", "0 while the grains settle, then the stroke (1: first down, 2: first up, ...)",
         [](const World& w, const StepDiagnostics&) { return static_cast<double>(w.piston->drive->stroke(w.time)); }});
    list.push_back({"contacts_per_grain", "1", "Z: force-carrying contacts per grain, walls and plate included",
                    [](const World& w, const StepDiagnostics&) { return contactsPerGrain(w); }});
    list.push_back({"volume_fraction", "1", "grain volume over the box below the plate",
                    [](const World& w, const StepDiagnostics&) { return grainVolume(w) / volumeBelowPlate(w); }});
}

}  // namespace granular
