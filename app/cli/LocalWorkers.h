#pragma once

#include "cli/JobPool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace granular::cli {

/// Threads that take job numbers from a shared counter until it reaches the job count, and hand each result to
/// the thread that collects them. The counter may be shared with other takers (MPI rank 0 hands numbers from it
/// to the other ranks).
class LocalWorkers {
public:
    struct Done {
        std::size_t index = 0;
        std::string result;
        std::string worker;  ///< "thread k" (k from 1)
    };

    /// Starts `threads` threads (none when 0).
    LocalWorkers(std::size_t threads, const JobPool::Job& job, std::atomic<std::size_t>& next, std::size_t count);
    LocalWorkers(const LocalWorkers&) = delete;
    LocalWorkers& operator=(const LocalWorkers&) = delete;
    LocalWorkers(LocalWorkers&&) = delete;
    LocalWorkers& operator=(LocalWorkers&&) = delete;
    /// Stops handing out numbers and waits for the jobs under way.
    ~LocalWorkers();

    /// The jobs finished since the last call, waiting at most `timeout` for the first; rethrows the exception of a
    /// job that threw.
    std::vector<Done> collect(std::chrono::milliseconds timeout);

private:
    void work(std::size_t thread);

    const JobPool::Job& job_;
    std::atomic<std::size_t>& next_;
    std::size_t count_;
    std::mutex mutex_;
    std::condition_variable finished_;
    std::vector<Done> done_;
    std::exception_ptr failure_;
    std::vector<std::thread> threads_;
};

}  // namespace granular::cli
