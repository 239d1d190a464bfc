// granular: the headless command line of Granular Studio (see README, "Command line").
#include "cli/Commands.h"
#include "cli/CompareCommand.h"
#include "cli/EnsembleCommand.h"
#include "cli/FitCommand.h"
#include "cli/RunSession.h"
#include "cli/SweepCommand.h"
#include "util/Parallel.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <string_view>

namespace {

/// A number of seconds > 0 that is finite (CLI::PositiveNumber lets "nan" and "inf" through).
const CLI::Validator kFinitePositiveSeconds(
    [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || !(value > 0.0)) {
            return "'" + text + "' is out of range; accepted: a finite number of seconds > 0";
        }
        return {};
    },
    "FLOAT > 0 (s)");

/// A number, for a time in seconds (a fit's window: "abc" read "Could not convert", "" no bound at all; nan and inf
/// are numbers that fitSeries refuses as no finite time).
const CLI::Validator kSecondsNumber(
    [](std::string& text) -> std::string {
        char* end = nullptr;
        static_cast<void>(std::strtod(text.c_str(), &end));
        if (text.empty() || end != text.c_str() + text.size()) {
            return "'" + text + "' is not a number; accepted: a finite time in s";
        }
        return {};
    },
    "FLOAT (s)");

int runCommandLine(int argc, char** argv)
{
    using namespace granular::cli;
    CLI::App app{"granular - headless runs of Granular Studio scenarios"};
    app.require_subcommand(1, 1);

    app.add_subcommand("list", "list the built-in scenarios: name - description");

    std::string scenario;
    std::vector<std::string> assignments;
    auto* show = app.add_subcommand("show", "print the resolved scenario as JSON");
    show->add_option("SCENARIO", scenario, "built-in name or path to a JSON file")->required();
    show->add_option("--set", assignments, "override a parameter, KEY=VALUE (repeatable)")->allow_extra_args(false);

    RunOptions run;
    run.threads = granular::defaultSolverThreads();
    auto* runCommand = app.add_subcommand("run", "run a scenario headless");
    runCommand->add_option("SCENARIO", run.scenario, "built-in name or path to a JSON file")->required();
    runCommand->add_option("--set", run.assignments, "override a parameter, KEY=VALUE (repeatable)")
        ->allow_extra_args(false);
    runCommand->add_option("--out", run.outDirectory, "write series.csv, summary.json, scenario.json into DIR");
    auto* runThreads =
        runCommand
            ->add_option(
                "--threads", run.threads,
                "solver threads: md and mcdem contacts, cd contact search and coloured or strip sweep; default: "
                "OMP_NUM_THREADS if set, else every core the process may run on (results are identical for any count)")
            ->check(CLI::Range(1, 256));
    runCommand->add_flag("--fixed-threads", run.fixedThreads,
                         "every step on --threads threads (default: a step runs on fewer threads where that is "
                         "faster, e.g. while other programs take the cores)");
    runCommand->add_option("--seed", run.seed, "override the scenario's seed")
        ->check(CLI::Range(std::int64_t{0}, std::int64_t{9007199254740991}));
    runCommand->add_flag("--quiet", run.quiet, "no progress indicator and no closing line");
    runCommand
        ->add_option("--checkpoint-every", run.checkpointEvery,
                     "write DIR/checkpoint.bin every T s of simulated time (needs --out)")
        ->check(kFinitePositiveSeconds);

    ResumeOptions resume;
    resume.threads = granular::defaultSolverThreads();
    auto* resumeCommand = app.add_subcommand("resume", "go on from DIR/checkpoint.bin; the output replaces DIR's");
    resumeCommand->add_option("DIR", resume.directory, "output directory of a run with --checkpoint-every")->required();
    resumeCommand->add_option("--set", resume.assignments, "change a live parameter, KEY=VALUE (e.g. run.time=20)")
        ->allow_extra_args(false);
    resumeCommand->add_option("--checkpoint-every", resume.checkpointEvery, "go on writing checkpoints every T s")
        ->check(kFinitePositiveSeconds);
    auto* resumeThreads =
        resumeCommand
            ->add_option(
                "--threads", resume.threads,
                "solver threads: md and mcdem contacts, cd contact search and coloured or strip sweep; default: "
                "OMP_NUM_THREADS if set, else every core the process may run on (results are identical for any count)")
            ->check(CLI::Range(1, 256));
    resumeCommand->add_flag("--fixed-threads", resume.fixedThreads,
                            "every step on --threads threads (default: a step runs on fewer threads where that is "
                            "faster, e.g. while other programs take the cores)");
    resumeCommand->add_flag("--quiet", resume.quiet, "no progress indicator and no closing line");

    std::string csvPath;
    std::string column;
    std::optional<double> from;
    std::optional<double> to;
    auto* fit = app.add_subcommand("fit", "fit x0 + A exp(-t/tau) sin(omega t + phase) to a series column");
    fit->add_option("CSV", csvPath, "series CSV with a time column t")->required();
    fit->add_option("--column", column, "the column to fit")->required();
    fit->add_option("--from", from, "first time of the window (default: the first row)")->check(kSecondsNumber);
    fit->add_option("--to", to, "last time of the window (default: the last row)")->check(kSecondsNumber);

    std::string compareRun;
    std::string compareReference;
    auto* compare = app.add_subcommand(
        "compare", "compare a compression run with a reference run: R_top, err_f, bhat, err_Z (Brodu et al. 2015)");
    compare->add_option("RUN", compareRun, "output directory of `granular run` (setup compression)")->required();
    compare->add_option("REFERENCE", compareReference, "output directory of the reference run")->required();

    SweepOptions sweep;
    auto* sweepCommand = app.add_subcommand("sweep", "run a scenario once per value of one key; write DIR/sweep.csv");
    sweepCommand->add_option("SCENARIO", sweep.scenario, "built-in name or path to a JSON file")->required();
    sweepCommand->add_option("--key", sweep.key, "the parameter to vary, e.g. solver.iterations")->required();
    sweepCommand->add_option("--values", sweep.values, "comma-separated values, e.g. 25,50,100,200")->required();
    sweepCommand->add_option("--out", sweep.outDirectory, "write sweep.csv into DIR")->required();
    sweepCommand->add_option("--set", sweep.assignments, "override a parameter, KEY=VALUE (repeatable)")
        ->allow_extra_args(false);
    sweepCommand
        ->add_option("--jobs", sweep.jobs,
                     "runs at once on this machine (default: every core the process may run on; not under mpirun)")
        ->check(CLI::Range(1, 1024));
    sweepCommand->add_flag("--quiet", sweep.quiet, "no line per run");

    EnsembleOptions ensemble;
    auto* ensembleCommand = app.add_subcommand(
        "ensemble", "one run per seed, then their statistics: DIR/ensemble.json, DIR/ensemble.csv, DIR/runs/SEED/");
    ensembleCommand->add_option("SCENARIO", ensemble.scenario, "built-in name or path to a JSON file")->required();
    ensembleCommand->add_option("--seeds", ensemble.seeds, "the seeds A..B, e.g. 1..8")->required();
    ensembleCommand->add_option("--out", ensemble.outDirectory, "write the ensemble and every run into DIR")
        ->required();
    ensembleCommand->add_option("--set", ensemble.assignments, "override a parameter, KEY=VALUE (repeatable)")
        ->allow_extra_args(false);
    ensembleCommand
        ->add_option("--jobs", ensemble.jobs,
                     "runs at once on this machine (default: every core the process may run on; not under mpirun)")
        ->check(CLI::Range(1, 1024));
    ensembleCommand->add_flag("--quiet", ensemble.quiet, "no line per run");

    if (argc > 1 && argv[1][0] != '-' && std::string_view(argv[1]) != "list" && std::string_view(argv[1]) != "show" &&
        std::string_view(argv[1]) != "run" && std::string_view(argv[1]) != "fit" &&
        std::string_view(argv[1]) != "sweep" && std::string_view(argv[1]) != "compare" &&
        std::string_view(argv[1]) != "resume" && std::string_view(argv[1]) != "ensemble") {
        std::cerr << "granular: unknown command '" << argv[1]
                  << "'; accepted: list, show, run, resume, fit, sweep, ensemble, compare\n";
        return BadInput;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& help) {
        return app.exit(help);
    } catch (const CLI::ParseError& error) {
        std::cerr << "granular: " << error.what() << " (see granular --help)\n";
        return BadInput;
    }

    // The solver threads from OMP_NUM_THREADS where --threads is not given: a value it cannot be is said, with the
    // count used instead (OpenMP's own warning names neither).
    if ((app.got_subcommand("run") && runThreads->count() == 0) ||
        (app.got_subcommand("resume") && resumeThreads->count() == 0)) {
        if (const std::string problem = granular::solverThreadsSettingProblem(); !problem.empty()) {
            std::cerr << "granular: warning: " << problem << '\n';
        }
    }
    if (app.got_subcommand("list")) {
        return listScenarios(std::cout);
    }
    if (app.got_subcommand("show")) {
        return showScenario(scenario, assignments, std::cout, std::cerr);
    }
    if (app.got_subcommand("fit")) {
        return fitSeries(csvPath, column, from, to, std::cout, std::cerr);
    }
    if (app.got_subcommand("resume")) {
        installStopHandlers();
        return resumeRun(resume, std::cout, std::cerr);
    }
    if (app.got_subcommand("compare")) {
        return compareRuns(compareRun, compareReference, std::cout, std::cerr);
    }
    if (app.got_subcommand("sweep")) {
        installStopHandlers();
        return sweepScenario(sweep, std::cout, std::cerr);
    }
    if (app.got_subcommand("ensemble")) {
        installStopHandlers();
        return ensembleScenario(ensemble, std::cout, std::cerr);
    }
    installStopHandlers();
    return runScenario(run, std::cout, std::cerr);
}

}  // namespace

int main(int argc, char** argv)
{
    // The commands answer bad input and failures themselves; what escapes them is reported, not aborted on.
    try {
        const int code = runCommandLine(argc, argv);
        // What a command printed (a scenario, a fit, a comparison) may be cut short when standard output cannot be
        // written (e.g. redirected to a full disk): the exit status says so.
        std::cout.flush();
        if (!std::cout) {
            std::cerr
                << "granular: cannot write the standard output (e.g. a full disk); what it printed is incomplete\n";
            return code == granular::cli::Success ? granular::cli::RuntimeFailure : code;
        }
        return code;
    } catch (const std::bad_alloc&) {
        std::cerr << "granular: out of memory\n";
    } catch (const std::exception& error) {
        std::cerr << "granular: " << error.what() << '\n';
    } catch (...) {
        std::cerr << "granular: unknown failure\n";
    }
    return granular::cli::RuntimeFailure;
}
