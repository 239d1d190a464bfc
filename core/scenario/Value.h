#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace granular {

/// A scenario parameter value: real number, integer, boolean or text (names, choices).
using Value = std::variant<double, std::int64_t, bool, std::string>;

/// The value as it would be written in a scenario file, e.g. `0.01`, `40`, `true`, `"cd"`.
std::string formatValue(const Value& value);

/// x with 3 significant digits, as printf's %.3g writes it: for numbers a message derives (sizes, counts, bounds).
std::string formatShort(double x);

}  // namespace granular
