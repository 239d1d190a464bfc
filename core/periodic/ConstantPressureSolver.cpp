#include "periodic/ConstantPressureSolver.h"

#include "model/World.h"
#include "util/Random.h"

#include <algorithm>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

namespace granular {

/// The periodic cell's terms of the sweep. The virial of eq. 27 (fully implicit: the expected new
/// velocities) or eq. 32 (partially implicit: the old ones) is a scalar sum_k F_k . l_k + sum_i m_i v_i . v_i
/// while the shape is fixed and the tensor sum_k F_k l_k^T + sum_i m_i v_i v_i^T while it is free; it is
/// summed once per step and then corrected by each update's increment.
template <CellShape Shape> struct ConstantPressureSolver::CellTerms {
    static constexpr bool kFree = Shape == CellShape::Free;
    /// finishColour() adds the colour's virial increments and updates the expectations.
    static constexpr bool kFinishesColours = true;
    /// The shock law sees lambda* l added to the relative velocity: no updates side by side.
    static constexpr bool kPlainUpdates = false;
    using Virial = std::conditional_t<kFree, Mat3, double>;

    /// 0 as a virial (an Eigen matrix is not zeroed by construction).
    static Virial zero()
    {
        if constexpr (kFree) {
            return Mat3::Zero();
        } else {
            return 0.0;
        }
    }

    const World& world;
    const std::vector<Vec3>& branch;
    const ContactSettings& contact;
    const PressureSettings& pressure;
    const PredictedMotion& motion;
    double dt = 0.0;  ///< s
    int dimension = 3;
    double inverseVolume = 0.0;                   ///< 1/V of eq. 20
    double pressureScale = 0.0;                   ///< 1/(D V) of eq. 22
    double dilationRate0 = 0.0;                   ///< 1/s, lambda(t)
    Mat3 strainRate0 = Mat3::Zero();              ///< 1/s, Lambda(t)
    Virial virial = zero();                       ///< J
    double responseRate = dt / pressure.inertia;  ///< 1/(Pa s), dt / M_lambda of eq. 28
    double expectedDilationRate = 0.0;
    Mat3 expectedStrainRate = Mat3::Zero();
    Mat3 expectedStress = Mat3::Zero();
    double expectedInnerPressure = 0.0;

    [[nodiscard]] bool fullyImplicit() const { return pressure.variant == PressureVariant::FullyImplicit; }

    /// m_i v_i . v_i (or m_i v_i v_i^T) of grain i at velocity v.
    [[nodiscard]] Virial kinetic(std::size_t i, const Vec3& v) const
    {
        const double m = world.particles.mass[i];
        if constexpr (kFree) {
            return Mat3(m * v * v.transpose());
        } else {
            return m * v.squaredNorm();
        }
    }

    /// F l (or F l^T) of a contact.
    [[nodiscard]] static Virial contactTerm(const Vec3& force, const Vec3& l)
    {
        if constexpr (kFree) {
            return Mat3(force * l.transpose());
        } else {
            return force.dot(l);
        }
    }

    /// Recomputes P_in* and lambda* (eq. 22/27 and 28), or sigma*, P_in* and Lambda* (eq. 20, 22 and the
    /// tensor form of 28), from the virial.
    void updateExpectations()
    {
        if constexpr (kFree) {
            expectedStress = (0.5 * inverseVolume) * (virial + virial.transpose());  // eq. 20
            expectedInnerPressure = expectedStress.trace() / dimension;  // in 2D sigma_zz = 0 (l_z = v_z = 0)
            expectedStrainRate = strainRate0;
            expectedStrainRate.diagonal().array() -= pressure.externalPressure * dt / pressure.inertia;
            expectedStrainRate += (dt / pressure.inertia) * expectedStress;
            if (dimension == 2) {
                expectedStrainRate(2, 2) = 0.0;  // no z direction to drive
            }
        } else {
            expectedInnerPressure = pressureScale * virial;  // eq. 27 / 32
            // eq. 28; dt / M_lambda once per step: this runs after every update, on the sweep's critical path
            expectedDilationRate = dilationRate0 + (expectedInnerPressure - pressure.externalPressure) * responseRate;
        }
    }

    void warmStarted(std::size_t k, const Contact& c) { addTo(virial, contactTerm(c.force, branch[k])); }

    /// The coloured sweep's: the most contacts a colour may hold. A colour's updates all read the lambda* (Lambda*)
    /// of its start and change it together, a Jacobi step on the cell, where eq. 27-28 update it after every contact.
    /// A contact's force answers a change of lambda* with the loop gain m_n |l|^2 / (D V M_lambda), or of Lambda* with
    /// m_n |l|^2 / (V M_lambda) in a free cell (its normal velocity changes by l . n dlambda, its force by m_n times
    /// that per dt, and lambda* by the force's virial times dt / (D V M_lambda)); a colour adds its members'. Above ~1
    /// the cell overshoots: with M_lambda = 0.01, periodic2d's cell blew up. Colours are cut so that their gain stays
    /// below 1/2.
    [[nodiscard]] std::size_t mostPerColour(const std::vector<Contact>& contacts) const
    {
        const auto& mass = world.particles.mass;
        double largest = 0.0;  // kg m^2, of m_n |l|^2
        for (std::size_t k = 0; k < contacts.size(); ++k) {
            const double inverse = 1.0 / mass[static_cast<std::size_t>(contacts[k].partner)] +
                                   1.0 / mass[static_cast<std::size_t>(contacts[k].particle)];
            if (inverse > 0.0) {  // not two fixed grains
                largest = std::max(largest, branch[k].squaredNorm() / inverse);
            }
        }
        // lambda* follows P = tr(sigma) / D (fixed shape); Lambda* follows sigma itself (free shape): no 1/D there.
        const double gain = largest * (kFree ? inverseVolume : pressureScale) * responseRate / dt;
        constexpr double kMostGain = 0.5;
        if (!(gain * static_cast<double>(contacts.size()) > kMostGain)) {
            return std::numeric_limits<std::size_t>::max();  // no colour can reach it
        }
        return std::max<std::size_t>(1, static_cast<std::size_t>(kMostGain / gain));
    }

    void prepare(const PredictedMotion& predicted)
    {
        if (fullyImplicit()) {  // with the warm-started velocities v_i* (eq. 27)
            Virial sum = zero();
            for (std::size_t i = 0; i < predicted.size(); ++i) {
                addTo(sum, kinetic(i, predicted.velocity(i)));
            }
            addTo(virial, sum);
        }
        updateExpectations();  // the one full sum of the step; the sweeps only add increments
    }

    /// Eq. 29-31: the deformation of the cell adds lambda* l (Lambda* l) to the relative velocity.
    template <class Vec> [[nodiscard]] Vec relativeVelocity(std::size_t a, const Vec& V) const
    {
        if constexpr (kFree) {
            return V + inSpace<Vec>(components(expectedStrainRate * branch[a]));
        } else {
            return V + inSpace<Vec>(components(expectedDilationRate * branch[a]));
        }
    }

    [[nodiscard]] double friction(const Contact& /*c*/) const { return contact.frictionFor(true); }

    template <class Vec, class Apply>
    void update(std::size_t a, const SweepContact& s, const ForceChangeOf<Vec>& d, Apply&& apply)
    {
        const Vec3& l = branch[a];
        const Vec3 dR = toVec3(d.vector);
        const Virial kineticChange = applyWithKineticChange(s, apply);
        if (fullyImplicit()) {
            if constexpr (kFree) {
                virial.noalias() += dR * l.transpose();
                virial += kineticChange;  // the three changed terms of eq. 27
            } else {
                virial += dR.dot(l) + kineticChange;  // the three changed terms of eq. 27
            }
        } else {
            if constexpr (kFree) {
                virial.noalias() += dR * l.transpose();  // the one changed term of eq. 32
            } else {
                virial += dR.dot(l);  // the one changed term of eq. 32
            }
        }
        updateExpectations();
    }

    /// The coloured sweep's: each contact's virial increment waits in `increments` until its colour is done.
    void prepareColours(std::size_t count) { increments.resize(count); }

    /// The coloured sweep's update (any solver thread): the increment of the virial, as in update(), but kept
    /// apart; the expectations stay those of the colour's start.
    template <class Vec, class Apply>
    void updateInColour(std::size_t a, const SweepContact& s, const ForceChangeOf<Vec>& d, Apply&& apply)
    {
        const Vec3& l = branch[a];
        const Vec3 dR = toVec3(d.vector);
        const Virial kineticChange = applyWithKineticChange(s, apply);
        // The three changed terms of eq. 27, or the one of eq. 32.
        increments[a] = fullyImplicit() ? Virial(contactTerm(dR, l) + kineticChange) : contactTerm(dR, l);
    }

    /// After a colour: its increments in ascending contact index, then lambda* and P_in* (or Lambda*, sigma*).
    void finishColour(std::span<const std::uint32_t> members)
    {
        for (const std::uint32_t a : members) {
            addTo(virial, increments[a]);
        }
        updateExpectations();
    }

    std::vector<Virial> increments{};  ///< J, the coloured sweep's per contact

private:
    /// Applies an update (`apply`) and returns what it changed of the virial's kinetic part: the contact's two
    /// grains' m v . v (m v v^T) of eq. 27 in the fully implicit variant, nothing in the partially implicit one.
    template <class Apply>
    [[gnu::always_inline]] Virial applyWithKineticChange(const SweepContact& s, Apply&& apply) const
    {
        if (!fullyImplicit()) {
            apply();
            return zero();
        }
        const auto i = static_cast<std::size_t>(s.body0);
        const auto j = static_cast<std::size_t>(s.body1);
        const Virial before = pairKinetic(i, j);
        apply();
        return pairKinetic(i, j) - before;
    }

    [[nodiscard]] [[gnu::always_inline]] Virial pairKinetic(std::size_t i, std::size_t j) const
    {
        const Vec3 vi = motion.velocity(i);
        const Vec3 vj = motion.velocity(j);
        const double mi = world.particles.mass[i];
        const double mj = world.particles.mass[j];
        if constexpr (kFree) {
            return Mat3(mi * vi * vi.transpose() + mj * vj * vj.transpose());
        } else {
            return mi * vi.squaredNorm() + mj * vj.squaredNorm();
        }
    }

    static void addTo(Virial& sum, const Virial& term)
    {
        if constexpr (kFree) {
            sum.noalias() += term;
        } else {
            sum += term;
        }
    }
};

namespace {

template <class Terms>
SweepResult iterate(World& world, Terms& terms, const SolverSettings& solver, Random& random, PredictedMotion& motion,
                    SweepWorkspace& workspace)
{
    // The partially implicit variant keeps the old velocities' term of eq. 32, sum_i m_i v_i(t) v_i(t), for
    // the whole step; it comes first in the sum, before the warm start's contact terms.
    if (!terms.fullyImplicit()) {
        for (std::size_t i = 0; i < world.particles.size(); ++i) {
            if constexpr (Terms::kFree) {
                const Vec3& v = world.particles.velocity[i];
                terms.virial.noalias() += world.particles.mass[i] * v * v.transpose();
            } else {
                terms.virial += terms.kinetic(i, world.particles.velocity[i]);
            }
        }
    }
    return gaussSeidelSweeps(world.contacts, world.particles, world.dimension, solver, random, motion, workspace,
                             terms);
}

}  // namespace

SweepResult ConstantPressureSolver::solve(World& world, const SolverSettings& solver, const ContactSettings& contact,
                                          const PressureSettings& pressure, Random& random)
{
    const PeriodicCell& cell = *world.cell;
    motion_.predict(world, solver.dt);
    auto& contacts = world.contacts;
    branch_.resize(contacts.size());
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const Contact& c = contacts[k];
        const auto i = static_cast<std::size_t>(c.partner);
        const auto j = static_cast<std::size_t>(c.particle);
        branch_[k] = (world.particles.radius[i] + world.particles.radius[j] + c.gap) * c.normal;
    }
    const auto start = [&]<CellShape Shape>() {
        return CellTerms<Shape>{world,
                                branch_,
                                contact,
                                pressure,
                                motion_,
                                solver.dt,
                                cell.dimension,
                                1.0 / cell.volume(),
                                1.0 / (static_cast<double>(cell.dimension) * cell.volume()),
                                cell.dilationRate(),
                                cell.strainRate};
    };
    if (pressure.shape == CellShape::Free) {
        auto terms = start.operator()<CellShape::Free>();
        const SweepResult result = iterate(world, terms, solver, random, motion_, workspace_);
        expectedStrainRate_ = terms.expectedStrainRate;
        expectedStress_ = terms.expectedStress;
        expectedInnerPressure_ = terms.expectedInnerPressure;
        return result;
    }
    auto terms = start.operator()<CellShape::Fixed>();
    const SweepResult result = iterate(world, terms, solver, random, motion_, workspace_);
    expectedDilationRate_ = terms.expectedDilationRate;
    expectedInnerPressure_ = terms.expectedInnerPressure;
    expectedStrainRate_.setZero();
    expectedStrainRate_.topLeftCorner(cell.dimension, cell.dimension).diagonal().setConstant(expectedDilationRate_);
    expectedStress_.setZero();  // only the trace is tracked while the shape is fixed
    return result;
}

}  // namespace granular
