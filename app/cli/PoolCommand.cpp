#include "cli/PoolCommand.h"

#include "RunOutput.h"
#include "scenario/ScenarioError.h"

#include <ostream>
#include <stdexcept>
#include <utility>

namespace granular::cli {

PoolCommand::PoolCommand(std::string command, std::optional<int> jobs, std::ostream& out, std::ostream& err)
    : command_(std::move(command)), out_(out), err_(err)
{
    try {
        pool_ = makeJobPool(jobs);
    } catch (const JobPoolError& error) {
        err_ << "granular: " << command_ << ": " << error.what() << '\n';
    }
}

bool PoolCommand::checkInput(const std::function<void()>& check)
{
    bool ready = false;
    try {
        check();
        ready = true;
    } catch (const ScenarioError& error) {
        err() << "granular: " << command_ << ": " << error.what() << '\n';
    } catch (const std::invalid_argument& error) {
        err() << "granular: " << command_ << ": " << error.what() << '\n';
    } catch (const OutputError& error) {
        err() << "granular: " << command_ << ": " << error.what() << '\n';
    }
    if (!pool_->allReady(ready)) {
        if (ready) {
            err() << "granular: " << command_
                  << ": the checks failed on another MPI rank (e.g. the scenario file is missing on its machine)\n";
        }
        return false;
    }
    return true;
}

}  // namespace granular::cli
