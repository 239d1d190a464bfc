#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace granular {

/// The rows of a run kept in memory: time plus one value per observable, in the order of `columns`.
/// Scenario analyses (fits, packing statistics) read their inputs from here.
struct SeriesTable {
    std::vector<std::string> columns;
    std::vector<double> time;               ///< s
    std::vector<std::vector<double>> rows;  ///< rows[i][c]: value of columns[c] at time[i]

    void append(double t, const std::vector<double>& values)
    {
        time.push_back(t);
        rows.push_back(values);
    }

    [[nodiscard]] bool has(std::string_view name) const
    {
        return std::find(columns.begin(), columns.end(), name) != columns.end();
    }

    /// The whole column `name`; throws std::out_of_range when the series has no such column.
    [[nodiscard]] std::vector<double> column(std::string_view name) const
    {
        const auto it = std::find(columns.begin(), columns.end(), name);
        if (it == columns.end()) {
            throw std::out_of_range("series has no column '" + std::string(name) + "'");
        }
        const auto c = static_cast<std::size_t>(it - columns.begin());
        std::vector<double> values;
        values.reserve(rows.size());
        for (const auto& row : rows) {
            values.push_back(row[c]);
        }
        return values;
    }
};

}  // namespace granular
