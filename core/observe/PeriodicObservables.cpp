#include "observe/PeriodicObservables.h"

#include "analysis/PackingStatistics.h"
#include "model/World.h"
#include "periodic/StressTensor.h"
#include "settings/Settings.h"

#include <string>

namespace granular {

void addPeriodicObservables(std::vector<Observable>& list, const Settings& settings)
{
    const bool planar = settings.dimension == 2;
    const std::string pressureUnit = "Pa";  // 2D: disks of unit thickness (README, "Units")
    list.push_back({"dilation_rate", "1/s",
                    "lambda = (dL/dt)/L of the periodic cell (eq. 16, 23); trace(Lambda)/D once its shape is free",
                    [](const World& w, const StepDiagnostics&) { return w.cell->dilationRate(); }});
    list.push_back({"pressure", pressureUnit, "inner pressure P_in of the last step's iteration (eq. 22, 27 or 32)",
                    [](const World& w, const StepDiagnostics&) { return w.cell->innerPressure; }});
    list.push_back({"external_pressure", pressureUnit, "P_ext driving the periodic cell (pressure.external)",
                    [](const World& w, const StepDiagnostics&) { return w.cell->externalPressure; }});
    list.push_back({"cell_length", "m", "edge L of the periodic cell (eq. 24); V^(1/D) once its shape is free",
                    [](const World& w, const StepDiagnostics&) { return w.cell->length(); }});
    list.push_back({"volume_fraction", "1", "grain volume (2D: area) over the cell's",
                    [](const World& w, const StepDiagnostics&) { return analysis::volumeFraction(w); }});
    const char* axes = "xyz";
    const int components[][2] = {{0, 0}, {1, 1}, {0, 1}, {2, 2}, {0, 2}, {1, 2}};
    for (int k = 0; k < (planar ? 3 : 6); ++k) {
        const int a = components[k][0];
        const int b = components[k][1];
        list.push_back({std::string("stress_") + axes[a] + axes[b], pressureUnit,
                        "global stress tensor component (eq. 20)",
                        [a, b](const World& w, const StepDiagnostics&) { return stressTensor(w)(a, b); }});
    }
}

}  // namespace granular
