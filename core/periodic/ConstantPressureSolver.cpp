#include "periodic/ConstantPressureSolver.h"

#include "cd/ShockLaw.h"
#include "cd/SweepConvergence.h"
#include "contact/ContactVelocity.h"
#include "model/World.h"
#include "util/Random.h"

#include <algorithm>
#include <cmath>

namespace granular {

void ConstantPressureSolver::predictFreeMotion(const World& world, double dt)
{
    const auto& p = world.particles;
    const std::size_t n = p.size();
    velocity_.resize(n);
    angularVelocity_.resize(n);
    mass_.assign(p.mass.begin(), p.mass.end());
    inverseMass_.resize(n);
    inverseInertia_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        inverseMass_[i] = 1.0 / p.mass[i];
        inverseInertia_[i] = 1.0 / p.inertia[i];
        velocity_[i] = p.velocity[i] + dt * (world.gravity + p.externalForce[i] * inverseMass_[i]);
        angularVelocity_[i] = p.angularVelocity[i];
    }
}

void ConstantPressureSolver::applyImpulse(const Contact& c, const Vec3& dR, double dt)
{
    const auto j = static_cast<std::size_t>(c.particle);
    const auto i = static_cast<std::size_t>(c.partner);
    velocity_[j] += (dt * inverseMass_[j]) * dR;
    angularVelocity_[j] += (dt * inverseInertia_[j]) * c.lever1.cross(dR);
    velocity_[i] -= (dt * inverseMass_[i]) * dR;
    angularVelocity_[i] -= (dt * inverseInertia_[i]) * c.lever0.cross(dR);
}

double ConstantPressureSolver::kineticVirial() const
{
    double sum = 0.0;
    for (std::size_t i = 0; i < velocity_.size(); ++i) {
        sum += mass_[i] * velocity_[i].squaredNorm();
    }
    return sum;
}

Mat3 ConstantPressureSolver::kineticTensor() const
{
    Mat3 sum = Mat3::Zero();
    for (std::size_t i = 0; i < velocity_.size(); ++i) {
        sum.noalias() += mass_[i] * velocity_[i] * velocity_[i].transpose();
    }
    return sum;
}

void ConstantPressureSolver::updateExpectations(double dt, const PressureCoupling& coupling)
{
    expectedInnerPressure_ = pressureScale_ * virial_;  // eq. 27 / 32
    expectedDilationRate_ =
        dilationRate0_ + (expectedInnerPressure_ - coupling.externalPressure) * dt / coupling.inertia;  // eq. 28
}

void ConstantPressureSolver::updateTensorExpectations(double dt, const PressureCoupling& coupling)
{
    expectedStress_ = (0.5 * inverseVolume_) * (virialTensor_ + virialTensor_.transpose());  // eq. 20
    expectedInnerPressure_ = expectedStress_.trace() / dimension_;  // in 2D sigma_zz = 0 (l_z = v_z = 0)
    expectedStrainRate_ = strainRate0_;
    expectedStrainRate_.diagonal().array() -= coupling.externalPressure * dt / coupling.inertia;
    expectedStrainRate_ += (dt / coupling.inertia) * expectedStress_;
    if (dimension_ == 2) {
        expectedStrainRate_(2, 2) = 0.0;  // no z direction to drive
    }
}

ConstantPressureSolver::Result ConstantPressureSolver::solve(World& world, const SolverSettings& settings,
                                                             const PressureCoupling& coupling, Random& random)
{
    const PeriodicCell& cell = *world.cell;
    predictFreeMotion(world, settings.dt);
    dimension_ = cell.dimension;
    inverseVolume_ = 1.0 / cell.volume();
    pressureScale_ = 1.0 / (static_cast<double>(cell.dimension) * cell.volume());
    dilationRate0_ = cell.dilationRate();
    strainRate0_ = cell.strainRate;
    auto& contacts = world.contacts;
    branch_.resize(contacts.size());
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const Contact& c = contacts[k];
        const auto i = static_cast<std::size_t>(c.partner);
        const auto j = static_cast<std::size_t>(c.particle);
        branch_[k] = (world.particles.radius[i] + world.particles.radius[j] + c.gap) * c.normal;
    }
    if (coupling.shape == CellShape::Free) {
        return iterate<CellShape::Free>(world, settings, coupling, random);
    }
    const Result result = iterate<CellShape::Fixed>(world, settings, coupling, random);
    expectedStrainRate_.setZero();
    expectedStrainRate_.topLeftCorner(dimension_, dimension_).diagonal().setConstant(expectedDilationRate_);
    expectedStress_.setZero();  // only the trace is tracked while the shape is fixed
    return result;
}

