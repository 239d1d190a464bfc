#pragma once

#include "cli/JobPool.h"

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

namespace granular::cli {

/// What `granular sweep` and `granular ensemble` share before their first run: the job pool (threads or MPI ranks),
/// the streams to the user (only the root talks; the other ranks' words go nowhere), and the input check that
/// every process makes, so that all stop together when one cannot go on.
class PoolCommand {
public:
    /// `command`: the name in messages ("sweep"). When the pool cannot be set up, says why on `err` and started()
    /// is false (exit code BadInput).
    PoolCommand(std::string command, std::optional<int> jobs, std::ostream& out, std::ostream& err);

    [[nodiscard]] bool started() const { return pool_ != nullptr; }
    [[nodiscard]] JobPool& pool() { return *pool_; }
    [[nodiscard]] std::ostream& out() { return pool_->isRoot() ? out_ : elsewhere_; }
    [[nodiscard]] std::ostream& err() { return pool_->isRoot() ? err_ : elsewhere_; }

    /// Runs `check` on every process; it throws ScenarioError, std::invalid_argument or OutputError on bad input,
    /// whose message goes to err() in one line. True when every process's check passed.
    bool checkInput(const std::function<void()>& check);

private:
    std::string command_;
    std::ostream& out_;
    std::ostream& err_;
    std::ostringstream elsewhere_;
    std::unique_ptr<JobPool> pool_;
};

}  // namespace granular::cli
