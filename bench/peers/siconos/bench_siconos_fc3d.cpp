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
#include "peers/siconos/SiconosStepProblem.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"
#include "util/Random.h"

#include <Friction_cst.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

using namespace granular;
using namespace granular::siconos_peer;

namespace {

/// Each solve is timed this many times from the same start; the best time counts (the machine is shared).
constexpr int kRuns = 3;

/// One solver's run: its sweeps, time, and Siconos's error of the result.
struct Outcome {
    std::string solver;
    std::int64_t sweeps = 0;
    double seconds = 0.0;
    double updatesPerSecond = 0.0;
    double error = 0.0;  ///< fc3d_compute_error: normal-map residual / |q|
};

/// Siconos's fc3d NSGS from the warm start: `sweeps` sweeps in one random order, the local problems
/// solved by `localSolver`.
Outcome runSiconos(const StepProblem& problem, int localSolver, const char* name, std::int64_t sweeps)
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
        r = problem.warmStart();
        std::vector<double> u(r.size(), 0.0);
        int info = 1;  // fc3d_nsgs returns at once when it is 0 ("already solved")
        const auto start = std::chrono::steady_clock::now();
        fc3d_nsgs(problem.siconos(), r.data(), u.data(), &info, options);
        seconds = std::min(seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    const std::int64_t done = options->iparam[SICONOS_IPARAM_ITER_DONE];
    Outcome outcome{name, done, seconds, static_cast<double>(done) * static_cast<double>(problem.contacts()) / seconds,
                    problem.error(r)};
    solver_options_delete(options);
    return outcome;
}

/// Ours on the same step: the paper's random sweep (GaussSeidelSolver, one thread), `sweeps` sweeps.
Outcome runOurs(const World& detected, const Settings& settings, const StepProblem& problem, std::int64_t sweeps)
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
    return {"ours, random sweep (eq. 34)", result.iterations, seconds,
            static_cast<double>(result.iterations) * static_cast<double>(problem.contacts()) / seconds,
            problem.error(problem.impulses(world.contacts, solver.dt))};
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
    const World world = nextStepContacts(simulation);
    const StepProblem problem(world, settings.contact, settings.solver.dt);
    const std::size_t n = 3 * problem.contacts();
    std::printf("packing3d_20000 after %d steps: %zu grains, %zu contacts (candidates), W %zu x %zu with %zu 3x3 "
                "blocks; W's diagonal against 1/m_n, 1/m_t (eq. 17-18): max relative difference %.1e\n",
                kWarmup, world.particles.size(), problem.contacts(), n, n, problem.blocks(),
                problem.effectiveMassError());
    std::printf("error of the warm start (the previous step's forces): %.3e\n", problem.error(problem.warmStart()));
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
                       {"contacts", problem.contacts()},
                       {"wall_time_s", o.seconds},
                       {"contact_updates_per_s", o.updatesPerSecond},
                       {"fc3d_error", o.error}});
    };
    for (const std::int64_t sweeps : sweepCounts) {
        const Outcome ours = runOurs(world, settings, problem, sweeps);
        const Outcome newton = runSiconos(problem, SICONOS_FRICTION_3D_ONECONTACT_NSN_GP_HYBRID,
                                          "Siconos NSGS, local Newton (default)", sweeps);
        const Outcome projection =
            runSiconos(problem, SICONOS_FRICTION_3D_ONECONTACT_ProjectionOnConeWithLocalIteration,
                       "Siconos NSGS, local projection iterated", sweeps);
        report(ours, ours, "same sweeps");
        report(newton, ours, "same sweeps");
        report(projection, ours, "same sweeps");
        // Equal accuracy: the fewest sweeps beyond `sweeps` with which ours reaches Siconos's (default) error.
        Outcome matched = ours;
        for (std::int64_t more = sweeps + 1; matched.error > newton.error && more <= 10 * sweeps; ++more) {
            matched = runOurs(world, settings, problem, more);
        }
        matched.solver = "ours, to Siconos's (default) error";
        report(matched, matched, "equal accuracy");
        std::printf("%-44s Siconos's (default) time / ours at equal accuracy: %.2fx\n", "",
                    newton.seconds / matched.seconds);
        out.back()["siconos_time_over_ours"] = newton.seconds / matched.seconds;
    }
    const std::string path = argc > 1 ? argv[1] : "bench_siconos_fc3d.json";
    std::ofstream(path) << out.dump(2) << '\n';
    std::printf("saved %s\n", path.c_str());
    return 0;
}
