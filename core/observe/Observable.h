#pragma once

#include "method/StepDiagnostics.h"

#include <functional>
#include <string>
#include <vector>

namespace granular {

struct World;
struct Settings;

/// A named time series: the CSV header, the GUI's plot list and the summary all use these names.
struct Observable {
    std::string name;
    std::string unit;
    std::string description;
    std::function<double(const World&, const StepDiagnostics&)> measure;
};

/// The observables recorded for a scenario (the first column, `t`, is implied).
std::vector<Observable> observablesFor(const Settings& settings);

}  // namespace granular
