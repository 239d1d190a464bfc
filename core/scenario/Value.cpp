#include "scenario/Value.h"

#include <array>
#include <charconv>
#include <iomanip>
#include <sstream>

namespace granular {

namespace {

std::string formatReal(double x)
{
    std::array<char, 32> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), x);
    return {buffer.data(), result.ptr};
}

}  // namespace

std::string formatShort(double x)
{
    std::ostringstream text;
    text << std::setprecision(3) << x;
    return text.str();
}

std::string formatValue(const Value& value)
{
    struct Formatter {
        std::string operator()(double x) const { return formatReal(x); }
        std::string operator()(std::int64_t n) const { return std::to_string(n); }
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
    };
    return std::visit(Formatter{}, value);
}

}  // namespace granular
