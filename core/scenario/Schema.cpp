#include "scenario/Schema.h"

#include "scenario/ScenarioError.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace granular {

namespace {

constexpr double kLargestSeed = 9007199254740991.0;  // 2^53 - 1: exact in a JSON number

Parameter real(std::string key, std::string unit, double defaultValue, std::optional<double> minimum,
               std::optional<double> maximum, std::string description, Mutability mutability,
               bool minimumExclusive = false)
{
    Parameter p;
    p.key = std::move(key);
    p.kind = ParameterKind::Real;
    p.unit = std::move(unit);
    p.defaultValue = defaultValue;
    p.minimum = minimum;
    p.maximum = maximum;
    p.minimumExclusive = minimumExclusive;
    p.description = std::move(description);
    p.mutability = mutability;
    return p;
}

Parameter positive(std::string key, std::string unit, double defaultValue, double maximum,
                   std::string description, Mutability mutability)
{
    return real(std::move(key), std::move(unit), defaultValue, 0.0, maximum, std::move(description),
                mutability, true);
}

Parameter integer(std::string key, std::int64_t defaultValue, double minimum, double maximum,
                  std::string description, Mutability mutability)
{
    Parameter p;
    p.key = std::move(key);
    p.kind = ParameterKind::Integer;
    p.defaultValue = defaultValue;
    p.minimum = minimum;
    p.maximum = maximum;
    p.description = std::move(description);
    p.mutability = mutability;
    return p;
}

Parameter choice(std::string key, std::string defaultValue, std::vector<std::string> choices,
                 std::string description, Mutability mutability)
{
    Parameter p;
    p.key = std::move(key);
    p.kind = ParameterKind::Choice;
    p.defaultValue = std::move(defaultValue);
    p.choices = std::move(choices);
    p.description = std::move(description);
    p.mutability = mutability;
    return p;
}

Parameter text(std::string key, std::string defaultValue, std::string description)
{
    Parameter p;
    p.key = std::move(key);
    p.kind = ParameterKind::Text;
    p.defaultValue = std::move(defaultValue);
    p.description = std::move(description);
    return p;
}

Parameter boolean(std::string key, bool defaultValue, std::string description, Mutability mutability)
{
    Parameter p;
    p.key = std::move(key);
    p.kind = ParameterKind::Boolean;
    p.defaultValue = defaultValue;
    p.description = std::move(description);
    p.mutability = mutability;
    return p;
}

std::string kindName(const Value& value)
{
    switch (value.index()) {
    case 0:
        return "a real number";
    case 1:
        return "an integer";
    case 2:
        return "a boolean";
    default:
        return "a text";
    }
}

[[noreturn]] void reject(const Parameter& p, const std::string& what)
{
    throw ScenarioError(p.key + ": " + what + "; accepted: " + p.acceptedDescription());
}

bool inRange(const Parameter& p, double x)
{
    if (p.minimum && (p.minimumExclusive ? x <= *p.minimum : x < *p.minimum)) {
        return false;
    }
    if (p.maximum && (p.maximumExclusive ? x >= *p.maximum : x > *p.maximum)) {
        return false;
    }
    return true;
}

}  // namespace

const Schema& Schema::instance()
{
    static const Schema schema;
    return schema;
}

Schema::Schema()
{
    constexpr auto live = Mutability::Live;
    constexpr auto reset = Mutability::OnReset;
    constexpr double big = 1e9;
    parameters_ = {
        text("name", "untitled", "short name of the scenario"),
        text("description", "", "one-line description of the scenario"),
        integer("seed", 1, 0, kLargestSeed, "seed of every random choice (placement, sweep order)", reset),
        choice("setup", "cloud", {"cloud"}, "how the initial particles and walls are built", reset),
        integer("world.dimension", 3, 2, 3, "2: disks in the x-y plane, 3: spheres", reset),
        positive("run.time", "s", 1.0, big, "simulated time of a run", live),
        positive("output.interval", "s", 0.01, big, "simulated time between rows of the series", live),
        boolean("output.vtk", false, "write particle frames as VTK PolyData (.vtp) at each output row", live),
        choice("solver.method", "ballistic", {"ballistic"},
               "ballistic: free flight under gravity, no contacts", reset),
        positive("solver.dt", "s", 1e-3, 1e3, "time step", live),
        integer("solver.iterations", 40, 1, 1e7, "Gauss-Seidel iterations per step (contact methods)", live),
        real("gravity.x", "m/s^2", 0.0, -1e6, 1e6, "gravitational acceleration, x component", live),
        real("gravity.y", "m/s^2", -9.81, -1e6, 1e6, "gravitational acceleration, y component (up is +y)",
             live),
        real("gravity.z", "m/s^2", 0.0, -1e6, 1e6, "gravitational acceleration, z component", live),
        integer("particles.count", 100, 1, 1e7, "number of particles", reset),
        positive("particles.radius_min", "m", 0.5e-3, 1e6, "smallest radius (uniform distribution)", reset),
        positive("particles.radius_max", "m", 0.5e-3, 1e6, "largest radius (uniform distribution)", reset),
        positive("particles.density", "kg/m^3", 2500.0, 1e9, "material density: mass ~ r^3 (3D), r^2 (2D)",
                 reset),
        real("particles.gap", "1", 0.2, 0.0, 10.0, "lattice gap between neighbours, in largest diameters",
             reset),
        real("particles.lift", "m", 0.0, 0.0, 1e6, "height of the lowest lattice row above the floor", reset),
        real("particles.jitter", "1", 0.0, 0.0, 0.5, "random displacement on the lattice, in gap widths",
             reset),
        real("particles.velocity.x", "m/s", 0.0, -1e6, 1e6, "initial velocity, x component", reset),
        real("particles.velocity.y", "m/s", 0.0, -1e6, 1e6, "initial velocity, y component", reset),
        real("particles.velocity.z", "m/s", 0.0, -1e6, 1e6, "initial velocity, z component", reset),
        positive("box.width", "m", 0.02, 1e6, "box extent along x", reset),
        positive("box.height", "m", 0.02, 1e6, "box extent along y (vertical)", reset),
        positive("box.depth", "m", 0.02, 1e6, "box extent along z (3D only)", reset),
        choice("box.walls", "open", {"none", "floor", "open", "closed"},
               "plane walls of the box: none, floor only, floor and sides, all", reset),
        integer("probe.index", 0, 0, 1e7, "particle whose position and velocity the probe_* columns record",
                reset),
    };
}

