#pragma once

#include "method/StepDiagnostics.h"

#include <chrono>

namespace granular {

/// Adds the wall time of its scope to one stage of the step profile.
class StageTimer {
public:
    StageTimer(StepDiagnostics& diagnostics, StepStage stage)
        : seconds_(diagnostics.stageSeconds[static_cast<int>(stage)]), start_(std::chrono::steady_clock::now())
    {
    }
    StageTimer(const StageTimer&) = delete;
    StageTimer& operator=(const StageTimer&) = delete;
    StageTimer(StageTimer&&) = delete;
    StageTimer& operator=(StageTimer&&) = delete;
    ~StageTimer() { seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

private:
    double& seconds_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace granular
