#include "observe/PairObservables.h"

#include "model/World.h"

namespace granular {

namespace {

/// N, the normal component of the force of grain 0 on grain 1 (repulsion positive); 0 without contact.
double pairNormalForce(const World& world)
{
    for (const Contact& c : world.contacts) {
        if (c.kind == ContactKind::Particle && c.partner == 0 && c.particle == 1) {
            return c.force.dot(c.normal);
        }
    }
    return 0.0;
}

}  // namespace

void addPairObservables(std::vector<Observable>& list)
{
    list.push_back({"height", "m", "height of the upper grain's centre above the fixed grain's",
                    [](const World& w, const StepDiagnostics&) { return w.particles.position[1].y(); }});
    list.push_back({"velocity", "m/s", "velocity of the upper grain along y (negative: falling)",
                    [](const World& w, const StepDiagnostics&) { return w.particles.velocity[1].y(); }});
    list.push_back({"overlap", "m", "delta = r0 + r1 - |x1 - x0| of the two grains (negative: a gap)",
                    [](const World& w, const StepDiagnostics&) {
                        const auto& p = w.particles;
                        return p.radius[0] + p.radius[1] - (p.position[1] - p.position[0]).norm();
                    }});
    list.push_back({"normal_force", "N", "normal contact force between the two grains (repulsion positive)",
                    [](const World& w, const StepDiagnostics&) { return pairNormalForce(w); }});
}

}  // namespace granular
