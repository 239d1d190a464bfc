#include "JsonScalar.h"

#include <cstdint>
#include <string>

namespace granular {

std::optional<Value> jsonScalar(const nlohmann::ordered_json& leaf)
{
    using Json = nlohmann::ordered_json;
    switch (leaf.type()) {
    case Json::value_t::number_integer:
        return leaf.get<std::int64_t>();
    case Json::value_t::number_unsigned: {
        const auto n = leaf.get<std::uint64_t>();
        if (n > static_cast<std::uint64_t>(INT64_MAX)) {
            return static_cast<double>(n);
        }
        return static_cast<std::int64_t>(n);
    }
    case Json::value_t::number_float:
        return leaf.get<double>();
    case Json::value_t::boolean:
        return leaf.get<bool>();
    case Json::value_t::string:
        return leaf.get<std::string>();
    default:
        return std::nullopt;
    }
}

}  // namespace granular
