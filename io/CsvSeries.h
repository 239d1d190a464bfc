#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace granular {

/// Writes a series as CSV: a header of names (first column `t`), then one row per sample,
/// numbers in shortest round-trip form so that re-reading gives the same doubles.
class CsvSeries {
public:
    CsvSeries(std::ostream& out, const std::vector<std::string>& columns);
    void row(double time, const std::vector<double>& values);

private:
    std::ostream& out_;
};

/// A text field of a CSV row: as it is, or in double quotes (inner quotes doubled, line breaks as blanks) where it
/// holds a comma, a quote or a line break.
[[nodiscard]] std::string csvField(const std::string& text);

/// A CSV file read back: column names and rows of numbers. Throws std::runtime_error on bad input.
struct CsvTable {
    std::vector<std::string> columns;
    std::vector<std::vector<double>> rows;

    /// Index of the named column; throws std::runtime_error listing the columns when absent.
    [[nodiscard]] std::size_t column(const std::string& name) const;
};
CsvTable readCsv(const std::string& path);

}  // namespace granular
