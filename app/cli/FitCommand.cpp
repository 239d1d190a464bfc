#include "cli/FitCommand.h"

#include "CsvSeries.h"
#include "JsonText.h"
#include "analysis/DampedOscillationFit.h"
#include "cli/Commands.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace granular::cli {

namespace {

std::string describe(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

/// Times and values of one column of the CSV, over the window; throws std::runtime_error or
/// std::invalid_argument with the message for the user.
analysis::TimeSeries readWindow(const std::string& csvPath, const std::string& column, std::optional<double> from,
                                std::optional<double> to)
{
    for (const auto& [name, bound] : {std::pair{"--from", from}, std::pair{"--to", to}}) {
        if (bound && !std::isfinite(*bound)) {
            throw std::invalid_argument(std::string("fit: ") + name + " is " + describe(*bound) +
                                        "; accepted: a finite time in s (left out: the series' first or last row)");
        }
    }
    if (from && to && *from >= *to) {
        throw std::invalid_argument("fit: --from " + describe(*from) + " must be less than --to " + describe(*to));
    }
    const CsvTable table = readCsv(csvPath);
    if (std::find(table.columns.begin(), table.columns.end(), "t") == table.columns.end()) {
        throw std::runtime_error(csvPath + ": no time column 't' in the header");
    }
    const std::size_t timeIndex = table.column("t");
    const std::size_t valueIndex = table.column(column);
    std::vector<double> t;
    std::vector<double> x;
    for (const auto& row : table.rows) {
        t.push_back(row[timeIndex]);
        x.push_back(row[valueIndex]);
    }
    analysis::TimeSeries window = analysis::selectWindow(t, x, from, to);
    if (window.t.size() < analysis::kMinimumFitSamples) {
        throw std::invalid_argument("fit: " + std::to_string(window.t.size()) + " samples of '" + column +
                                    "' in the window " + (from ? describe(*from) : "-inf") +
                                    " <= t <= " + (to ? describe(*to) : "inf") + ", at least " +
                                    std::to_string(analysis::kMinimumFitSamples) + " are needed");
    }
    return window;
}

/// The unit of the CSV's column `column` as the run's summary.json beside it names it ("units"), or a description of
/// it where there is none to read.
std::string columnUnit(const std::string& csvPath, const std::string& column)
{
    std::string fallback = "the unit of column " + column;
    std::ifstream file(std::filesystem::path(csvPath).parent_path() / "summary.json");
    if (!file) {
        return fallback;
    }
    const nlohmann::json summary = nlohmann::json::parse(file, nullptr, false);
    if (summary.is_discarded() || !summary.is_object() || !summary.contains("units") || !summary["units"].is_object() ||
        !summary["units"].contains(column) || !summary["units"][column].is_string()) {
        return fallback;
    }
    const auto unit = summary["units"][column].get<std::string>();
    return unit.empty() ? "1" : unit;
}

}  // namespace

int fitSeries(const std::string& csvPath, const std::string& column, std::optional<double> from,
              std::optional<double> to, std::ostream& out, std::ostream& err)
{
    analysis::TimeSeries window;
    analysis::DampedOscillationFit fit;
    try {
        window = readWindow(csvPath, column, from, to);
        fit = analysis::fitDampedOscillation(window.t, window.x);
    } catch (const std::runtime_error& error) {  // unreadable file, unknown column
        err << "granular: " << error.what() << '\n';
        return BadInput;
    } catch (const std::invalid_argument& error) {  // empty or short window, unusable samples
        err << "granular: " << error.what() << '\n';
        return BadInput;
    }
    nlohmann::ordered_json json;
    json["x0"] = fit.x0;
    json["amplitude"] = fit.amplitude;  // null where it overflows: a window later than ~709 tau
    json["tau"] = fit.tau;
    json["omega"] = fit.omega;
    json["phase"] = fit.phase;
    json["rmse"] = fit.rmse;
    json["r2"] = fit.r2;
    json["samples"] = window.t.size();
    json["from"] = window.t.front();
    json["to"] = window.t.back();
    json["amplitude_at_from"] = fit.amplitudeAtStart;  // A exp(-from/tau), finite where amplitude is not
    json["converged"] = fit.converged;
    json["x0_error"] = fit.x0Error;  // standard errors, one sigma; null where the data do not determine them
    json["amplitude_at_from_error"] = fit.amplitudeAtStartError;
    json["tau_error"] = fit.tauError;
    json["omega_error"] = fit.omegaError;
    json["resolved"] = fit.resolved;
    const std::string unit = columnUnit(csvPath, column);
    json["units"] = {{"x0", unit},
                     {"amplitude", unit},
                     {"tau", "s"},
                     {"omega", "rad/s"},
                     {"phase", "rad"},
                     {"rmse", unit},
                     {"r2", "1"},
                     {"samples", "1"},
                     {"from", "s"},
                     {"to", "s"},
                     {"amplitude_at_from", unit},
                     {"x0_error", unit},
                     {"amplitude_at_from_error", unit},
                     {"tau_error", "s"},
                     {"omega_error", "rad/s"}};
    out << jsonText(json) << '\n';
    if (!fit.converged) {
        err << "granular: fit: '" << column << "' did not converge after " << fit.iterations
            << " Levenberg-Marquardt iterations (best rmse " << fit.rmse << ")\n";
        return RuntimeFailure;
    }
    if (!fit.resolved) {
        err << "granular: fit: no oscillation resolved in '" << column << "': the amplitude at t = " << window.t.front()
            << " s is " << fit.amplitudeAtStart << " +- " << fit.amplitudeAtStartError << " " << unit
            << " and omega (to - from) = " << fit.omega * (window.t.back() - window.t.front())
            << " rad; a resolved one has " << analysis::kResolvedAmplitude
            << " standard errors and at least half a period, pi rad (\"resolved\": false; noise only?)\n";
    }
    return Success;
}

}  // namespace granular::cli
