#pragma once

#include <stdexcept>
#include <string>

namespace granular {

/// Bad scenario input: the message is one line naming the key (or file position) and what is accepted.
/// Keys, values and paths in it come from the user's file, so control characters in them (a JSON key may
/// hold "\n") are written as escapes (\n, \t, \xNN): the message stays one line whatever the input.
class ScenarioError : public std::runtime_error {
public:
    explicit ScenarioError(const std::string& message);
};

/// The message with every control character written as an escape.
std::string oneLineMessage(const std::string& message);

}  // namespace granular
