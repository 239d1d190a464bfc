#pragma once

#include "scenario/Value.h"

#include <optional>
#include <string>
#include <vector>

namespace granular {

enum class ParameterKind { Real, Integer, Boolean, Choice, Text };

/// Whether a change applies to the running simulation or only when it is rebuilt.
enum class Mutability { Live, OnReset };

/// One entry of the scenario schema: a dotted key with its unit, default and accepted range.
struct Parameter {
    std::string key;  ///< dotted path, e.g. "solver.dt"
    ParameterKind kind = ParameterKind::Real;
    std::string unit;  ///< SI unit or "1" for dimensionless; empty for integers/choices
    std::string description;
    Value defaultValue;
    std::optional<double> minimum;  ///< numeric kinds only
    std::optional<double> maximum;
    bool minimumExclusive = false;
    bool maximumExclusive = false;
    std::vector<std::string> choices;  ///< Choice kind only
    Mutability mutability = Mutability::OnReset;

    /// "a real number in (0, 10] s", "an integer in [1, 100000]", "one of cd, md", ...
    [[nodiscard]] std::string acceptedDescription() const;
};

}  // namespace granular
