#include "CsvSeries.h"

#include "scenario/Value.h"
#include "util/ShownTime.h"
#include "util/Utf8.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace granular {

CsvSeries::CsvSeries(std::ostream& out, const std::vector<std::string>& columns) : out_(out)
{
    out_ << "t";
    for (const auto& name : columns) {
        out_ << ',' << name;
    }
    out_ << '\n';
}

void CsvSeries::row(double time, const std::vector<double>& values)
{
    out_ << timeText(time);
    for (const double x : values) {
        out_ << ',' << formatValue(x);
    }
    out_ << '\n';
}

std::size_t CsvTable::column(const std::string& name) const
{
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i] == name) {
            return i;
        }
    }
    std::string list;
    for (const auto& c : columns) {
        list += (list.empty() ? "" : ", ") + c;
    }
    throw std::runtime_error("--column: no column '" + name + "'; accepted: one of " + list);
}

CsvTable readCsv(const std::string& path)
{
    // A directory read as "empty", a device such as /dev/zero read without end: refused by kind. A pipe is read (a
    // shell's <(...) or a FIFO), as its writer gives it.
    std::error_code statusError;
    const auto status = std::filesystem::status(path, statusError);
    if (std::filesystem::is_directory(status) || std::filesystem::is_character_file(status) ||
        std::filesystem::is_block_file(status) || std::filesystem::is_socket(status)) {
        throw std::runtime_error(path + ": not a CSV file (" +
                                 (std::filesystem::is_directory(status) ? "a directory" : "a device or socket") +
                                 "); accepted: a file or a pipe");
    }
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error(path + ": cannot read the CSV file");
    }
    CsvTable table;
    std::string line;
    // Lines may end in CRLF (a file saved on Windows): the '\r' is not part of the last cell.
    const auto readLine = [&in, &line] {
        if (!std::getline(in, line)) {
            return false;
        }
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        return true;
    };
    if (!readLine()) {
        throw std::runtime_error(path + ": empty file, expected a header row");
    }
    line = std::string(withoutByteOrderMark(line));
    if (line.empty()) {
        throw std::runtime_error(path + ": empty header row; accepted: the column names separated by commas");
    }
    std::stringstream header(line);
    for (std::string name; std::getline(header, name, ',');) {
        if (std::find(table.columns.begin(), table.columns.end(), name) != table.columns.end()) {
            std::string message = path;
            message += ": column '" + name + "' appears twice in the header; accepted: each column name once";
            throw std::runtime_error(message);
        }
        table.columns.push_back(name);
    }
    for (std::size_t lineNumber = 2; readLine(); ++lineNumber) {
        if (line.empty()) {
            continue;
        }
        std::vector<double> row;
        std::stringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');) {
            double x = 0.0;
            const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
            if (error != std::errc() || end != cell.data() + cell.size()) {
                std::string message = path;
                message += ": line " + std::to_string(lineNumber) + ": '" + cell + "' is not a number";
                throw std::runtime_error(message);
            }
            row.push_back(x);
        }
        if (row.size() != table.columns.size()) {
            throw std::runtime_error(path + ": line " + std::to_string(lineNumber) + ": " + std::to_string(row.size()) +
                                     " cells, the header has " + std::to_string(table.columns.size()));
        }
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (const char c : text) {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
    }
    return quoted + "\"";
}

}  // namespace granular
