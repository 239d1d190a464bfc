// The MPI ranks of one `granular sweep` or `granular ensemble` started by mpirun. Rank 0 hands out job numbers
// one at a time to whichever rank asks (and runs jobs itself on a second thread); every other rank asks, runs,
// sends the result back with its next request, until rank 0 answers "no more". Only rank 0's main thread calls
// MPI (MPI_THREAD_FUNNELED).
#include "cli/JobPool.h"
#include "cli/LocalWorkers.h"

#include <mpi.h>

#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string_view>

namespace granular::cli {

std::unique_ptr<JobPool> makeMpiJobPool();

namespace {

constexpr int kRoot = 0;
constexpr int kRequestTag = 1;  ///< worker -> root: [job number or kNoJob][result bytes]
constexpr int kAssignTag = 2;   ///< root -> worker: the next job number, or -1 when there is none
constexpr std::uint64_t kNoJob = UINT64_MAX;

/// Ends every rank with `message` (a defect, or a result too large for one message).
[[noreturn]] void abortAll(const std::string& message)
{
    std::cerr << "granular: MPI: " << message << '\n';
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::abort();  // MPI_Abort does not return
}

std::string request(std::uint64_t index, const std::string& result)
{
    std::string message(sizeof index, '\0');
    std::memcpy(message.data(), &index, sizeof index);
    message += result;
    return message;
}

void sendBytes(const std::string& bytes, int destination, int tag)
{
    if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
        abortAll("a run's result of " + std::to_string(bytes.size()) + " bytes is more than one MPI message " +
                 "carries (2 GiB); accepted: runs with smaller outputs (a longer output.interval, no VTK frames)");
    }
    MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, destination, tag, MPI_COMM_WORLD);
}

/// Receives the message whose arrival `status` announced.
std::string receiveBytes(const MPI_Status& status)
{
    MPI_Status probed = status;
    int size = 0;
    MPI_Get_count(&probed, MPI_BYTE, &size);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    MPI_Recv(bytes.data(), size, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return bytes;
}

class MpiJobPool : public JobPool {
public:
    MpiJobPool()
    {
        int provided = 0;
        MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
        if (provided < MPI_THREAD_FUNNELED) {
            abortAll("this MPI does not allow threads beside the one calling MPI (MPI_THREAD_FUNNELED)");
        }
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
    }
    MpiJobPool(const MpiJobPool&) = delete;
    MpiJobPool& operator=(const MpiJobPool&) = delete;
    MpiJobPool(MpiJobPool&&) = delete;
    MpiJobPool& operator=(MpiJobPool&&) = delete;
    ~MpiJobPool() override { MPI_Finalize(); }

    [[nodiscard]] bool isRoot() const override { return rank_ == kRoot; }
    [[nodiscard]] std::string description() const override
    {
        return std::to_string(size_) + (size_ == 1 ? " MPI rank" : " MPI ranks");
    }
    bool allReady(bool ready) override
    {
        int mine = ready ? 1 : 0;
        int all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        return all == 1;
    }

    void run(std::size_t count, const Job& job, const Finished& finished) override
    {
        if (rank_ != kRoot) {
            work(job);
            return;
        }
        handOut(count, job, finished);
    }

private:
    /// Rank 0: answers the other ranks' requests and runs jobs on one thread of its own.
    void handOut(std::size_t count, const Job& job, const Finished& finished) const
    {
        std::size_t done = 0;
        auto keep = [&](std::size_t index, std::string&& result, const std::string& worker) {
            if (index >= count) {
                abortAll("a rank sent the result of job " + std::to_string(index) + " of " + std::to_string(count));
            }
            finished(index, std::move(result), worker);
            ++done;
        };
        std::atomic<std::size_t> next{0};
        int working = size_ - 1;  // ranks not yet told that there is no more
        LocalWorkers local(1, job, next, count);
        while (done < count || working > 0) {
            int arrived = 0;
            MPI_Status status;
            MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &arrived, &status);
            if (arrived != 0) {
                const std::string message = receiveBytes(status);
                std::uint64_t index = kNoJob;
                if (message.size() < sizeof index) {
                    abortAll("a request of " + std::to_string(message.size()) + " bytes from rank " +
                             std::to_string(status.MPI_SOURCE));
                }
                std::memcpy(&index, message.data(), sizeof index);
                if (index != kNoJob) {
                    keep(static_cast<std::size_t>(index), message.substr(sizeof index),
                         "rank " + std::to_string(status.MPI_SOURCE));
                }
                const std::size_t assigned = next++;
                std::int64_t answer = assigned < count ? static_cast<std::int64_t>(assigned) : -1;
                if (answer < 0) {
                    --working;
                }
                MPI_Send(&answer, 1, MPI_INT64_T, status.MPI_SOURCE, kAssignTag, MPI_COMM_WORLD);
            }
            std::vector<LocalWorkers::Done> ownJobs;
            try {
                ownJobs = local.collect(std::chrono::milliseconds(arrived != 0 ? 0 : 2));
            } catch (const std::exception& error) {
                abortAll(std::string("a job on rank 0: ") + error.what());
            }
            for (auto& d : ownJobs) {
                keep(d.index, std::move(d.result), "rank 0");
            }
        }
    }

    /// Every other rank: asks for a job, runs it, sends its result with the next request.
    static void work(const Job& job)
    {
        std::string message = request(kNoJob, {});
        while (true) {
            sendBytes(message, kRoot, kRequestTag);
            std::int64_t index = -1;
            MPI_Recv(&index, 1, MPI_INT64_T, kRoot, kAssignTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (index < 0) {
                return;
            }
            try {
                message = request(static_cast<std::uint64_t>(index), job(static_cast<std::size_t>(index)));
            } catch (const std::exception& error) {
                abortAll(std::string("job ") + std::to_string(index) + ": " + error.what());
            }
        }
    }

    int rank_ = 0;
    int size_ = 1;
};

}  // namespace

std::unique_ptr<JobPool> makeMpiJobPool()
{
    return std::make_unique<MpiJobPool>();
}

}  // namespace granular::cli
