#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace granular::ui {

/// Rows of one column layout carried into another by column name (a method switch: cd's sliding and force_change, md's
/// overlaps): per column of `to`, its index in `from`, or from.size() where `from` lacks it.
[[nodiscard]] inline std::vector<std::size_t> columnSources(const std::vector<std::string>& from,
                                                            const std::vector<std::string>& to)
{
    std::vector<std::size_t> sources;
    sources.reserve(to.size());
    for (const auto& name : to) {
        sources.push_back(static_cast<std::size_t>(std::find(from.begin(), from.end(), name) - from.begin()));
    }
    return sources;
}

/// A row's values in the layout `sources` describes (columnSources); NaN where the row lacks the column (not drawn).
[[nodiscard]] inline std::vector<double> remapValues(const std::vector<double>& values,
                                                     const std::vector<std::size_t>& sources)
{
    std::vector<double> out;
    out.reserve(sources.size());
    for (const std::size_t c : sources) {
        out.push_back(c < values.size() ? values[c] : std::numeric_limits<double>::quiet_NaN());
    }
    return out;
}

}  // namespace granular::ui
