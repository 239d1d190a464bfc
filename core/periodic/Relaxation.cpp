#include "periodic/Relaxation.h"

#include "model/World.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace granular {

bool Relaxation::below(double threshold, const RelaxationFloor& floor) const
{
    const double speed = std::max(threshold, floor.speed);
    return meanSpeed < speed && meanAcceleration < std::max(threshold, floor.acceleration) && boundarySpeed < speed &&
           boundaryAcceleration < std::max(threshold, floor.boundaryAcceleration);
}

RelaxationFloor roundingFloor(const World& world, const PressureSettings& coupling, double angularFrequency,
                              double stiffness)
{
    const auto usable = [](double x) { return std::isfinite(x) && x > 0.0; };
    if (!usable(angularFrequency) || !usable(stiffness) || world.bounds.isEmpty()) {
        return {};
    }
    const auto& p = world.particles;
    const Vec3 farthest = world.bounds.min().cwiseAbs().cwiseMax(world.bounds.max().cwiseAbs());
    const double roundingStep = std::numeric_limits<double>::epsilon() * farthest.maxCoeff();  // m, delta x
    std::size_t closed = 0;
    for (const Contact& c : world.contacts) {
        closed += c.gap < 0.0 ? 1 : 0;
    }
    const double diameter = 2.0 * (p.radius.empty() ? 0.0 : *std::max_element(p.radius.begin(), p.radius.end()));
    const PeriodicCell& cell = *world.cell;
    const double pressureNoise = std::sqrt(static_cast<double>(closed)) * stiffness * roundingStep * diameter /
                                 (static_cast<double>(world.dimension) * cell.volume());  // Pa
    constexpr double kMargin = RelaxationFloor::kMargin;
    return {kMargin * angularFrequency * roundingStep, kMargin * angularFrequency * angularFrequency * roundingStep,
            kMargin * cell.length() * pressureNoise / coupling.inertia};
}

Relaxation measureRelaxation(const World& world, const PressureSettings& coupling)
{
    const auto& p = world.particles;
    std::vector<Vec3> force(p.size(), Vec3::Zero());
    std::vector<int> carrying(p.size(), 0);  // force-carrying contacts of each grain
    for (const Contact& c : world.contacts) {
        const auto j = static_cast<std::size_t>(c.particle);
        force[j] += c.force;
        if (c.kind == ContactKind::Particle) {
            const auto i = static_cast<std::size_t>(c.partner);
            force[i] -= c.force;
            if (c.force.dot(c.normal) > 0.0) {
                ++carrying[i];
                ++carrying[j];
            }
        }
    }
    // D sticking contact points fix a rigid grain in D dimensions; with fewer it keeps a free motion (3D: a
    // swing about the axis through its two contact points), so it is not part of the static network.
    std::vector<char> inNetwork(p.size(), 0);
    for (std::size_t i = 0; i < p.size(); ++i) {
        inNetwork[i] = carrying[i] >= world.dimension ? 1 : 0;
    }
    Relaxation r;
    Vec3 momentum = Vec3::Zero();
    double mass = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (inNetwork[i] != 0) {
            momentum += p.mass[i] * p.velocity[i];
            mass += p.mass[i];
            ++r.networkGrains;
        }
    }
    if (r.networkGrains > 0) {
        const Vec3 drift = momentum / mass;
        for (std::size_t i = 0; i < p.size(); ++i) {
            if (inNetwork[i] != 0) {
                r.meanSpeed += (p.velocity[i] - drift).norm();
                r.meanAcceleration += (world.gravity + (force[i] + p.externalForce[i]) / p.mass[i]).norm();
            }
        }
        r.meanSpeed /= static_cast<double>(r.networkGrains);
        r.meanAcceleration /= static_cast<double>(r.networkGrains);
    }
    const PeriodicCell& cell = *world.cell;
    const double length = cell.length();
    if (coupling.shape == CellShape::Free) {
        // Every component of Lambda and of sym(sigma) - P_ext 1: the cell's shape has to come to rest too.
        const int d = cell.dimension;
        Mat3 imbalance = cell.innerStress;
        imbalance.diagonal().array() -= coupling.externalPressure;
        r.boundarySpeed = length * cell.strainRate.topLeftCorner(d, d).cwiseAbs().maxCoeff();
        r.boundaryAcceleration = length * imbalance.topLeftCorner(d, d).cwiseAbs().maxCoeff() / coupling.inertia;
    } else {
        r.boundarySpeed = std::fabs(cell.dilationRate()) * length;
        r.boundaryAcceleration = length * std::fabs(cell.innerPressure - coupling.externalPressure) / coupling.inertia;
    }
    return r;
}

}  // namespace granular
