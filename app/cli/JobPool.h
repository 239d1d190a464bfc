#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace granular::cli {

/// The workers cannot be set up as asked (e.g. --jobs under mpirun, mpirun without MPI): exit code BadInput.
class JobPoolError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Runs numbered jobs, each a whole run, on this machine's threads or, when the program was started by mpirun,
/// on every MPI rank. Jobs are handed out one at a time to whichever worker is free (runs differ in length), and
/// their results come back as bytes in job order, so that what is made of them does not depend on the number of
/// workers or on the order in which the jobs finish: the root receives each result once, with its job number.
class JobPool {
public:
    /// One job: its result as bytes. A job reports its own failures in its result; an exception escaping a job is
    /// a defect (threads: run() rethrows it; MPI: every rank is aborted with its message).
    using Job = std::function<std::string(std::size_t index)>;
    /// Called on the root, on run()'s thread, once per job as it finishes, with the job's result to keep; `worker`
    /// says where it ran ("thread 2", "rank 1").
    using Finished = std::function<void(std::size_t index, std::string&& result, const std::string& worker)>;

    JobPool() = default;
    JobPool(const JobPool&) = delete;
    JobPool& operator=(const JobPool&) = delete;
    JobPool(JobPool&&) = delete;
    JobPool& operator=(JobPool&&) = delete;
    virtual ~JobPool() = default;

    /// Whether this process writes the output and talks to the user: MPI rank 0, or the only process.
    [[nodiscard]] virtual bool isRoot() const = 0;
    /// The workers, for the user: "2 threads", "4 MPI ranks".
    [[nodiscard]] virtual std::string description() const = 0;
    /// Collective: true on every process when `ready` is true on every process (their checks passed), so that
    /// all stop together before the first job when one cannot go on.
    virtual bool allReady(bool ready) = 0;
    /// Runs jobs 0 .. count-1; returns when all are done. `finished` is called on the root only.
    virtual void run(std::size_t count, const Job& job, const Finished& finished) = 0;
};

/// Whether this process was started by mpirun (Open MPI's, MPICH's or PMIx's environment variables).
[[nodiscard]] bool startedByMpirun();

/// The pool of this process. Under mpirun: the MPI ranks, each running one job at a time (rank 0 also hands
/// them out); `jobs` must then be empty. Otherwise: `jobs` threads (default: every core). Throws JobPoolError
/// under mpirun when this granular was built without MPI, or with `jobs`.
[[nodiscard]] std::unique_ptr<JobPool> makeJobPool(std::optional<int> jobs);

}  // namespace granular::cli
