// Contact dynamics against Siconos (Debian libsiconos-numerics-dev 4.4, fc3d NSGS) on one and the same frictional
// contact problem: the 20,000-sphere packing of bench_contact_dynamics after its 100 untimed steps. The step's
// problem (Jean-Moreau, Unger & Kertesz 2003 eq. 23 and 34) is handed to Siconos as u = W r + q, r in the Coulomb
// cone, with r the contact impulses R dt in each contact's frame (n, t1, t2), W = H M^-1 H^T assembled from the
// grains' masses, inertias and lever arms, q the free relative velocity plus g_pos/dt along n, and our warm start
// (the previous step's forces) as Siconos's starting point. Both solvers then make the same number of Gauss-Seidel
// sweeps (ours in a fresh random order each, Siconos in one random order: see runSiconos); the figure is contact
// updates (one-contact solves) per second, and Siconos's own error measure (fc3d_compute_error, the normal-map
// residual relative to |q|) judges both results. A last row gives the sweeps and time ours needs to reach Siconos's
// error. Our time is the whole solve stage (free motion, warm start, sweeps); Siconos's is fc3d_nsgs alone (W built
// beforehand). Not a test: prints and saves the figures.
//
// Usage: bench_siconos_fc3d [OUTPUT.json] [SWEEPS ...]   (default 20 sweeps, as bench_contact_dynamics)
#include "CdPacking3d.h"
#include "cd/GaussSeidelSolver.h"
#include "cd/PredictedMotion.h"
#include "contact/ContactDetection.h"
#include "model/World.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"
#include "util/Random.h"

#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <SparseBlockMatrix.h>
#include <fc3d_Solvers.h>
#include <fc3d_compute_error.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

using namespace granular;

namespace {

using Mat3 = Eigen::Matrix3d;

/// Each solve is timed this many times from the same start; the best time counts (the machine is shared).
constexpr int kRuns = 3;

/// A contact's frame: columns n, t1, t2 (orthonormal, right-handed).
Mat3 contactFrame(const Vec3& n)
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
Mat3 crossMatrix(const Vec3& a)
{
    Mat3 m;
    m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
    return m;
}

/// One end of a contact on a grain: the contact, its sign (+1: body 1, -1: body 0) and its lever arm.
struct ContactEnd {
    std::size_t contact = 0;
    double sign = 0.0;
    Vec3 lever = Vec3::Zero();
};

/// The step's problem in Siconos's form, with what ties it to ours.
struct StepProblem {
    std::size_t contacts = 0;
    std::vector<Mat3> frames;
    std::vector<double> q;            ///< m/s, 3 per contact
    std::vector<double> mu;           ///< 1
    std::vector<double> warmStart;    ///< N s, the previous step's impulses in the contact frames
    NumericsMatrix* W = nullptr;      ///< 1/kg, sparse-block 3x3
    std::size_t blocks = 0;           ///< non-zero 3x3 blocks of W
    double effectiveMassError = 0.0;  ///< max relative difference of W's diagonal and 1/m_n, 1/m_t (eq. 17-18)
};

/// Builds u = W r + q for the contacts of `world` (their normals, levers, gaps and effective masses as detected
/// for this step) and the free motion `free` (eq. 23 without contact forces).
StepProblem buildProblem(const World& world, PredictedMotion& free, const ContactSettings& contact, double dt)
{
    const auto& contacts = world.contacts;
    StepProblem problem;
    problem.contacts = contacts.size();
    const std::size_t n = 3 * contacts.size();
    problem.frames.resize(contacts.size());
    problem.q.resize(n);
    problem.mu.resize(contacts.size());
    problem.warmStart.resize(n);
    std::vector<std::vector<ContactEnd>> ends(world.particles.size());
    for (std::size_t a = 0; a < contacts.size(); ++a) {
        const Contact& c = contacts[a];
        const Mat3 frame = contactFrame(c.normal);
        problem.frames[a] = frame;
        Vec3 local = frame.transpose() * free.contactVelocity(c);
        local.x() += std::max(c.gap, 0.0) / dt;  // eq. 34: the gap may close within the step
        const Vec3 impulse = frame.transpose() * (dt * c.force);
        for (int k = 0; k < 3; ++k) {
            problem.q[3 * a + static_cast<std::size_t>(k)] = local[k];
            problem.warmStart[3 * a + static_cast<std::size_t>(k)] = impulse[k];
        }
        problem.mu[a] = contact.frictionFor(c.kind == ContactKind::Particle);
        ends[static_cast<std::size_t>(c.particle)].push_back({a, 1.0, c.lever1});
        if (c.kind == ContactKind::Particle) {
            ends[static_cast<std::size_t>(c.partner)].push_back({a, -1.0, c.lever0});
        }
    }
    // W_ab = sum over the grains b shares with a of s_a s_b F_a^T (1/m - [l_a]x I^-1 [l_b]x) F_b.
    problem.W = NM_create(NM_SPARSE, static_cast<int>(n), static_cast<int>(n));
    NM_triplet_alloc(problem.W, static_cast<CS_INT>(contacts.size() * 9 * 12));
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
            const PredictedMotion::PredictedBody& body = free.body(static_cast<std::size_t>(grain));
            const Mat3 leverA = crossMatrix(self->lever);
            for (const ContactEnd& other : list) {
                const Mat3 coupling =
                    (self->sign * other.sign) *
                    (body.inverseMass * Mat3::Identity() - body.inverseInertia * leverA * crossMatrix(other.lever));
                const Mat3 block = problem.frames[a].transpose() * coupling * problem.frames[other.contact];
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
                    NM_entry(problem.W, static_cast<int>(3 * a) + i, static_cast<int>(3 * b) + j, block(i, j));
                }
            }
            if (b == a) {
                const double mn = block(0, 0) * c.normalMass;
                const double mt = std::max(block(1, 1), block(2, 2)) * c.tangentialMass;
                problem.effectiveMassError =
                    std::max({problem.effectiveMassError, std::fabs(mn - 1.0), std::fabs(mt - 1.0)});
            }
        }
        problem.blocks += row.size();
    }
    return problem;
}

