#include "CompressionFiles.h"

#include "CsvSeries.h"
#include "scenario/Value.h"
#include "sim/Run.h"
#include "util/ShownTime.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

namespace granular {

void writeCompressionLevels(std::ostream& out, const std::vector<analysis::CompressionLevel>& levels)
{
    out << "stroke,level,t,compression,top_force,volume_fraction,coordination,coordination_above_threshold,"
           "mean_force,phi_z_mean_force\n";
    for (const auto& l : levels) {
        out << l.stroke << ',' << l.level << ',' << timeText(l.time) << ',' << formatValue(l.compression) << ','
            << formatValue(l.topForce) << ',' << formatValue(l.volumeFraction) << ',' << formatValue(l.coordination)
            << ',' << formatValue(l.coordinationAbove) << ',' << formatValue(l.meanForce) << ','
            << formatValue(l.volumeFraction * l.coordination * l.meanForce) << '\n';
    }
}

void writeContactForces(std::ostream& out, const std::vector<analysis::CompressionLevel>& levels)
{
    out << "stroke,level,force\n";
    for (const auto& l : levels) {
        for (const double f : l.forces) {
            out << l.stroke << ',' << l.level << ',' << formatValue(f) << '\n';
        }
    }
}

namespace {

/// A table of one of a compression run's files, read with the file's name in its messages.
struct RunFile {
    std::string path;
    CsvTable table;

    explicit RunFile(const std::filesystem::path& file) : path(file.string()), table(readCsv(path)) {}

    [[nodiscard]] std::size_t column(const std::string& name) const
    {
        try {
            return table.column(name);
        } catch (const std::runtime_error&) {
            throw std::runtime_error(path + ": no column '" + name + "'");
        }
    }

    /// Row `row`'s value of column `name`; throws naming the file, data row (1 the first after the header) and column
    /// when it is not finite or, for a non-negative quantity (a force, a count), below 0.
    [[nodiscard]] double value(std::size_t row, const std::string& name, bool nonNegative = false) const
    {
        const double x = table.rows[row][column(name)];
        if (!std::isfinite(x) || (nonNegative && x < 0.0)) {
            throw std::runtime_error(path + ", data row " + std::to_string(row + 1) + ": " + name + " = " +
                                     formatValue(x) + "; accepted: a finite number" + (nonNegative ? " >= 0" : ""));
        }
        return x;
    }

    /// Row `row`'s value of column `name`, a whole number from 0 to `largest` (a stroke or a level: 2.6 was rounded to
    /// 3, a level of 4294967298 wrapped to 2); throws naming the file, data row and column otherwise.
    [[nodiscard]] std::int64_t count(std::size_t row, const std::string& name, std::int64_t largest) const
    {
        const double x = value(row, name, true);
        if (x != std::floor(x) || x > static_cast<double>(largest)) {
            throw std::runtime_error(path + ", data row " + std::to_string(row + 1) + ": " + name + " = " +
                                     formatValue(x) + "; accepted: a whole number from 0 to " +
                                     std::to_string(largest));
        }
        return static_cast<std::int64_t>(x);
    }
};

/// The largest stroke a file may name (a double counts exactly to 2^53) and the largest level.
constexpr std::int64_t kLargestStroke = std::int64_t{1} << 53;
constexpr std::int64_t kLargestLevel = std::numeric_limits<int>::max();

}  // namespace

analysis::CompressionRun readCompressionRun(const std::filesystem::path& directory)
{
    analysis::CompressionRun run;
    const RunFile series(directory / "series.csv");
    for (std::size_t r = 0; r < series.table.rows.size(); ++r) {
        run.compression.push_back(series.value(r, "compression"));
        run.stroke.push_back(series.count(r, "stroke", kLargestStroke));
        run.topForce.push_back(series.value(r, "top_force"));
    }
    const RunFile levels(directory / "levels.csv");
    std::map<std::pair<std::int64_t, int>, std::size_t> index;
    for (std::size_t r = 0; r < levels.table.rows.size(); ++r) {
        analysis::CompressionLevel l;
        l.stroke = levels.count(r, "stroke", kLargestStroke);
        l.level = static_cast<int>(levels.count(r, "level", kLargestLevel));
        l.time = levels.value(r, "t");
        l.compression = levels.value(r, "compression");
        l.topForce = levels.value(r, "top_force");
        l.volumeFraction = levels.value(r, "volume_fraction", true);
        l.coordination = levels.value(r, "coordination", true);
        l.coordinationAbove = levels.value(r, "coordination_above_threshold", true);
        l.meanForce = levels.value(r, "mean_force", true);
        index[{l.stroke, l.level}] = run.levels.size();
        run.levels.push_back(std::move(l));
    }
    const RunFile forces(directory / "contact_forces.csv");
    for (std::size_t r = 0; r < forces.table.rows.size(); ++r) {
        const auto found = index.find(
            {forces.count(r, "stroke", kLargestStroke), static_cast<int>(forces.count(r, "level", kLargestLevel))});
        if (found == index.end()) {
            throw std::runtime_error(forces.path + ", data row " + std::to_string(r + 1) +
                                     ": a force of a level that levels.csv does not have");
        }
        run.levels[found->second].forces.push_back(forces.value(r, "force", true));
    }
    // Whether the plate's program was over when the run stopped (summary.json; an unreadable or older summary: no).
    std::ifstream summaryFile(directory / "summary.json");
    const auto summary = nlohmann::json::parse(summaryFile, nullptr, false);
    run.protocolEnded = summary.is_object() && summary.contains("stopped") && summary["stopped"].is_string() &&
                        summary["stopped"].get<std::string>() == runEndName(RunEnd::StoppingRule);
    return run;
}

}  // namespace granular
