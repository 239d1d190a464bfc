#include "observe/Observable.h"

#include "model/World.h"
#include "observe/CompressionObservables.h"
#include "observe/PairObservables.h"
#include "observe/PeriodicObservables.h"
#include "settings/Settings.h"

#include <cmath>

namespace granular {

namespace {

double kineticEnergy(const World& world)
{
    const auto& p = world.particles;
    double energy = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (!std::isfinite(p.mass[i])) {
            continue;  // a fixed or driven grain (infinite mass) is not part of the system
        }
        energy +=
            0.5 * p.mass[i] * p.velocity[i].squaredNorm() + 0.5 * p.inertia[i] * p.angularVelocity[i].squaredNorm();
    }
    return energy;
}

double potentialEnergy(const World& world)
{
    const auto& p = world.particles;
    double energy = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (!std::isfinite(p.mass[i])) {
            continue;
        }
        energy -= p.mass[i] * world.gravity.dot(p.position[i]);
    }
    return energy;
}

}  // namespace

std::vector<Observable> observablesFor(const Settings& settings)
{
    // The probe particle's index in w: probe.index, or counted back from the last when negative.
    const std::int64_t index = settings.probeIndex;
    const auto probeOf = [index](const World& w) {
        return static_cast<std::size_t>(index >= 0 ? index : static_cast<std::int64_t>(w.particles.size()) + index);
    };
    // 2D: disks of unit thickness (1 m), so that every unit is the 3D one (README, "Units").
    const std::string energyUnit = "J";
    std::vector<Observable> list = {
        {"kinetic_energy", energyUnit, "translational + rotational kinetic energy",
         [](const World& w, const StepDiagnostics&) { return kineticEnergy(w); }},
        {"potential_energy", energyUnit, "gravitational potential energy, zero at the origin",
         [](const World& w, const StepDiagnostics&) { return potentialEnergy(w); }},
    };
    const char* axes[] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
        list.push_back(
            {std::string("probe_") + axes[a], "m", "position of the probe particle",
             [probeOf, a](const World& w, const StepDiagnostics&) { return w.particles.position[probeOf(w)][a]; }});
    }
    for (int a = 0; a < 3; ++a) {
        list.push_back(
            {std::string("probe_v") + axes[a], "m/s", "velocity of the probe particle",
             [probeOf, a](const World& w, const StepDiagnostics&) { return w.particles.velocity[probeOf(w)][a]; }});
    }
    if (settings.setup == Setup::Piston) {
        const std::string pressureUnit = "Pa";  // 2D: force per boundary length per 1 m of thickness
        list.push_back({"piston_y", "m", "height of the piston",
                        [](const World& w, const StepDiagnostics&) { return w.piston->plane.point.y(); }});
        list.push_back(
            {"pressure", pressureUnit, "force of the packing on the piston / piston length (2D) or area",
             [](const World& w, const StepDiagnostics&) { return w.piston->contactForce / w.piston->area; }});
        list.push_back(
            {"external_pressure", pressureUnit,
             "P_ext: the force applied to the piston (with a load step that acts) / its length (2D) or area",
             [](const World& w, const StepDiagnostics&) { return w.piston->appliedForce(w.time) / w.piston->area; }});
    }
    if (settings.setup == Setup::Periodic) {
        addPeriodicObservables(list, settings);
    }
    if (settings.setup == Setup::Compression) {
        addCompressionObservables(list);
    }
    if (settings.setup == Setup::Pair) {
        addPairObservables(list);
    }
    list.push_back({"iterations", "1", "solver iterations in the last step",
                    [](const World&, const StepDiagnostics& d) { return static_cast<double>(d.iterations); }});
    list.push_back({"contacts", "1", "active contacts after the last step",
                    [](const World&, const StepDiagnostics& d) { return static_cast<double>(d.contacts); }});
    if (settings.solver.method == Method::ContactDynamics || settings.solver.method == Method::ConstantPressure) {
        list.push_back({"sliding", "1", "active contacts whose friction is at the Coulomb limit mu R_n",
                        [](const World&, const StepDiagnostics& d) { return static_cast<double>(d.slidingContacts); }});
    }
    list.push_back({"residual", "1", "convergence measure of the last iteration (eq. 35 or 36)",
                    [](const World&, const StepDiagnostics& d) { return d.residual; }});
    if (settings.solver.method == Method::ContactDynamics || settings.solver.method == Method::ConstantPressure) {
        list.push_back({"force_change", "1",
                        "relative change of the contact forces in the last Gauss-Seidel sweep, |dR| / |R| over all "
                        "contacts (Euclidean norms): how far the forces still move, whatever the criterion",
                        [](const World&, const StepDiagnostics& d) { return d.forceChange; }});
    }
    list.push_back({"mean_overlap", "m", "mean overlap of the active contacts after the last step",
                    [](const World&, const StepDiagnostics& d) { return d.meanOverlap; }});
    list.push_back({"max_overlap", "m", "largest overlap after the last step",
                    [](const World&, const StepDiagnostics& d) { return d.maxOverlap; }});
    return list;
}

}  // namespace granular