/// W in Siconos's sparse-block storage (3x3 blocks), which its NSGS reads row by row.
NumericsMatrix* sparseBlockMatrix(NumericsMatrix* triplets, std::size_t n)
{
    SparseBlockStructuredMatrix* blocks = SBM_new();
    if (SBM_from_csparse(3, NM_csc(triplets), blocks) != 0) {
        std::fprintf(stderr, "bench_siconos_fc3d: Siconos could not convert W to sparse-block storage\n");
        std::exit(1);
    }
    NM_free(triplets);
    return NM_new_SBM(static_cast<int>(n), static_cast<int>(n), blocks);
}

/// One solver's run: its sweeps, time, and Siconos's error of the result.
struct Outcome {
    std::string solver;
    std::int64_t sweeps = 0;
    double seconds = 0.0;
    double updatesPerSecond = 0.0;
    double error = 0.0;  ///< fc3d_compute_error: normal-map residual / |q|
};

/// Siconos's error of impulses r (velocities u are recomputed from W r + q).
double siconosError(FrictionContactProblem* fc, std::vector<double> r, SolverOptions* options)
{
    std::vector<double> u(r.size(), 0.0);
    double norm = 0.0;
    for (std::size_t i = 0; i < r.size(); ++i) {
        norm += fc->q[i] * fc->q[i];
    }
    double error = 0.0;
    fc3d_compute_error(fc, r.data(), u.data(), 0.0, options, std::sqrt(norm), &error);
    return error;
}

