#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace granular {

/// `json` as indented text for a file or the terminal. Strings that are not UTF-8 (a path or a CSV column name in
/// Latin-1, a name read from a checkpoint) are written with U+FFFD in place of their bad bytes: nlohmann's dump would
/// throw type_error.316 instead, and the command would end on the library's message with nothing written.
[[nodiscard]] inline std::string jsonText(const nlohmann::ordered_json& json)
{
    return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace granular
