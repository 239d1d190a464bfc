#include "mcdem/MultiContactDeformation.h"

#include "model/World.h"
#include "settings/Settings.h"
#include "util/StateArchive.h"

#include <algorithm>
#include <limits>

namespace granular::mcdem {

namespace {

/// Below this |n_k - n_c| two contact points coincide: a contact of the grain in the same direction as the one
/// asked about (e.g. a grain against a wall and a neighbour at the same spot) would act as its own indentation.
constexpr double kCoincident = 1e-3;

/// Whether a candidate pressed at the last evaluation.
bool isLoaded(const md::ContactMemory& m)
{
    return m.overlap > 0.0 && m.elasticForce > 0.0;
}

/// Where the last evaluation put a candidate's contact point, seen from its body `side`, grain `grain`: midway between
/// the deformed surfaces, r + bulge - overlap / 2 from the centre (m).
double pointDistance(const Particles& p, const md::ContactMemory& m, std::size_t grain, std::size_t side)
{
    return p.radius[grain] + m.bulge[side] - 0.5 * m.overlap;
}

/// The grain on a candidate's side 0 (body 0, the partner) or side 1 (body 1).
std::size_t grainOf(const Contact& c, std::size_t side)
{
    return static_cast<std::size_t>(side == 0 ? c.partner : c.particle);
}

/// The first side of a candidate that is a grain: 0 for a grain pair, 1 for a wall, piston or drum contact.
std::size_t firstSide(const Contact& c)
{
    return c.kind == ContactKind::Particle ? std::size_t{0} : std::size_t{1};
}

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
    boundAhead_ = false;
}

void MultiContactDeformation::saveState(StateWriter& out) const
{
    out.put(reach_);  // the bulges themselves are recomputed from the contacts' memories at every evaluation
}

void MultiContactDeformation::loadState(StateReader& in)
{
    reach_ = in.get<double>();
    boundAhead_ = false;
}

double MultiContactDeformation::reachAhead(const World& world, const std::vector<md::ContactMemory>& memory)
{
    bound(world, memory);
    boundAhead_ = true;
    return reach_;
}

void MultiContactDeformation::bound(const World& world, const std::vector<md::ContactMemory>& memory)
{
    const auto& p = world.particles;
    const auto& contacts = world.contacts;
    const std::size_t n = p.size();
    // An upper bound of each grain's bulge anywhere: at most (3 - 2 nu) / (L_c + L_k) per unit compliance and
    // force (opposite poles give exactly that), and L_c + L_k >= 1.8 times the nearest loaded point.
    const double compliance = shape_.compliance(gamma_, youngModulus_);
    std::vector<double> loadSum(n, 0.0);
    std::vector<double> nearest(n, std::numeric_limits<double>::infinity());
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        if (!isLoaded(memory[k])) {
            continue;
        }
        for (std::size_t side = firstSide(contacts[k]); side < 2; ++side) {
            const std::size_t g = grainOf(contacts[k], side);
            loadSum[g] += compliance * memory[k].elasticForce;
            nearest[g] = std::min(nearest[g], pointDistance(p, memory[k], g, side));
        }
    }
    largestBulge_.assign(n, 0.0);
    double largest = 0.0;
    for (std::size_t g = 0; g < n; ++g) {
        if (loadSum[g] > 0.0) {
            largestBulge_[g] = shape_.largestShape() * loadSum[g] / (1.8 * nearest[g]);
            largest = std::max(largest, largestBulge_[g]);
        }
    }
    reach_ = 2.0 * largest;
}

void MultiContactDeformation::update(const World& world, const std::vector<md::ContactMemory>& memory)
{
    const auto& p = world.particles;
    const auto& contacts = world.contacts;
    const std::size_t n = p.size();
    bulges_.assign(contacts.size(), {0.0, 0.0});
    if (!boundAhead_) {
        bound(world, memory);
    }
    boundAhead_ = false;
    if (reach_ == 0.0) {
        return;  // nothing presses, or gamma = 0: independent contacts
    }
    const double compliance = shape_.compliance(gamma_, youngModulus_);
    // The points: every side of a loaded candidate, and of any candidate the grains' bulges could close.
    const auto isPoint = [&](std::size_t k) {
        const Contact& c = contacts[k];
        const double reachable = c.kind == ContactKind::Particle
                                     ? largestBulge_[static_cast<std::size_t>(c.partner)] +
                                           largestBulge_[static_cast<std::size_t>(c.particle)]
                                     : largestBulge_[static_cast<std::size_t>(c.particle)];
        return isLoaded(memory[k]) || c.gap < reachable;
    };
    Points& pts = points_;
    pts.first.assign(n + 1, 0);
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        if (isPoint(k)) {
            for (std::size_t side = firstSide(contacts[k]); side < 2; ++side) {
                ++pts.first[grainOf(contacts[k], side) + 1];
            }
        }
    }
    for (std::size_t g = 0; g < n; ++g) {
        pts.first[g + 1] += pts.first[g];
    }
    const std::size_t total = pts.first[n];
    for (auto* v : {&pts.x, &pts.y, &pts.z, &pts.length, &pts.complianceForce, &pts.bulge}) {
        v->assign(total, 0.0);
    }
    pts.slot.assign(total, 0);
    std::vector<std::uint32_t> next(pts.first.begin(), pts.first.end() - 1);
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        if (!isPoint(k)) {
            continue;
        }
        const Contact& c = contacts[k];
        const double force = isLoaded(memory[k]) ? compliance * memory[k].elasticForce : 0.0;
        for (std::size_t side = firstSide(c); side < 2; ++side) {
            const std::size_t g = grainOf(c, side);
            const std::uint32_t i = next[g]++;
            const Vec3 direction = side == 0 ? Vec3(c.normal) : Vec3(-c.normal);  // the normal points 0 -> 1
            pts.x[i] = direction.x();
            pts.y[i] = direction.y();
            pts.z[i] = direction.z();
            pts.length[i] = pointDistance(p, memory[k], g, side);
            pts.complianceForce[i] = force;
            pts.slot[i] = static_cast<std::uint32_t>(2 * k + side);
        }
    }
    for (std::size_t g = 0; g < n; ++g) {
        accumulateBulges(g);
    }
    for (std::size_t i = 0; i < total; ++i) {
        bulges_[pts.slot[i] / 2][pts.slot[i] % 2] = pts.bulge[i];
    }
}

void MultiContactDeformation::accumulateBulges(std::size_t grain)
{
    Points& pts = points_;
    const std::uint32_t end = pts.first[grain + 1];
    for (std::uint32_t a = pts.first[grain]; a < end; ++a) {
        for (std::uint32_t b = a + 1; b < end; ++b) {
            const double fa = pts.complianceForce[a];
            const double fb = pts.complianceForce[b];
            if (fa == 0.0 && fb == 0.0) {
                continue;
            }
            const double s = pts.x[a] * pts.x[b] + pts.y[a] * pts.y[b] + pts.z[a] * pts.z[b];
            // Two points in (nearly) the same direction: the same spot, where the formula is the indentation
            // under the load itself, not a bulge.
            if (s > 1.0 - 0.5 * kCoincident * kCoincident) {
                continue;
            }
            const auto [atB, atA] = shape_.mutualDisplacements(s, pts.length[a], pts.length[b]);
            pts.bulge[b] += fa * atB;
            pts.bulge[a] += fb * atA;
        }
    }
}

}  // namespace granular::mcdem
