#include "scenario/ScenarioError.h"

#include <array>

namespace granular {

std::string oneLineMessage(const std::string& message)
{
    std::string line;
    line.reserve(message.size());
    for (const char c : message) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n') {
            line += "\\n";
        } else if (c == '\r') {
            line += "\\r";
        } else if (c == '\t') {
            line += "\\t";
        } else if (byte < 0x20 || byte == 0x7f) {
            constexpr std::array<char, 16> hex{'0', '1', '2', '3', '4', '5', '6', '7',
                                               '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
            line += "\\x";
            line += hex[byte >> 4U];
            line += hex[byte & 0xfU];
        } else {
            line += c;
        }
    }
    return line;
}

ScenarioError::ScenarioError(const std::string& message) : std::runtime_error(oneLineMessage(message)) {}

}  // namespace granular
