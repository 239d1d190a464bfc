#include "ValueText.h"

namespace granular::ui {

QString displayText(const Value& value)
{
    if (const auto* text = std::get_if<std::string>(&value)) {
        return QString::fromStdString(*text);
    }
    return QString::fromStdString(formatValue(value));
}

}  // namespace granular::ui
