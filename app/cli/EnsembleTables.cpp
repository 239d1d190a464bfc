#include "cli/EnsembleTables.h"

#include "CsvSeries.h"
#include "analysis/SampleStatistics.h"
#include "scenario/Value.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>

namespace granular::cli {

namespace {

using Json = nlohmann::ordered_json;

/// Summary keys that measure the machine, not the physics: left out of the statistics.
bool isMachineKey(const std::string& key)
{
    static const std::set<std::string> keys{"seed",        "threads",     "steps_on_fewer_threads", "steps_on_threads",
                                            "wall_time_s", "steps_per_s", "contact_updates_per_s",  "units"};
    return keys.contains(key);
}

/// A histogram of a summary: {"range": [low, high], "counts": [...]}.
bool isHistogram(const Json& value)
{
    return value.is_object() && value.size() == 2 && value.contains("range") && value.contains("counts") &&
           value["range"].is_array() && value["range"].size() == 2 && value["counts"].is_array();
}

/// The numeric values of one run's summary, by flattened key, in the summary's order.
struct RunValues {
    std::vector<std::pair<std::string, double>> values;
    std::vector<std::pair<std::string, const Json*>> histograms;
};

void flatten(const Json& value, const std::string& key, RunValues& into)
{
    if (value.is_number()) {
        into.values.emplace_back(key, value.get<double>());
    } else if (value.is_boolean()) {
        into.values.emplace_back(key, value.get<bool>() ? 1.0 : 0.0);
    } else if (isHistogram(value)) {
        into.histograms.emplace_back(key, &value);
    } else if (value.is_object()) {
        for (const auto& [name, item] : value.items()) {
            if (key.empty() && isMachineKey(name)) {
                continue;
            }
            std::string nested = key;
            if (!nested.empty()) {
                nested += '.';
            }
            nested += name;
            flatten(item, nested, into);
        }
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            flatten(value[i], key + "[" + std::to_string(i) + "]", into);
        }
    }
}

/// The summaries of the finished runs, parsed, in seed order.
std::vector<std::pair<std::int64_t, Json>> finishedSummaries(const std::vector<RunRecord>& records)
{
    std::vector<std::pair<std::int64_t, Json>> summaries;
    for (const RunRecord& record : records) {
        const std::string* text = record.file("summary.json");
        if (record.failed() || text == nullptr) {
            continue;
        }
        summaries.emplace_back(record.seed, Json::parse(*text));
    }
    return summaries;
}

/// Every run's values, and the keys in the order they first appear.
struct Table {
    std::vector<std::string> keys;
    std::map<std::int64_t, std::map<std::string, double>> bySeed;
    std::vector<RunValues> runs;
};

Table tabulate(const std::vector<std::pair<std::int64_t, Json>>& summaries)
{
    Table table;
    std::set<std::string> seen;
    for (const auto& [seed, summary] : summaries) {
        RunValues values;
        flatten(summary, "", values);
        auto& row = table.bySeed[seed];
        for (const auto& [key, value] : values.values) {
            if (seen.insert(key).second) {
                table.keys.push_back(key);
            }
            row[key] = value;
        }
        table.runs.push_back(std::move(values));
    }
    return table;
}

/// `x`, or null where it is not finite (one run's spread: unknown, not 0).
Json finiteOrNull(double x)
{
    return std::isfinite(x) ? Json(x) : Json(nullptr);
}

Json statisticsJson(const analysis::SampleStatistics& s)
{
    Json out;
    out["n"] = s.count;
    out["mean"] = s.mean;
    out["standard_deviation"] = finiteOrNull(s.standardDeviation);
    out["standard_error"] = finiteOrNull(s.standardError);
    out["confidence_95"] =
        std::isfinite(s.confidence95) ? Json::array({s.mean - s.confidence95, s.mean + s.confidence95}) : Json(nullptr);
    out["min"] = s.min;
    out["max"] = s.max;
    return out;
}

/// The unit of a flattened key where the summaries name one (their "units" for the series' final values).
std::optional<std::string> unitOf(const std::string& key, const Json& summary)
{
    const std::string prefix = "final.";
    if (key.rfind(prefix, 0) == 0 && summary.contains("units")) {
        const std::string name = key.substr(prefix.size());
        if (summary["units"].contains(name)) {
            return summary["units"][name].get<std::string>();
        }
    }
    return std::nullopt;
}

/// The mean stress tensor of the runs whose summaries have one ("stress", D x D), or null.
Json meanStress(const std::vector<std::pair<std::int64_t, Json>>& summaries)
{
    std::vector<const Json*> tensors;
    for (const auto& entry : summaries) {
        if (!entry.second.contains("stress")) {
            continue;
        }
        const Json& stress = entry.second["stress"];
        if (stress.is_array() && !stress.empty() && stress.size() == stress[0].size()) {
            tensors.push_back(&stress);
        }
    }
    if (tensors.empty() || tensors.size() != summaries.size()) {
        return nullptr;
    }
    const std::size_t d = tensors.front()->size();
    Json mean = Json::array();
    Json error = Json::array();
    double trace = 0.0;
    std::vector<std::vector<double>> m(d, std::vector<double>(d));
    for (std::size_t i = 0; i < d; ++i) {
        Json meanRow = Json::array();
        Json errorRow = Json::array();
        for (std::size_t j = 0; j < d; ++j) {
            std::vector<double> values;
            values.reserve(tensors.size());
            for (const Json* tensor : tensors) {
                values.push_back((*tensor)[i][j].get<double>());
            }
            const auto s = analysis::sampleStatistics(values);
            meanRow.push_back(s.mean);
            errorRow.push_back(finiteOrNull(s.standardError));
            m[i][j] = s.mean;
        }
        trace += m[i][i];
        mean.push_back(meanRow);
        error.push_back(errorRow);
    }
    const double pressure = trace / static_cast<double>(d);
    double deviation = 0.0;
    for (std::size_t i = 0; i < d; ++i) {
        for (std::size_t j = 0; j < d; ++j) {
            deviation = std::max(deviation, std::abs(m[i][j] - (i == j ? pressure : 0.0)));
        }
    }
    Json out;
    out["runs"] = tensors.size();
    out["tensor"] = mean;
    out["standard_error"] = error;
    if (summaries.front().second.contains("units") && summaries.front().second["units"].contains("stress_xx")) {
        out["unit"] = summaries.front().second["units"]["stress_xx"];
    }
    out["pressure"] = pressure;  // tr(sigma) / D
    // max_ij |sigma_ij - p delta_ij| / p: 0 for an isotropic stress (Shaebani et al. 2009, eq. 33 and section 5).
    out["largest_deviation_from_isotropic"] = pressure != 0.0 ? deviation / std::abs(pressure) : 0.0;
    return out;
}

/// The runs' histograms summed bin by bin, for each histogram all runs have with the same range and bins.
Json pooledHistograms(const Table& table)
{
    Json pooled = Json::object();
    if (table.runs.empty()) {
        return pooled;
    }
    for (const auto& histogram : table.runs.front().histograms) {
        const std::string& key = histogram.first;
        const Json* first = histogram.second;
        std::vector<double> counts((*first)["counts"].size(), 0.0);
        std::size_t runs = 0;
        for (const RunValues& run : table.runs) {
            const auto found = std::find_if(run.histograms.begin(), run.histograms.end(),
                                            [&key](const auto& entry) { return entry.first == key; });
            if (found == run.histograms.end() || (*found->second)["range"] != (*first)["range"] ||
                (*found->second)["counts"].size() != counts.size()) {
                continue;
            }
            for (std::size_t b = 0; b < counts.size(); ++b) {
                counts[b] += (*found->second)["counts"][b].get<double>();
            }
            ++runs;
        }
        Json entry;
        entry["range"] = (*first)["range"];
        entry["runs"] = runs;
        double total = 0.0;
        for (const double c : counts) {
            total += c;
        }
        entry["total"] = total;
        entry["counts"] = counts;
        const std::string normals = "contact_normals";
        if (key.size() >= normals.size() && key.compare(key.size() - normals.size(), normals.size(), normals) == 0 &&
            total > 0.0) {
            // An isotropic packing's normals are uniform over the range (Shaebani et al. 2009, Fig. 9 left).
            const double expected = total / static_cast<double>(counts.size());
            double largest = 0.0;
            double chiSquare = 0.0;
            for (const double c : counts) {
                largest = std::max(largest, std::abs(c / expected - 1.0));
                chiSquare += (c - expected) * (c - expected) / expected;
            }
            entry["largest_deviation_from_uniform"] = largest;
            entry["chi_square_uniform"] = chiSquare;
            entry["degrees_of_freedom"] = counts.size() - 1;
        }
        pooled[key] = entry;
    }
    return pooled;
}

}  // namespace

