#include "cli/LocalWorkers.h"

#include <utility>

namespace granular::cli {

LocalWorkers::LocalWorkers(std::size_t threads, const JobPool::Job& job, std::atomic<std::size_t>& next,
                           std::size_t count)
    : job_(job), next_(next), count_(count)
{
    threads_.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t) {
        threads_.emplace_back([this, t] { work(t + 1); });
    }
}

LocalWorkers::~LocalWorkers()
{
    next_ = count_;
    for (auto& thread : threads_) {
        thread.join();
    }
}

void LocalWorkers::work(std::size_t thread)
{
    while (true) {
        const std::size_t index = next_++;
        if (index >= count_) {
            return;
        }
        Done done{index, {}, "thread " + std::to_string(thread)};
        try {
            done.result = job_(index);
        } catch (...) {
            const std::lock_guard lock(mutex_);
            failure_ = std::current_exception();
            next_ = count_;
            finished_.notify_all();
            return;
        }
        const std::lock_guard lock(mutex_);
        done_.push_back(std::move(done));
        finished_.notify_all();
    }
}

std::vector<LocalWorkers::Done> LocalWorkers::collect(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(mutex_);
    finished_.wait_for(lock, timeout, [this] { return !done_.empty() || failure_; });
    if (failure_) {
        std::rethrow_exception(failure_);
    }
    return std::exchange(done_, {});
}

}  // namespace granular::cli
