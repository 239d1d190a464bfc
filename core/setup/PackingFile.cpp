#include "setup/PackingFile.h"

#include "scenario/ScenarioError.h"
#include "scenario/Value.h"
#include "util/Utf8.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>

namespace granular {

namespace {

/// The lines of a text, without line ends (LF or CRLF) and with their numbers.
struct Lines {
    std::vector<std::string_view> text;

    explicit Lines(std::string_view all)
    {
        std::size_t start = 0;
        while (start <= all.size()) {
            std::size_t end = all.find('\n', start);
            if (end == std::string_view::npos) {
                end = all.size();
            }
            std::string_view line = all.substr(start, end - start);
            if (!line.empty() && line.back() == '\r') {
                line.remove_suffix(1);
            }
            text.push_back(line);
            if (end == all.size()) {
                break;
            }
            start = end + 1;
        }
    }
};

// The ranges of the scenario keys that a file's columns stand in for (particles.radius_max, particles.density,
// particles.velocity.*): m, kg/m^3, m/s; and rad/s for the spin, which no key sets.
constexpr double kLargestRadius = 1e6;
constexpr double kLargestDensity = 1e9;
constexpr double kLargestSpeed = 1e6;
constexpr double kLargestSpin = 1e9;

class Reader {
public:
    explicit Reader(std::string name) : name_(std::move(name)) {}

    [[noreturn]] void fail(std::size_t line, const std::string& what) const
    {
        throw ScenarioError("particles.file: " + name_ + ":" + std::to_string(line) + ": " + what);
    }

    /// A finite number, or a failure naming the field.
    double number(std::string_view field, std::size_t line, const char* what) const
    {
        double x = 0.0;
        const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), x);
        if (field.empty() || error != std::errc() || end != field.data() + field.size() || !std::isfinite(x)) {
            fail(line, std::string(what) + " '" + std::string(field) + "' is not a finite number");
        }
        return x;
    }

    /// A number in (0, highest] (the scenario key's range), or a failure naming the field and the range.
    double positive(std::string_view field, std::size_t line, const char* what, double highest) const
    {
        const double x = number(field, line, what);
        if (!(x > 0.0) || x > highest) {
            fail(line, std::string(what) + " " + std::string(field) +
                           " is out of range; accepted: > 0 and <= " + formatShort(highest));
        }
        return x;
    }

    /// A number in [-largest, largest] (the scenario key's range), or a failure naming the field and the range.
    double bounded(std::string_view field, std::size_t line, const char* what, double largest) const
    {
        const double x = number(field, line, what);
        if (std::fabs(x) > largest) {
            fail(line, std::string(what) + " " + std::string(field) + " is out of range; accepted: -" +
                           formatShort(largest) + " to " + formatShort(largest));
        }
        return x;
    }

    /// A whole number >= 1 (`what`: "atom id", "atom count"), or a failure naming it.
    [[nodiscard]] long long identifier(std::string_view field, std::size_t line, const char* what = "atom id") const
    {
        long long id = 0;
        const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), id);
        if (field.empty() || error != std::errc() || end != field.data() + field.size() || id < 1) {
            fail(line, std::string(what) + " '" + std::string(field) + "'; accepted: a whole number from 1 to " +
                           std::to_string(std::numeric_limits<long long>::max()));
        }
        return id;
    }

private:
    std::string name_;
};

std::string_view trim(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = s.find_last_not_of(" \t");
    return s.substr(first, last - first + 1);
}

/// Whitespace-separated fields, a `#` comment dropped.
std::vector<std::string_view> fields(std::string_view line)
{
    line = line.substr(0, line.find('#'));
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
            ++i;
        }
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') {
            ++i;
        }
        if (i > start) {
            out.push_back(line.substr(start, i - start));
        }
    }
    return out;
}

/// The file's vector in this scenario's axes: the up axis becomes y, the cyclic order is kept.
Vec3 turned(const Vec3& v, Axis up)
{
    switch (up) {
    case Axis::X:
        return {v.z(), v.x(), v.y()};
    case Axis::Z:
        return {v.y(), v.z(), v.x()};
    case Axis::Y:
        break;
    }
    return v;
}

bool isSectionName(std::string_view line)
{
    const auto f = fields(line);
    return f.size() == 1 && std::isupper(static_cast<unsigned char>(f[0][0])) != 0;
}

