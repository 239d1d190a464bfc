#include "sim/Observable.h"

#include "model/World.h"
#include "scenario/Scenario.h"

namespace granular {

namespace {

double kineticEnergy(const World& world)
{
    const auto& p = world.particles;
    double energy = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        energy += 0.5 * p.mass[i] * p.velocity[i].squaredNorm() +
                  0.5 * p.inertia[i] * p.angularVelocity[i].squaredNorm();
    }
    return energy;
}

double potentialEnergy(const World& world)
{
    const auto& p = world.particles;
    double energy = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        energy -= p.mass[i] * world.gravity.dot(p.position[i]);
    }
    return energy;
}

}  // namespace

std::vector<Observable> observablesFor(const Scenario& scenario)
{
    const auto probe = static_cast<std::size_t>(scenario.integer("probe.index"));
    const std::string energyUnit = scenario.integer("world.dimension") == 2 ? "J/m" : "J";
    std::vector<Observable> list = {
        {"kinetic_energy", energyUnit, "translational + rotational kinetic energy",
         [](const World& w, const StepDiagnostics&) { return kineticEnergy(w); }},
        {"potential_energy", energyUnit, "gravitational potential energy, zero at the origin",
         [](const World& w, const StepDiagnostics&) { return potentialEnergy(w); }},
    };
    const char* axes[] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
        list.push_back({std::string("probe_") + axes[a], "m", "position of the probe particle",
                        [probe, a](const World& w, const StepDiagnostics&) { return w.particles.position[probe][a]; }});
    }
    for (int a = 0; a < 3; ++a) {
        list.push_back({std::string("probe_v") + axes[a], "m/s", "velocity of the probe particle",
                        [probe, a](const World& w, const StepDiagnostics&) { return w.particles.velocity[probe][a]; }});
    }
    list.push_back({"iterations", "1", "solver iterations in the last step",
                    [](const World&, const StepDiagnostics& d) { return static_cast<double>(d.iterations); }});
    list.push_back({"contacts", "1", "active contacts after the last step",
                    [](const World&, const StepDiagnostics& d) { return static_cast<double>(d.contacts); }});
    return list;
}

}  // namespace granular
