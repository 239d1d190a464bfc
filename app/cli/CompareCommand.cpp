#include "cli/CompareCommand.h"

#include "CompressionFiles.h"
#include "JsonText.h"
#include "analysis/CompressionComparison.h"
#include "cli/Commands.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <stdexcept>
#include <utility>

namespace granular::cli {

int compareRuns(const std::string& run, const std::string& reference, std::ostream& out, std::ostream& err)
{
    for (const auto& [name, directory] : {std::pair{"RUN", &run}, std::pair{"REFERENCE", &reference}}) {
        if (directory->empty()) {
            // "" would read the working directory's series.csv.
            err << "granular: compare: " << name
                << " is empty; accepted: an output directory of `granular run` with setup compression (. for the "
                   "working directory)\n";
            return BadInput;
        }
    }
    analysis::CompressionRun a;
    analysis::CompressionRun b;
    try {
        a = readCompressionRun(run);
        b = readCompressionRun(reference);
    } catch (const std::exception& error) {
        err << "granular: compare: " << error.what()
            << " (accepted: two output directories of `granular run` with setup compression)\n";
        return BadInput;
    }
    try {
        const auto c = analysis::compareCompression(a, b);
        nlohmann::ordered_json result;
        result["run"] = run;
        result["reference"] = reference;
        result["loading_stroke"] = c.loadingStroke;
        result["unloading_stroke"] = c.unloadingStroke;
        result["top_force_N"] = c.topForce;
        result["reference_top_force_N"] = c.referenceTopForce;
        result["R_top"] = c.topRatio;
        result["err_f_N"] = c.forceErrorLevels;
        result["err_f"] = {{"loading", c.forceErrorLoading}, {"unloading", c.forceErrorUnloading}};
        // Without a level that both runs' contact_forces.csv have forces of, bhat and err_Z measure nothing: null, not
        // the 0 of a perfect match (a reference whose contact_forces.csv had lost its rows compared as identical).
        if (c.levelsCompared > 0) {
            result["bhat"] = c.bhattacharyya;
            result["err_Z"] = c.coordinationError;
        } else {
            result["bhat"] = nullptr;
            result["err_Z"] = nullptr;
            err << "granular: compare: bhat and err_Z are null: no compression level of strokes " << c.loadingStroke
                << " and " << c.unloadingStroke
                << " has grain-grain forces in both runs' contact_forces.csv (R_top and err_f do not need them)\n";
        }
        result["levels_compared"] = c.levelsCompared;
        out << jsonText(result) << '\n';
        return Success;
    } catch (const std::invalid_argument& error) {
        err << "granular: compare: " << error.what() << '\n';
        return BadInput;
    }
}

}  // namespace granular::cli
