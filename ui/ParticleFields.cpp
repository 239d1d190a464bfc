#include "ParticleFields.h"

#include "sim/Frame.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace granular::ui {

namespace {

/// The colour range of `values`, kept finite and open. A broken state (a blow-up's infinite speed) keeps the range of
/// its finite values: an infinite end made the colour bar's labels loop without end. A constant field gets a readable
/// span: [0, 1] at 0 (grains at rest), +-5 % about another value (a span of 1e-12 labelled 0.0000000000010).
FieldValues withRange(std::vector<float> values, double low, double high)
{
    if (!std::isfinite(low) || !std::isfinite(high)) {
        double finiteLow = std::numeric_limits<double>::infinity();
        double finiteHigh = -finiteLow;
        for (const float v : values) {
            if (std::isfinite(v)) {
                finiteLow = std::min(finiteLow, static_cast<double>(v));
                finiteHigh = std::max(finiteHigh, static_cast<double>(v));
            }
        }
        low = std::isfinite(low) ? low : (finiteLow <= finiteHigh ? finiteLow : 0.0);
        high = std::isfinite(high) ? high : (finiteLow <= finiteHigh ? finiteHigh : low);
    }
    if (!(high > low)) {
        const double span = low == 0.0 ? 1.0 : 0.05 * std::abs(low);
        high = low + span;
        low -= low == 0.0 ? 0.0 : span;
    }
    return {std::move(values), low, high};
}

}  // namespace

QString fieldName(ColourField field)
{
    switch (field) {
    case ColourField::Height:
        return QCoreApplication::translate("ParticleFields", "height");
    case ColourField::Radius:
        return QCoreApplication::translate("ParticleFields", "radius");
    case ColourField::Speed:
        return QCoreApplication::translate("ParticleFields", "speed");
    case ColourField::Coordination:
        return QCoreApplication::translate("ParticleFields", "coordination number");
    case ColourField::Overlap:
        return QCoreApplication::translate("ParticleFields", "overlap");
    case ColourField::Deformation:
        return QCoreApplication::translate("ParticleFields", "cross-contact deformation");
    }
    return {};
}

QString fieldUnit(ColourField field)
{
    switch (field) {
    case ColourField::Speed:
        return QStringLiteral("m/s");
    case ColourField::Coordination:
        return QStringLiteral("1");
    case ColourField::Height:
    case ColourField::Radius:
    case ColourField::Overlap:
    case ColourField::Deformation:
        return QStringLiteral("m");
    }
    return {};
}

QString fieldTitle(ColourField field)
{
    return QStringLiteral("%1 (%2)").arg(fieldName(field), fieldUnit(field));
}

FieldValues particleField(const Frame& frame, ColourField field)
{
    const std::size_t n = frame.position.size();
    std::vector<float> values(n, 0.0F);
    switch (field) {
    case ColourField::Height: {
        for (std::size_t i = 0; i < n; ++i) {
            values[i] = frame.position[i].y();
        }
        if (!frame.bounds.isEmpty() && frame.bounds.sizes().y() > 0.0) {
            return withRange(std::move(values), frame.bounds.min().y(), frame.bounds.max().y());
        }
        const auto [low, high] = std::minmax_element(values.begin(), values.end());
        return n == 0 ? withRange(std::move(values), 0.0, 1.0)
                      : withRange(std::move(values), static_cast<double>(*low), static_cast<double>(*high));
    }
    case ColourField::Radius: {
        for (std::size_t i = 0; i < n; ++i) {
            values[i] = frame.radius[i];
        }
        if (n == 0) {
            return withRange(std::move(values), 0.0, 1.0);
        }
        const auto [low, high] = std::minmax_element(values.begin(), values.end());
        return withRange(std::move(values), static_cast<double>(*low), static_cast<double>(*high));
    }
    case ColourField::Speed: {
        double fastest = 0.0;
        for (std::size_t i = 0; i < n && i < frame.velocity.size(); ++i) {
            values[i] = frame.velocity[i].norm();
            fastest = std::max(fastest, static_cast<double>(values[i]));
        }
        return withRange(std::move(values), 0.0, fastest);
    }
    case ColourField::Coordination: {
        double most = 2.0 * frame.dimension;
        for (std::size_t i = 0; i < n && i < frame.coordination.size(); ++i) {
            values[i] = frame.coordination[i];
            most = std::max(most, static_cast<double>(values[i]));
        }
        return withRange(std::move(values), 0.0, most);
    }
    case ColourField::Overlap: {
        double largest = 0.0;
        for (std::size_t i = 0; i < n && i < frame.overlap.size(); ++i) {
            values[i] = frame.overlap[i];
            largest = std::max(largest, static_cast<double>(values[i]));
        }
        return withRange(std::move(values), 0.0, largest);
    }
    case ColourField::Deformation: {
        double largest = 0.0;
        for (std::size_t i = 0; i < n && i < frame.deformation.size(); ++i) {
            values[i] = frame.deformation[i];
            largest = std::max(largest, static_cast<double>(values[i]));
        }
        return withRange(std::move(values), 0.0, largest);
    }
    }
    return withRange(std::move(values), 0.0, 1.0);
}

}  // namespace granular::ui
