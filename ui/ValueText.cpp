#include "ValueText.h"

#include "scenario/Schema.h"

namespace granular::ui {

QString displayText(const Value& value)
{
    if (const auto* text = std::get_if<std::string>(&value)) {
        return QString::fromStdString(*text);
    }
    return QString::fromStdString(formatValue(value));
}

QString withUnit(const QString& key, const QString& value)
{
    const Parameter* parameter = Schema::instance().find(key.toStdString());
    if (parameter == nullptr || parameter->unit.empty() || parameter->unit == "1") {
        return value;
    }
    return value + QStringLiteral(" ") + QString::fromStdString(parameter->unit);
}

}  // namespace granular::ui