const Parameter* Schema::find(std::string_view key) const
{
    const auto it = std::find_if(parameters_.begin(), parameters_.end(),
                                 [key](const Parameter& p) { return p.key == key; });
    return it == parameters_.end() ? nullptr : &*it;
}

Value Schema::validate(const Parameter& p, const Value& value) const
{
    switch (p.kind) {
    case ParameterKind::Real: {
        double x = 0.0;
        if (const auto* d = std::get_if<double>(&value)) {
            x = *d;
        } else if (const auto* n = std::get_if<std::int64_t>(&value)) {
            x = static_cast<double>(*n);
        } else {
            reject(p, "expected a real number, got " + kindName(value) + " " + formatValue(value));
        }
        if (!std::isfinite(x) || !inRange(p, x)) {
            reject(p, formatValue(x) + " is out of range");
        }
        return x;
    }
    case ParameterKind::Integer: {
        std::int64_t n = 0;
        if (const auto* i = std::get_if<std::int64_t>(&value)) {
            n = *i;
        } else if (const auto* d = std::get_if<double>(&value); d != nullptr && std::isfinite(*d) &&
                                                                 std::floor(*d) == *d && std::fabs(*d) <= kLargestSeed) {
            n = static_cast<std::int64_t>(*d);
        } else {
            reject(p, "expected an integer, got " + kindName(value) + " " + formatValue(value));
        }
        if (!inRange(p, static_cast<double>(n))) {
            reject(p, std::to_string(n) + " is out of range");
        }
        return n;
    }
    case ParameterKind::Boolean:
        if (!std::holds_alternative<bool>(value)) {
            reject(p, "expected true or false, got " + kindName(value) + " " + formatValue(value));
        }
        return value;
    case ParameterKind::Choice: {
        const auto* s = std::get_if<std::string>(&value);
        if (s == nullptr) {
            reject(p, "expected a name, got " + kindName(value) + " " + formatValue(value));
        }
        if (std::find(p.choices.begin(), p.choices.end(), *s) == p.choices.end()) {
            reject(p, "\"" + *s + "\" is not a known choice");
        }
        return value;
    }
    case ParameterKind::Text:
        if (!std::holds_alternative<std::string>(value)) {
            reject(p, "expected a text, got " + kindName(value) + " " + formatValue(value));
        }
        return value;
    }
    return value;
}

Value Schema::parse(std::string_view key, std::string_view text) const
{
    const Parameter* p = find(key);
    if (p == nullptr) {
        throw ScenarioError("unknown key '" + std::string(key) + "'; run `granular show` to list the keys");
    }
    const std::string quoted = "\"" + std::string(text) + "\"";
    switch (p->kind) {
    case ParameterKind::Real: {
        double x = 0.0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
        if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
            reject(*p, "expected a real number, got " + quoted);
        }
        return validate(*p, x);
    }
    case ParameterKind::Integer: {
        std::int64_t n = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
            reject(*p, "expected an integer, got " + quoted);
        }
        return validate(*p, n);
    }
    case ParameterKind::Boolean:
        if (text == "true" || text == "1") {
            return true;
        }
        if (text == "false" || text == "0") {
            return false;
        }
        reject(*p, "expected true or false, got " + quoted);
    case ParameterKind::Choice:
    case ParameterKind::Text:
        return validate(*p, std::string(text));
    }
    return {};
}

}  // namespace granular