template <CellShape Shape>
ConstantPressureSolver::Result ConstantPressureSolver::iterate(World& world, const SolverSettings& settings,
                                                               const PressureCoupling& coupling, Random& random)
{
    constexpr bool free = Shape == CellShape::Free;
    const double dt = settings.dt;
    const bool fullyImplicit = coupling.variant == PressureVariant::FullyImplicit;
    const auto update = [&] {
        if constexpr (free) {
            updateTensorExpectations(dt, coupling);
        } else {
            updateExpectations(dt, coupling);
        }
    };

    // The partially implicit variant keeps the old velocities' term of eq. 32, sum_i m_i v_i(t) v_i(t), for
    // the whole step.
    virial_ = 0.0;
    virialTensor_.setZero();
    if (!fullyImplicit) {
        for (std::size_t i = 0; i < world.particles.size(); ++i) {
            const Vec3& v = world.particles.velocity[i];
            if constexpr (free) {
                virialTensor_.noalias() += mass_[i] * v * v.transpose();
            } else {
                virial_ += mass_[i] * v.squaredNorm();
            }
        }
    }
    auto& contacts = world.contacts;
    const std::size_t count = contacts.size();
    for (std::size_t k = 0; k < count; ++k) {
        const Contact& c = contacts[k];
        applyImpulse(c, c.force, dt);  // warm start: the previous step's forces
        if constexpr (free) {
            virialTensor_.noalias() += c.force * branch_[k].transpose();
        } else {
            virial_ += c.force.dot(branch_[k]);
        }
    }
    if (fullyImplicit) {  // with the warm-started velocities v_i* (eq. 27)
        if constexpr (free) {
            virialTensor_ += kineticTensor();
        } else {
            virial_ += kineticVirial();
        }
    }
    update();  // the one full sum of the step; the sweeps only add increments

    Result result;
    if (count == 0) {
        return result;
    }
    resetSweepOrder(order_, count);
    SweepConvergence convergence(contacts, settings.forceCutoff);
    const auto kinetic = [&](std::size_t i, std::size_t j) {
        if constexpr (free) {
            return Mat3(mass_[i] * velocity_[i] * velocity_[i].transpose() +
                        mass_[j] * velocity_[j] * velocity_[j].transpose());
        } else {
            return mass_[i] * velocity_[i].squaredNorm() + mass_[j] * velocity_[j].squaredNorm();
        }
    };

    while (result.iterations < settings.iterations) {
        shuffleSweepOrder(order_, random);
        for (const std::uint32_t a : order_) {
            Contact& c = contacts[a];
            const auto i = static_cast<std::size_t>(c.partner);
            const auto j = static_cast<std::size_t>(c.particle);
            const Vec3& l = branch_[a];
            const Vec3 free0 = freeRelativeVelocity(c, contactPointVelocity(c, velocity_, angularVelocity_, 0.0), dt);
            // Eq. 29-31: the deformation of the cell adds lambda* l (Lambda* l) to the free relative velocity.
            Vec3 affine;
            if constexpr (free) {
                affine = expectedStrainRate_ * l;
            } else {
                affine = expectedDilationRate_ * l;
            }
            const Vec3 R = shockLaw(free0 + affine, c.normal, c.gap, c.normalMass, c.tangentialMass,
                                    settings.frictionFor(true), dt);
            const Vec3 dR = R - c.force;
            if (fullyImplicit) {
                const auto before = kinetic(i, j);
                applyImpulse(c, dR, dt);
                const auto after = kinetic(i, j);
                if constexpr (free) {
                    virialTensor_.noalias() += dR * l.transpose();
                    virialTensor_ += after - before;  // the three changed terms of eq. 27
                } else {
                    virial_ += dR.dot(l) + (after - before);  // the three changed terms of eq. 27
                }
            } else {
                applyImpulse(c, dR, dt);
                if constexpr (free) {
                    virialTensor_.noalias() += dR * l.transpose();  // the one changed term of eq. 32
                } else {
                    virial_ += dR.dot(l);  // the one changed term of eq. 32
                }
            }
            update();
            c.force = R;
            convergence.record(R, dR);
        }
        ++result.iterations;
        result.residual = convergence.finishSweep(count, settings.criterion);
        if (settings.criterion != ConvergenceCriterion::Fixed && result.residual <= settings.tolerance) {
            break;
        }
    }
    return result;
}

}  // namespace granular
