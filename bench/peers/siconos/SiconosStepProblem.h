#pragma once
// One contact-dynamics step handed to Siconos (numerics 4.4) as its frictional contact problem, for the Siconos peer
// bench and test: u = W r + q, r in the Coulomb cone, with r the contact impulses R dt in each contact's frame
// (n, t1, t2), W = H M^-1 H^T from the grains' masses, inertias and lever arms in 3x3 blocks, q the free relative
// velocity (Unger & Kertesz 2003, eq. 23 without contact forces) plus g_pos/dt along n (eq. 34's gap).
#include "cd/PredictedMotion.h"
#include "contact/ContactDetection.h"
#include "model/World.h"
#include "settings/Settings.h"
#include "sim/Simulation.h"

#include <FrictionContactProblem.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <SparseBlockMatrix.h>
#include <fc3d_Solvers.h>
#include <fc3d_compute_error.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace granular::siconos_peer {

using Mat3 = Eigen::Matrix3d;

/// A contact's frame: columns n, t1, t2 (orthonormal, right-handed).
inline Mat3 contactFrame(const Vec3& n)
{
    Vec3 axis = Vec3::Zero();
    Eigen::Index smallest = 0;
    n.cwiseAbs().minCoeff(&smallest);
    axis[smallest] = 1.0;
    const Vec3 t1 = n.cross(axis).normalized();
    Mat3 frame;
    frame.col(0) = n;
    frame.col(1) = t1;
    frame.col(2) = n.cross(t1);
    return frame;
}

/// [a]x, the matrix of a x (.).
inline Mat3 crossMatrix(const Vec3& a)
{
    Mat3 m;
    m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
    return m;
}

/// The world of `simulation` with the contacts that the next step's detection finds (their forces: the previous
/// step's, the warm start).
inline World nextStepContacts(const Simulation& simulation)
{
    World world = simulation.world();
    const Settings& settings = simulation.settings();
    ContactDetection detection;
    detection.update(world, candidateMargin(world, settings.solver.dt, settings.contact.margin));
    return world;
}

/// The step's problem in Siconos's form, with what ties it to ours.
class StepProblem {
public:
    /// For the contacts of `detected` (normals, levers, gaps, effective masses and warm-start forces as detected for
    /// the step), friction from `contact`, time step dt (s).
    StepProblem(const World& detected, const ContactSettings& contact, double dt);
    ~StepProblem()
    {
        problem_->q = nullptr;  // owned by q_ and mu_
        problem_->mu = nullptr;
        frictionContactProblem_free(problem_);
    }
    StepProblem(const StepProblem&) = delete;
    StepProblem& operator=(const StepProblem&) = delete;
    StepProblem(StepProblem&&) = delete;
    StepProblem& operator=(StepProblem&&) = delete;

    [[nodiscard]] std::size_t contacts() const { return frames_.size(); }
    /// Non-zero 3x3 blocks of W.
    [[nodiscard]] std::size_t blocks() const { return blocks_; }
    /// The largest relative difference of W's diagonal blocks from diag(1/m_n, 1/m_t, 1/m_t) (eq. 17-18).
    [[nodiscard]] double effectiveMassError() const { return effectiveMassError_; }
    /// N s, the warm start's impulses (the detected forces times dt) in the contact frames.
    [[nodiscard]] const std::vector<double>& warmStart() const { return warmStart_; }
    /// The problem for Siconos's solvers.
    [[nodiscard]] FrictionContactProblem* siconos() const { return problem_; }
    /// N s, the impulses R dt of forces R (N) of `contacts` (the detected ones, in the same order) in the frames.
    [[nodiscard]] std::vector<double> impulses(const std::vector<Contact>& contacts, double dt) const
    {
        std::vector<double> r;
        r.reserve(3 * frames_.size());
        for (std::size_t a = 0; a < frames_.size(); ++a) {
            const Vec3 impulse = frames_[a].transpose() * (dt * contacts[a].force);
            r.insert(r.end(), {impulse.x(), impulse.y(), impulse.z()});
        }
        return r;
    }
    /// Siconos's error of impulses r (fc3d_compute_error: the normal-map residual of r and u = W r + q, over |q|).
    [[nodiscard]] double error(std::vector<double> r) const
    {
        std::vector<double> u(r.size(), 0.0);
        double norm = 0.0;
        for (const double qi : q_) {
            norm += qi * qi;
        }
        SolverOptions* options = solver_options_create(SICONOS_FRICTION_3D_NSGS);
        double error = 0.0;
        fc3d_compute_error(problem_, r.data(), u.data(), 0.0, options, std::sqrt(norm), &error);
        solver_options_delete(options);
        return error;
    }

private:
    /// One end of a contact on a grain: the contact, its sign (+1: body 1, -1: body 0) and its lever arm.
    struct ContactEnd {
        std::size_t contact = 0;
        double sign = 0.0;
        Vec3 lever = Vec3::Zero();
    };

