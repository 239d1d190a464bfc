#include "mcdem/MultiContactDeformation.h"

#include "model/World.h"
#include "settings/Settings.h"

#include <algorithm>
#include <limits>

namespace granular::mcdem {

namespace {

/// Below this |n_k - n_c| two contact points coincide: a contact of the grain in the same direction as the one
/// asked about (e.g. a grain against a wall and a neighbour at the same spot) would act as its own indentation.
constexpr double kCoincident = 1e-3;

}  // namespace

MultiContactDeformation::MultiContactDeformation(const Settings& settings)
    : poissonRatio_(settings.material.poissonRatio), shape_(poissonRatio_)
{
    configure(settings);
}

void MultiContactDeformation::configure(const Settings& settings)
{
    gamma_ = settings.multiContact.gamma;
    youngModulus_ = settings.material.youngModulus;
    if (settings.material.poissonRatio != poissonRatio_) {
        poissonRatio_ = settings.material.poissonRatio;
        shape_ = HalfSpaceDeformation(poissonRatio_);
    }
}

void MultiContactDeformation::update(const World& world, const std::vector<md::ContactMemory>& memory)
{
    const auto& p = world.particles;
    const auto& contacts = world.contacts;
    const std::size_t n = p.size();
    // Where the last evaluation put a candidate's contact point, seen from body `side`: midway between the
    // deformed surfaces, r + bulge - overlap / 2 from the centre.
    const auto length = [&](std::size_t k, std::size_t grain, int side) {
        return p.radius[grain] + memory[k].bulge[static_cast<std::size_t>(side)] - 0.5 * memory[k].overlap;
    };
    // Every loaded candidate is a load on its grain(s): count, then fill grain by grain (CSR).
    firstLoad_.assign(n + 1, 0);
    const auto loaded = [&](std::size_t k) { return memory[k].overlap > 0.0 && memory[k].elasticForce > 0.0; };
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        if (!loaded(k)) {
            continue;
        }
        ++firstLoad_[static_cast<std::size_t>(contacts[k].particle) + 1];
        if (contacts[k].kind == ContactKind::Particle) {
            ++firstLoad_[static_cast<std::size_t>(contacts[k].partner) + 1];
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        firstLoad_[i + 1] += firstLoad_[i];
    }
    loads_.resize(firstLoad_[n]);
    std::vector<std::uint32_t> next(firstLoad_.begin(), firstLoad_.end() - 1);
    std::vector<double> loadSum(n, 0.0);
    std::vector<double> nearest(n, std::numeric_limits<double>::infinity());
    const double compliance = shape_.compliance(gamma_, youngModulus_);
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        if (!loaded(k)) {
            continue;
        }
        const Contact& c = contacts[k];
        const double complianceForce = compliance * memory[k].elasticForce;
        const auto add = [&](std::size_t grain, const Vec3& direction, double distance) {
            loads_[next[grain]++] = {direction, distance, complianceForce, static_cast<std::uint32_t>(k)};
            loadSum[grain] += complianceForce;
            nearest[grain] = std::min(nearest[grain], distance);
        };
        const auto j = static_cast<std::size_t>(c.particle);
        add(j, -c.normal, length(k, j, 1));  // the normal points from body 0 to body 1
        if (c.kind == ContactKind::Particle) {
            const auto i = static_cast<std::size_t>(c.partner);
            add(i, c.normal, length(k, i, 0));
        }
    }
    // An upper bound of each grain's bulge anywhere: at most (3 - 2 nu) / (L_c + L_k) per unit compliance and
    // force, L_c + L_k >= 1.8 times the nearest contact point (opposite poles give exactly (3 - 2 nu) / (L_c + L_k)).
    largestBulge_.assign(n, 0.0);
    double largest = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        if (loadSum[i] > 0.0) {
            largestBulge_[i] = shape_.largestShape() * loadSum[i] / (1.8 * nearest[i]);
            largest = std::max(largest, largestBulge_[i]);
        }
    }
    reach_ = 2.0 * largest;
    // The bulges at every candidate; a pair further apart than both grains can reach keeps none (they cannot touch).
    bulges_.assign(contacts.size(), {0.0, 0.0});
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const Contact& c = contacts[k];
        const auto j = static_cast<std::size_t>(c.particle);
        if (c.kind == ContactKind::Particle) {
            const auto i = static_cast<std::size_t>(c.partner);
            if (c.gap < largestBulge_[i] + largestBulge_[j]) {
                bulges_[k] = {bulge(i, c.normal, length(k, i, 0), k), bulge(j, -c.normal, length(k, j, 1), k)};
            }
        } else if (c.gap < largestBulge_[j]) {
            bulges_[k] = {0.0, bulge(j, -c.normal, length(k, j, 1), k)};
        }
    }
}

double MultiContactDeformation::bulge(std::size_t grain, const Vec3& direction, double length,
                                      std::size_t candidate) const
{
    double sum = 0.0;
    for (std::uint32_t l = firstLoad_[grain]; l < firstLoad_[grain + 1]; ++l) {
        const Load& load = loads_[l];
        if (load.candidate == candidate || (load.direction - direction).squaredNorm() < kCoincident * kCoincident) {
            continue;
        }
        sum += shape_.displacement(load.complianceForce, load.direction, load.length, direction, length);
    }
    return sum;
}

}  // namespace granular::mcdem