Packing parseData(const Lines& lines, const Reader& reader, Axis up)
{
    std::optional<long long> declared;
    std::map<long long, Packing::Grain> grains;  // by id: the file's order of ids is kept sorted
    std::map<long long, std::size_t> velocityLine;
    bool inHeader = true;
    std::size_t i = 1;  // the first line is the title
    while (i < lines.text.size()) {
        const std::size_t number = i + 1;
        const std::string_view line = lines.text[i];
        const auto f = fields(line);
        if (f.empty()) {
            ++i;
            continue;
        }
        if (inHeader && !isSectionName(line)) {
            if (f.size() == 2 && f[1] == "atoms") {
                declared = reader.identifier(f[0], number, "atom count");
            }
            ++i;
            continue;
        }
        if (!isSectionName(line)) {
            reader.fail(number, "'" + std::string(trim(line)) + "' is outside a section");
        }
        inHeader = false;
        const std::string section(f[0]);
        if (section != "Atoms" && section != "Velocities") {
            reader.fail(number, "section " + section + " is not read; accepted: Atoms, Velocities");
        }
        ++i;
        // The section's lines follow one blank line and end at the next section or the end of the file.
        for (; i < lines.text.size() && !isSectionName(lines.text[i]); ++i) {
            const auto g = fields(lines.text[i]);
            const std::size_t at = i + 1;
            if (g.empty()) {
                continue;
            }
            const long long id = reader.identifier(g[0], at);
            if (section == "Atoms") {
                if (g.size() != 7 && g.size() != 10) {
                    reader.fail(at, std::to_string(g.size()) +
                                        " fields; accepted for atom style sphere: id type diameter density x y z "
                                        "[ix iy iz]");
                }
                Packing::Grain grain;
                grain.radius = 0.5 * reader.positive(g[2], at, "diameter", 2.0 * kLargestRadius);
                grain.density = reader.positive(g[3], at, "density", kLargestDensity);
                grain.position = turned(
                    Vec3(reader.number(g[4], at, "x"), reader.number(g[5], at, "y"), reader.number(g[6], at, "z")), up);
                if (!grains.emplace(id, grain).second) {
                    reader.fail(at, "atom id " + std::to_string(id) + " appears twice");
                }
            } else {
                if (g.size() != 7) {
                    reader.fail(at, std::to_string(g.size()) +
                                        " fields; accepted for atom style sphere: id vx vy vz wx wy wz");
                }
                if (!velocityLine.emplace(id, at).second) {
                    reader.fail(at, "the velocity of atom " + std::to_string(id) + " is given twice");
                }
            }
        }
    }
    if (grains.empty()) {
        reader.fail(lines.text.size(), "no Atoms section with grains");
    }
    if (declared && *declared != static_cast<long long>(grains.size())) {
        reader.fail(lines.text.size(), "the header declares " + std::to_string(*declared) +
                                           " atoms, the Atoms section has " + std::to_string(grains.size()));
    }
    for (const auto& [id, at] : velocityLine) {
        const auto grain = grains.find(id);
        if (grain == grains.end()) {
            reader.fail(at, "a velocity for atom " + std::to_string(id) + ", which the Atoms section does not have");
        }
        const auto g = fields(lines.text[at - 1]);
        grain->second.velocity =
            turned(Vec3(reader.bounded(g[1], at, "vx", kLargestSpeed), reader.bounded(g[2], at, "vy", kLargestSpeed),
                        reader.bounded(g[3], at, "vz", kLargestSpeed)),
                   up);
        grain->second.angularVelocity =
            turned(Vec3(reader.bounded(g[4], at, "wx", kLargestSpin), reader.bounded(g[5], at, "wy", kLargestSpin),
                        reader.bounded(g[6], at, "wz", kLargestSpin)),
                   up);
    }
    Packing packing;
    packing.grains.reserve(grains.size());
    for (auto& [id, grain] : grains) {
        packing.grains.push_back(grain);
    }
    return packing;
}