    std::vector<Mat3> frames_;
    std::vector<double> q_;          ///< m/s, 3 per contact
    std::vector<double> mu_;         ///< 1
    std::vector<double> warmStart_;  ///< N s
    std::size_t blocks_ = 0;
    double effectiveMassError_ = 0.0;
    FrictionContactProblem* problem_ = nullptr;
};

inline StepProblem::StepProblem(const World& detected, const ContactSettings& contact, double dt)
{
    const auto& contacts = detected.contacts;
    PredictedMotion free;
    free.predict(detected, dt);
    const std::size_t n = 3 * contacts.size();
    frames_.resize(contacts.size());
    q_.resize(n);
    mu_.resize(contacts.size());
    warmStart_.resize(n);
    std::vector<std::vector<ContactEnd>> ends(detected.particles.size());
    for (std::size_t a = 0; a < contacts.size(); ++a) {
        const Contact& c = contacts[a];
        const Mat3 frame = contactFrame(c.normal);
        frames_[a] = frame;
        Vec3 local = frame.transpose() * free.contactVelocity(c);
        local.x() += std::max(c.gap, 0.0) / dt;  // eq. 34: the gap may close within the step
        const Vec3 impulse = frame.transpose() * (dt * c.force);
        for (std::size_t k = 0; k < 3; ++k) {
            q_[3 * a + k] = local[static_cast<Eigen::Index>(k)];
            warmStart_[3 * a + k] = impulse[static_cast<Eigen::Index>(k)];
        }
        mu_[a] = contact.frictionFor(c.kind == ContactKind::Particle);
        ends[static_cast<std::size_t>(c.particle)].push_back({a, 1.0, c.lever1});
        if (c.kind == ContactKind::Particle) {
            ends[static_cast<std::size_t>(c.partner)].push_back({a, -1.0, c.lever0});
        }
    }
    // W_ab = sum over the grains that a and b share of s_a s_b F_a^T (1/m - [l_a]x I^-1 [l_b]x) F_b.
    NumericsMatrix* triplets = NM_create(NM_SPARSE, static_cast<int>(n), static_cast<int>(n));
    NM_triplet_alloc(triplets, static_cast<CS_INT>(contacts.size() * 9 * 12));
    std::vector<std::pair<std::size_t, Mat3>> row;
    for (std::size_t a = 0; a < contacts.size(); ++a) {
        const Contact& c = contacts[a];
        row.clear();
        const std::array<std::int32_t, 2> grains{c.particle, c.kind == ContactKind::Particle ? c.partner : -1};
        for (const std::int32_t grain : grains) {
            if (grain < 0) {
                continue;
            }
            const auto& list = ends[static_cast<std::size_t>(grain)];
            const auto self =
                std::find_if(list.begin(), list.end(), [a](const ContactEnd& e) { return e.contact == a; });
            const double inverseMass = 1.0 / detected.particles.mass[static_cast<std::size_t>(grain)];
            const double inverseInertia = 1.0 / detected.particles.inertia[static_cast<std::size_t>(grain)];
            const Mat3 leverA = crossMatrix(self->lever);
            for (const ContactEnd& other : list) {
                const Mat3 coupling = (self->sign * other.sign) * (inverseMass * Mat3::Identity() -
                                                                   inverseInertia * leverA * crossMatrix(other.lever));
                const Mat3 block = frames_[a].transpose() * coupling * frames_[other.contact];
                const auto same = std::find_if(row.begin(), row.end(),
                                               [&other](const auto& entry) { return entry.first == other.contact; });
                if (same == row.end()) {
                    row.emplace_back(other.contact, block);
                } else {
                    same->second += block;
                }
            }
        }
        for (const auto& [b, block] : row) {
            for (int i = 0; i < 3; ++i) {
                for (int j = 0; j < 3; ++j) {
                    NM_entry(triplets, static_cast<int>(3 * a) + i, static_cast<int>(3 * b) + j, block(i, j));
                }
            }
            if (b == a) {
                const double mn = block(0, 0) * c.normalMass;
                const double mt = std::max(block(1, 1), block(2, 2)) * c.tangentialMass;
                effectiveMassError_ = std::max({effectiveMassError_, std::fabs(mn - 1.0), std::fabs(mt - 1.0)});
            }
        }
        blocks_ += row.size();
    }
    // Siconos's NSGS reads W row by row from its sparse-block storage.
    SparseBlockStructuredMatrix* sparseBlocks = SBM_new();
    if (SBM_from_csparse(3, NM_csc(triplets), sparseBlocks) != 0) {
        NM_free(triplets);
        throw std::runtime_error("Siconos could not convert W to sparse-block storage");
    }
    NM_free(triplets);
    problem_ = frictionContactProblem_new();
    problem_->dimension = 3;
    problem_->numberOfContacts = static_cast<int>(contacts.size());
    problem_->M = NM_new_SBM(static_cast<int>(n), static_cast<int>(n), sparseBlocks);
    problem_->q = q_.data();
    problem_->mu = mu_.data();
}

}  // namespace granular::siconos_peer
