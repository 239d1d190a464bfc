#pragma once

#include "cli/RunRecord.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace granular::cli {

/// What the ensemble command was asked, for ensemble.json.
struct EnsembleRequest {
    std::string scenario;                  ///< the scenario's name
    std::vector<std::string> assignments;  ///< the --set KEY=VALUE, in order
};

/// ensemble.json: over the runs that finished, for every numeric value of their summaries (nested keys joined with
/// dots, matrix entries as key[i][j], true/false as 1/0; the timings and the thread count left out, since they
/// differ from machine to machine) its count, mean, standard deviation, standard error of the mean, min and max;
/// the mean stress tensor with its standard error and its largest deviation from isotropy; the histograms of
/// the summaries (contact normals, normal forces) pooled; and the failed runs with their messages. `records` in
/// seed order; the result depends on nothing else.
[[nodiscard]] nlohmann::ordered_json ensembleJson(const EnsembleRequest& request,
                                                  const std::vector<RunRecord>& records);

/// ensemble.csv: one row per run in seed order: seed, status (finished/failed), message, then the values of
/// ensemble.json's statistics (empty where a run has none, e.g. a failed one).
void writeEnsembleCsv(std::ostream& csv, const std::vector<RunRecord>& records);

}  // namespace granular::cli