Packing parseCsv(const Lines& lines, const Reader& reader, Axis up, double defaultDensity)
{
    std::size_t first = 0;
    while (first < lines.text.size() && trim(lines.text[first]).empty()) {
        ++first;
    }
    if (first == lines.text.size()) {
        reader.fail(1,
                    "the file is empty; accepted: a CSV with the header x,y,z,radius[,density] or a LAMMPS data file");
    }
    static constexpr std::array<std::string_view, 8> kColumns = {"x", "y", "z", "radius", "density", "vx", "vy", "vz"};
    std::array<int, kColumns.size()> columnOf{};
    columnOf.fill(-1);
    int columnCount = 0;
    {
        const std::string_view header = lines.text[first];
        std::size_t start = 0;
        for (;; ++columnCount) {
            const std::size_t comma = header.find(',', start);
            const std::string_view name =
                trim(header.substr(start, comma == std::string_view::npos ? comma : comma - start));
            const auto* const known = std::find(kColumns.begin(), kColumns.end(), name);
            if (known == kColumns.end()) {
                reader.fail(first + 1, "unknown column '" + std::string(name) +
                                           "'; accepted: x, y, z, radius, density, vx, vy, vz");
            }
            auto& slot = columnOf[static_cast<std::size_t>(known - kColumns.begin())];
            if (slot >= 0) {
                reader.fail(first + 1, "column '" + std::string(name) + "' appears twice");
            }
            slot = columnCount;
            if (comma == std::string_view::npos) {
                ++columnCount;
                break;
            }
            start = comma + 1;
        }
        for (std::size_t c = 0; c < 4; ++c) {
            if (columnOf[c] < 0) {
                reader.fail(first + 1, "no column '" + std::string(kColumns[c]) +
                                           "'; accepted: a header with x, y, z, radius[, density, vx, vy, vz]");
            }
        }
    }
    Packing packing;
    for (std::size_t i = first + 1; i < lines.text.size(); ++i) {
        const std::string_view line = lines.text[i];
        if (trim(line).empty()) {
            continue;
        }
        std::vector<std::string_view> cells;
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = line.find(',', start);
            cells.push_back(trim(line.substr(start, comma == std::string_view::npos ? comma : comma - start)));
            if (comma == std::string_view::npos) {
                break;
            }
            start = comma + 1;
        }
        if (static_cast<int>(cells.size()) != columnCount) {
            reader.fail(i + 1, std::to_string(cells.size()) + " fields; accepted: " + std::to_string(columnCount) +
                                   " as in the header");
        }
        const auto cell = [&](std::size_t c) { return cells[static_cast<std::size_t>(columnOf[c])]; };
        Packing::Grain grain;
        grain.position = turned(Vec3(reader.number(cell(0), i + 1, "x"), reader.number(cell(1), i + 1, "y"),
                                     reader.number(cell(2), i + 1, "z")),
                                up);
        grain.radius = reader.positive(cell(3), i + 1, "radius", kLargestRadius);
        grain.density = columnOf[4] >= 0 ? reader.positive(cell(4), i + 1, "density", kLargestDensity) : defaultDensity;
        Vec3 v = Vec3::Zero();
        for (int a = 0; a < 3; ++a) {
            const std::size_t c = 5 + static_cast<std::size_t>(a);
            if (columnOf[c] >= 0) {
                v[a] = reader.bounded(cell(c), i + 1, kColumns[c].data(), kLargestSpeed);
            }
        }
        grain.velocity = turned(v, up);
        packing.grains.push_back(grain);
    }
    if (packing.grains.empty()) {
        reader.fail(first + 1, "no grains after the header");
    }
    return packing;
}

}  // namespace

Packing parsePacking(std::string_view text, const std::string& name, Axis upAxis, double defaultDensity)
{
    const Lines lines(withoutByteOrderMark(text));
    const Reader reader(name);
    const bool data = std::any_of(lines.text.begin(), lines.text.end(), [](std::string_view line) {
        const auto f = fields(line);
        return f.size() == 1 && f[0] == "Atoms";
    });
    return data ? parseData(lines, reader, upAxis) : parseCsv(lines, reader, upAxis, defaultDensity);
}

Packing readPackingFile(const std::string& path, Axis upAxis, double defaultDensity)
{
    std::error_code error;
    std::ifstream in;
    if (std::filesystem::is_regular_file(path, error)) {
        in.open(path, std::ios::binary);
    }
    if (!in.is_open() || !in) {
        throw ScenarioError("particles.file: " + path + ": cannot be read (missing or not a readable file)");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        throw ScenarioError("particles.file: " + path + ": reading failed");
    }
    return parsePacking(text.str(), path, upAxis, defaultDensity);
}

}  // namespace granular