Json ensembleJson(const EnsembleRequest& request, const std::vector<RunRecord>& records)
{
    const auto summaries = finishedSummaries(records);
    const Table table = tabulate(summaries);
    Json out;
    out["scenario"] = request.scenario;
    out["assignments"] = request.assignments;
    Json seeds = Json::array();
    for (const RunRecord& record : records) {
        seeds.push_back(record.seed);
    }
    out["seeds"] = seeds;
    out["runs"] = records.size();
    out["finished"] = summaries.size();
    Json failed = Json::array();
    for (const RunRecord& record : records) {
        if (record.failed()) {
            failed.push_back({{"seed", record.seed}, {"message", record.message}});
        }
    }
    out["failed"] = failed;
    Json statistics = Json::object();
    for (const std::string& key : table.keys) {
        std::vector<double> values;
        for (const auto& [seed, row] : table.bySeed) {
            const auto found = row.find(key);
            if (found != row.end()) {
                values.push_back(found->second);
            }
        }
        Json entry = statisticsJson(analysis::sampleStatistics(values));
        if (const auto unit = unitOf(key, summaries.front().second)) {
            entry["unit"] = *unit;
        }
        statistics[key] = entry;
    }
    out["statistics"] = statistics;
    if (!summaries.empty()) {
        out["mean_stress"] = meanStress(summaries);
    }
    out["pooled"] = pooledHistograms(table);
    return out;
}

void writeEnsembleCsv(std::ostream& csv, const std::vector<RunRecord>& records)
{
    const Table table = tabulate(finishedSummaries(records));
    csv << "seed,status,message";
    for (const std::string& key : table.keys) {
        csv << ',' << csvField(key);
    }
    csv << '\n';
    for (const RunRecord& record : records) {
        csv << record.seed << ',' << (record.failed() ? "failed" : "finished") << ',' << csvField(record.message);
        const auto row = table.bySeed.find(record.seed);
        for (const std::string& key : table.keys) {
            csv << ',';
            if (row != table.bySeed.end()) {
                const auto value = row->second.find(key);
                if (value != row->second.end()) {
                    csv << formatValue(value->second);
                }
            }
        }
        csv << '\n';
    }
}

}  // namespace granular::cli
