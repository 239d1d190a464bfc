#pragma once
// Shared by the core tests that compare whole series: a run's series.csv as `granular run` writes it.

#include "CsvSeries.h"
#include "scenario/Scenario.h"
#include "sim/Run.h"
#include "sim/Simulation.h"

#include <sstream>
#include <string>
#include <vector>

namespace granular::test {

/// The series.csv text of a run of `scenario` to its end (every column the method records).
inline std::string seriesText(const Scenario& scenario)
{
    Simulation simulation(scenario);
    std::vector<std::string> columns;
    for (const auto& observable : simulation.observables()) {
        columns.push_back(observable.name);
    }
    std::ostringstream text;
    CsvSeries series(text, columns);
    runToEnd(simulation, [&](double t, const std::vector<double>& values) { series.row(t, values); });
    return text.str();
}

}  // namespace granular::test
