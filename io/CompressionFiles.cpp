#include "CompressionFiles.h"

#include "CsvSeries.h"
#include "scenario/Value.h"

#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

namespace granular {

void writeCompressionLevels(std::ostream& out, const std::vector<analysis::CompressionLevel>& levels)
{
    out << "stroke,level,t,compression,top_force,volume_fraction,coordination,coordination_above_threshold,"
           "mean_force,phi_z_mean_force\n";
    for (const auto& l : levels) {
        out << l.stroke << ',' << l.level << ',' << formatValue(l.time) << ',' << formatValue(l.compression) << ','
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

analysis::CompressionRun readCompressionRun(const std::filesystem::path& directory)
{
    analysis::CompressionRun run;
    const CsvTable series = readCsv((directory / "series.csv").string());
    const std::size_t compression = series.column("compression");
    const std::size_t stroke = series.column("stroke");
    const std::size_t topForce = series.column("top_force");
    for (const auto& row : series.rows) {
        run.compression.push_back(row[compression]);
        run.stroke.push_back(std::llround(row[stroke]));
        run.topForce.push_back(row[topForce]);
    }
    const CsvTable levels = readCsv((directory / "levels.csv").string());
    std::map<std::pair<std::int64_t, int>, std::size_t> index;
    for (const auto& row : levels.rows) {
        analysis::CompressionLevel l;
        l.stroke = std::llround(row[levels.column("stroke")]);
        l.level = static_cast<int>(std::lround(row[levels.column("level")]));
        l.time = row[levels.column("t")];
        l.compression = row[levels.column("compression")];
        l.topForce = row[levels.column("top_force")];
        l.volumeFraction = row[levels.column("volume_fraction")];
        l.coordination = row[levels.column("coordination")];
        l.coordinationAbove = row[levels.column("coordination_above_threshold")];
        l.meanForce = row[levels.column("mean_force")];
        index[{l.stroke, l.level}] = run.levels.size();
        run.levels.push_back(std::move(l));
    }
    const CsvTable forces = readCsv((directory / "contact_forces.csv").string());
    for (const auto& row : forces.rows) {
        const auto found = index.find(
            {std::llround(row[forces.column("stroke")]), static_cast<int>(std::lround(row[forces.column("level")]))});
        if (found == index.end()) {
            throw std::runtime_error((directory / "contact_forces.csv").string() +
                                     ": a force of a level that levels.csv does not have");
        }
        run.levels[found->second].forces.push_back(row[forces.column("force")]);
    }
    return run;
}

}  // namespace granular
