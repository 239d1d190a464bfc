#pragma once

#include "scenario/Parameter.h"

#include <string_view>
#include <vector>

namespace granular {

/// The single description of every scenario parameter. The JSON loader, the CLI's --set,
/// the GUI parameter panel and the documentation all read it.
class Schema {
public:
    static const Schema& instance();

    [[nodiscard]] const std::vector<Parameter>& parameters() const { return parameters_; }
    [[nodiscard]] const Parameter* find(std::string_view key) const;

    /// Checks a value against the parameter's kind and range; throws ScenarioError naming the key.
    /// Integers are accepted for real parameters and converted.
    [[nodiscard]] static Value validate(const Parameter& parameter, const Value& value);

    /// Parses text given on a command line or in a GUI field ("0.01", "true", "cd") for the key.
    [[nodiscard]] Value parse(std::string_view key, std::string_view text) const;

private:
    Schema();
    std::vector<Parameter> parameters_;
};

}  // namespace granular