/// Siconos's fc3d NSGS from the warm start: `sweeps` sweeps in one random order, the local problems
/// solved by `localSolver`.
Outcome runSiconos(FrictionContactProblem* fc, const StepProblem& problem, int localSolver, const char* name,
                   std::int64_t sweeps)
{
    SolverOptions* options = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = static_cast<int>(sweeps);
    options->dparam[SICONOS_DPARAM_TOL] = 0.0;  // never converged early: every run makes all its sweeps
    // One random order for all sweeps: Siconos 4.4's SHUFFLE_TRUE_EACH_LOOP shuffles the whole order again before
    // every contact (a sweep then costs nc^2 draws: 9e3 updates/s here), so a fresh order per sweep is not offered.
    options->iparam[SICONOS_FRICTION_3D_NSGS_SHUFFLE] = SICONOS_FRICTION_3D_NSGS_SHUFFLE_TRUE;
    options->iparam[SICONOS_FRICTION_3D_NSGS_SHUFFLE_SEED] = 1;
    options->iparam[SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION] = SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_LIGHT;
    solver_options_update_internal(options, 0, localSolver);
    std::vector<double> r;
    double seconds = std::numeric_limits<double>::infinity();
    for (int run = 0; run < kRuns; ++run) {
        r = problem.warmStart;
        std::vector<double> u(r.size(), 0.0);
        int info = 1;  // fc3d_nsgs returns at once when it is 0 ("already solved")
        const auto start = std::chrono::steady_clock::now();
        fc3d_nsgs(fc, r.data(), u.data(), &info, options);
        seconds = std::min(seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    const std::int64_t done = options->iparam[SICONOS_IPARAM_ITER_DONE];
    Outcome outcome{name, done, seconds, static_cast<double>(done) * static_cast<double>(problem.contacts) / seconds,
                    siconosError(fc, r, options)};
    solver_options_delete(options);
    return outcome;
}

/// Ours on the same step: the paper's random sweep (GaussSeidelSolver, one thread), `sweeps` sweeps.
Outcome runOurs(const World& detected, const Settings& settings, const StepProblem& problem, FrictionContactProblem* fc,
                std::int64_t sweeps)
{
    SolverSettings solver = settings.solver;
    solver.criterion = ConvergenceCriterion::Fixed;
    solver.iterations = sweeps;
    World world;
    SweepResult result;
    double seconds = std::numeric_limits<double>::infinity();
    for (int run = 0; run < kRuns; ++run) {
        world = detected;
        GaussSeidelSolver gaussSeidel;
        Random random(settings.seed);
        const auto start = std::chrono::steady_clock::now();
        result = gaussSeidel.solve(world, solver, settings.contact, random);
        seconds = std::min(seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::vector<double> r(3 * problem.contacts);
    for (std::size_t a = 0; a < problem.contacts; ++a) {
        const Vec3 impulse = problem.frames[a].transpose() * (solver.dt * world.contacts[a].force);
        for (std::size_t k = 0; k < 3; ++k) {
            r[3 * a + k] = impulse[static_cast<Eigen::Index>(k)];
        }
    }
    SolverOptions* options = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    Outcome outcome{"ours, random sweep (eq. 34)", result.iterations, seconds,
                    static_cast<double>(result.iterations) * static_cast<double>(problem.contacts) / seconds,
                    siconosError(fc, r, options)};
    solver_options_delete(options);
    return outcome;
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<std::int64_t> sweepCounts;
    for (int i = 2; i < argc; ++i) {
        const long long sweeps = std::atoll(argv[i]);
        if (sweeps < 1) {
            std::fprintf(stderr, "bench_siconos_fc3d: SWEEPS must be whole numbers >= 1, got '%s'\n", argv[i]);
            return 2;
        }
        sweepCounts.push_back(sweeps);
    }
    if (sweepCounts.empty()) {
        sweepCounts.push_back(20);
    }
    setSolverThreads(1);
    Simulation simulation(bench::cdPacking3d());
    constexpr int kWarmup = 100;  // bench_contact_dynamics' untimed steps
    for (int step = 0; step < kWarmup; ++step) {
        simulation.step();
    }
    const Settings& settings = simulation.settings();
    const double dt = settings.solver.dt;
    // The next step's contacts as the stepper detects them (their forces: the warm start).
    World world = simulation.world();
    ContactDetection detection;
    detection.update(world, candidateMargin(world, dt, settings.contact.margin));
    PredictedMotion free;
    free.predict(world, dt);
    StepProblem problem = buildProblem(world, free, settings.contact, dt);
    const std::size_t n = 3 * problem.contacts;
    FrictionContactProblem* fc = frictionContactProblem_new();
    fc->dimension = 3;
    fc->numberOfContacts = static_cast<int>(problem.contacts);
    fc->M = sparseBlockMatrix(problem.W, n);
    problem.W = nullptr;
    fc->q = problem.q.data();
    fc->mu = problem.mu.data();
    std::printf("packing3d_20000 after %d steps: %zu grains, %zu contacts (candidates), W %zu x %zu with %zu 3x3 "
                "blocks; W's diagonal against 1/m_n, 1/m_t (eq. 17-18): max relative difference %.1e\n",
                kWarmup, world.particles.size(), problem.contacts, n, n, problem.blocks, problem.effectiveMassError);
    {
        SolverOptions* options = solver_options_create(SICONOS_FRICTION_3D_NSGS);
        std::printf("error of the warm start (the previous step's forces): %.3e\n",
                    siconosError(fc, problem.warmStart, options));
        solver_options_delete(options);
    }
    std::printf("%-44s %7s %10s %18s %12s %12s\n", "solver", "sweeps", "time (s)", "contact updates/s", "ours/theirs",
                "error");
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    const auto report = [&out, &problem](const Outcome& o, const Outcome& ours, const char* row) {
        const double ratio = ours.updatesPerSecond / o.updatesPerSecond;
        char ratioText[32] = "-";
        if (&o != &ours) {
            std::snprintf(ratioText, sizeof ratioText, "%.2fx", ratio);
        }
        std::printf("%-44s %7lld %10.3f %18.3e %12s %12.3e\n", o.solver.c_str(), static_cast<long long>(o.sweeps),
                    o.seconds, o.updatesPerSecond, ratioText, o.error);
        out.push_back({{"row", row},
                       {"solver", o.solver},
                       {"sweeps", o.sweeps},
                       {"contacts", problem.contacts},
                       {"wall_time_s", o.seconds},
                       {"contact_updates_per_s", o.updatesPerSecond},
                       {"fc3d_error", o.error}});
    };
    for (const std::int64_t sweeps : sweepCounts) {
        const Outcome ours = runOurs(world, settings, problem, fc, sweeps);
        const Outcome newton = runSiconos(fc, problem, SICONOS_FRICTION_3D_ONECONTACT_NSN_GP_HYBRID,
                                          "Siconos NSGS, local Newton (default)", sweeps);
        const Outcome projection =
            runSiconos(fc, problem, SICONOS_FRICTION_3D_ONECONTACT_ProjectionOnConeWithLocalIteration,
                       "Siconos NSGS, local projection iterated", sweeps);
        report(ours, ours, "same sweeps");
        report(newton, ours, "same sweeps");
        report(projection, ours, "same sweeps");
        // Equal accuracy: the fewest sweeps with which ours reaches Siconos's (default) error.
        Outcome matched = ours;
        for (std::int64_t more = 1; matched.error > newton.error && more <= 10 * sweeps; ++more) {
            matched = runOurs(world, settings, problem, fc, more);
        }
        matched.solver = "ours, to Siconos's (default) error";
        report(matched, matched, "equal accuracy");
        std::printf("%-44s Siconos's (default) time / ours at equal accuracy: %.2fx\n", "",
                    newton.seconds / matched.seconds);
        out.back()["siconos_time_over_ours"] = newton.seconds / matched.seconds;
    }
    fc->q = nullptr;  // owned by `problem`
    fc->mu = nullptr;
    frictionContactProblem_free(fc);
    const std::string path = argc > 1 ? argv[1] : "bench_siconos_fc3d.json";
    std::ofstream(path) << out.dump(2) << '\n';
    std::printf("saved %s\n", path.c_str());
    return 0;
}
