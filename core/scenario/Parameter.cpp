#include "scenario/Parameter.h"

namespace granular {

namespace {

std::string bound(const std::optional<double>& limit, double fallback, bool integer)
{
    const double x = limit.value_or(fallback);
    if (integer) {
        return std::to_string(static_cast<long long>(x));
    }
    return formatValue(x);
}

}  // namespace

std::string Parameter::acceptedDescription() const
{
    switch (kind) {
    case ParameterKind::Boolean:
        return "true or false";
    case ParameterKind::Text:
        return "a UTF-8 text";
    case ParameterKind::Choice: {
        std::string list;
        for (const auto& choice : choices) {
            list += (list.empty() ? "" : ", ") + choice;
        }
        return "one of " + list;
    }
    case ParameterKind::Integer:
    case ParameterKind::Real: {
        const bool integer = kind == ParameterKind::Integer;
        std::string text = integer ? "an integer in " : "a real number in ";
        text += minimum ? (minimumExclusive ? "(" : "[") + bound(minimum, 0, integer) : "(-inf";
        text += ", ";
        text += maximum ? bound(maximum, 0, integer) + (maximumExclusive ? ")" : "]") : "inf)";
        if (!unit.empty() && unit != "1") {
            text += " " + unit;
        }
        return text;
    }
    }
    return {};
}

}  // namespace granular
