#pragma once

#include <stdexcept>
#include <string>

namespace granular {

/// Bad scenario input: the message is one line naming the key (or file position) and what is accepted.
class ScenarioError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace granular
