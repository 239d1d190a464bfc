#pragma once

#include "scenario/Value.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace granular {

/// A JSON number, boolean or string as a scenario Value (an unsigned integer beyond int64 becomes a real);
/// none for an object, an array or null.
[[nodiscard]] std::optional<Value> jsonScalar(const nlohmann::ordered_json& leaf);

}  // namespace granular
