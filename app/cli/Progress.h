#pragma once

#include <chrono>
#include <string>

namespace granular::cli {

/// A one-line progress indicator on stderr, drawn only when stderr is a terminal.
class Progress {
public:
    Progress(std::string label, bool enabled);
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;
    Progress(Progress&&) = delete;
    Progress& operator=(Progress&&) = delete;
    ~Progress();

    void update(double fraction);

private:
    std::string label_;
    bool enabled_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point lastDraw_;
};

}  // namespace granular::cli
