#include "analysis/CompressionComparison.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace granular::analysis {

namespace {

/// The (compression, top force) samples of one stroke, sorted by compression.
std::vector<std::pair<double, double>> strokeCurve(const CompressionRun& run, std::int64_t stroke)
{
    std::vector<std::pair<double, double>> curve;
    for (std::size_t i = 0; i < run.stroke.size(); ++i) {
        if (run.stroke[i] == stroke) {
            curve.emplace_back(run.compression[i], run.topForce[i]);
        }
    }
    std::sort(curve.begin(), curve.end());
    return curve;
}

double interpolate(const std::vector<std::pair<double, double>>& curve, double x)
{
    if (x <= curve.front().first) {
        return curve.front().second;
    }
    if (x >= curve.back().first) {
        return curve.back().second;
    }
    const auto upper = std::lower_bound(curve.begin(), curve.end(), std::make_pair(x, -HUGE_VAL));
    const auto lower = upper - 1;
    const double span = upper->first - lower->first;
    return span > 0.0 ? lower->second + (upper->second - lower->second) * (x - lower->first) / span : lower->second;
}

/// The deepest compression level of the run's snapshots in strokes it went through to their end (the protocol's level
/// count): those before the stroke its series ends in, or all of a run that ended with the plate's program. 0 where
/// there is none: the level a run stopped inside its first stroke reached is no count (two runs stopped at the same
/// depth of their first stroke compared as complete).
int deepestLevel(const CompressionRun& run)
{
    std::int64_t latest = 0;
    for (const auto s : run.stroke) {
        latest = std::max(latest, s);
    }
    int deepest = 0;
    for (const auto& l : run.levels) {
        if (run.protocolEnded || l.stroke < latest) {
            deepest = std::max(deepest, l.level);
        }
    }
    return deepest;
}

/// The last stroke that the run went through to its end: its turning level (the deepest of a down-stroke, 0 of an
/// up-stroke; `deepest`, the protocol's level count) was recorded, the series goes on past it, or it is the last stroke
/// with levels of a run that ended with the plate's program. A stroke the run stopped inside, and the rest after the
/// protocol (labelled strokes + 1, without levels), are not complete.
std::int64_t lastCompleteStroke(const CompressionRun& run, int deepest)
{
    std::int64_t last = 0;
    if (run.protocolEnded) {
        // Runs made before 2026-11-29 lost the last turning level when the turn fell between two steps.
        for (const auto& l : run.levels) {
            last = std::max(last, l.stroke);
        }
    }
    for (const auto& l : run.levels) {
        if (deepest > 0 && l.level == (l.stroke % 2 == 1 ? deepest : 0)) {
            last = std::max(last, l.stroke);
        }
    }
    std::int64_t latest = 0;
    for (const auto s : run.stroke) {
        latest = std::max(latest, s);
    }
    for (const auto s : run.stroke) {
        if (s < latest) {
            last = std::max(last, s);
        }
    }
    return last;
}

double rmsDifference(const std::vector<std::pair<double, double>>& a, const std::vector<std::pair<double, double>>& b,
                     double to)
{
    constexpr int kSamples = 50;
    double sum = 0.0;
    for (int i = 1; i <= kSamples; ++i) {
        const double x = to * i / kSamples;
        const double d = interpolate(a, x) - interpolate(b, x);
        sum += d * d;
    }
    return std::sqrt(sum / kSamples);
}

const CompressionLevel* findLevel(const CompressionRun& run, std::int64_t stroke, int level)
{
    for (const auto& l : run.levels) {
        if (l.stroke == stroke && l.level == level) {
            return &l;
        }
    }
    return nullptr;
}

std::string shortNumber(double x)
{
    std::ostringstream text;
    text.precision(6);
    text << x;
    return text.str();
}

double bhattacharyyaDistance(const std::vector<double>& p, const std::vector<double>& q)
{
    constexpr int kBins = 20;
    double largest = 0.0;
    for (const double f : p) {
        largest = std::max(largest, f);
    }
    for (const double f : q) {
        largest = std::max(largest, f);
    }
    std::vector<double> hp(kBins, 0.0);
    std::vector<double> hq(kBins, 0.0);
    if (!(largest > 0.0)) {
        return 0.0;  // every force 0 in both: the same distribution
    }
    const auto bin = [&](double f) {
        return std::clamp(static_cast<int>(f / largest * kBins), 0, kBins - 1);  // forces >= 0 (as read)
    };
    for (const double f : p) {
        hp[static_cast<std::size_t>(bin(f))] += 1.0 / static_cast<double>(p.size());
    }
    for (const double f : q) {
        hq[static_cast<std::size_t>(bin(f))] += 1.0 / static_cast<double>(q.size());
    }
    double coefficient = 0.0;
    for (std::size_t i = 0; i < hp.size(); ++i) {
        coefficient += std::sqrt(hp[i] * hq[i]);
    }
    return -std::log(std::max(coefficient, 1e-300));
}

}  // namespace

CompressionComparison compareCompression(const CompressionRun& run, const CompressionRun& reference)
{
    // The protocol's level count, from the strokes either run completed.
    const int deepest = std::max(deepestLevel(run), deepestLevel(reference));
    const std::int64_t shared = std::min(lastCompleteStroke(run, deepest), lastCompleteStroke(reference, deepest));
    if (shared < 1) {
        throw std::invalid_argument("the runs share no complete stroke of the compression protocol");
    }
    CompressionComparison c;
    c.unloadingStroke = shared >= 2 ? (shared % 2 == 0 ? shared : shared - 1) : 0;
    c.loadingStroke = c.unloadingStroke > 0 ? c.unloadingStroke - 1 : 1;
    const auto loading = strokeCurve(run, c.loadingStroke);
    const auto referenceLoading = strokeCurve(reference, c.loadingStroke);
    if (loading.size() < 2 || referenceLoading.size() < 2) {
        throw std::invalid_argument(std::string(loading.size() < 2 ? "the run's" : "the reference's") +
                                    " series.csv has fewer than two samples of stroke " +
                                    std::to_string(c.loadingStroke));
    }
    // At the largest compression: the snapshot of the deepest level, which the series' last sample of the stroke
    // precedes by up to an output interval (the turning sample is labelled with the next stroke).
    const CompressionLevel* top = findLevel(run, c.loadingStroke, deepest);
    const CompressionLevel* referenceTop = findLevel(reference, c.loadingStroke, deepest);
    c.topForce = top != nullptr ? top->topForce : loading.back().second;
    c.referenceTopForce = referenceTop != nullptr ? referenceTop->topForce : referenceLoading.back().second;
    if (!(c.referenceTopForce > 0.0)) {
        throw std::invalid_argument("the reference's top force at the end of stroke " +
                                    std::to_string(c.loadingStroke) + " is " + shortNumber(c.referenceTopForce) +
                                    " N: R_top and err_f need a reference that presses (top force > 0 N)");
    }
    c.topRatio = c.topForce / c.referenceTopForce;
    const double amplitude = referenceLoading.back().first;
    double largest = 0.0;
    for (const auto& [x, f] : referenceLoading) {
        largest = std::max(largest, f);
    }
    std::vector<std::pair<double, double>> unloading;
    std::vector<std::pair<double, double>> referenceUnloading;
    if (c.unloadingStroke > 0) {
        unloading = strokeCurve(run, c.unloadingStroke);
        referenceUnloading = strokeCurve(reference, c.unloadingStroke);
        for (const auto& [x, f] : referenceUnloading) {
            largest = std::max(largest, f);
        }
    }
    if (!(largest > 0.0)) {
        throw std::invalid_argument("the reference's top force in series.csv is 0 N over strokes " +
                                    std::to_string(c.loadingStroke) + " and " + std::to_string(c.unloadingStroke) +
                                    ": err_f needs a reference that presses (top force > 0 N)");
    }
    c.forceErrorLoading = rmsDifference(loading, referenceLoading, amplitude) / largest;
    if (unloading.size() >= 2 && referenceUnloading.size() >= 2) {
        c.forceErrorUnloading = rmsDifference(unloading, referenceUnloading, amplitude) / largest;
    }
    // Over every compression level of the cycle, loading and unloading (docs/REFERENCES.md: "over all compression
    // levels").
    double bhat = 0.0;
    double zSquares = 0.0;
    double forceSquares = 0.0;
    int forceLevels = 0;
    for (const auto& level : run.levels) {
        if (level.stroke != c.loadingStroke && level.stroke != c.unloadingStroke) {
            continue;
        }
        const CompressionLevel* other = findLevel(reference, level.stroke, level.level);
        if (other == nullptr) {
            continue;
        }
        const double df = level.topForce - other->topForce;
        forceSquares += df * df;
        ++forceLevels;
        if (level.forces.empty() || other->forces.empty()) {
            continue;
        }
        bhat += bhattacharyyaDistance(level.forces, other->forces);
        const double dz = level.coordinationAbove - other->coordinationAbove;
        zSquares += dz * dz;
        ++c.levelsCompared;
    }
    if (forceLevels > 0) {
        c.forceErrorLevels = std::sqrt(forceSquares / forceLevels);
    }
    if (c.levelsCompared > 0) {
        c.bhattacharyya = bhat / c.levelsCompared;
        c.coordinationError = std::sqrt(zSquares / c.levelsCompared);
    }
    return c;
}

ScalingFit fitTopForceScaling(const std::vector<CompressionLevel>& levels, bool loading)
{
    double sx = 0.0;
    double sy = 0.0;
    double sxx = 0.0;
    double sxy = 0.0;
    double syy = 0.0;
    ScalingFit fit;
    for (const auto& l : levels) {
        if ((l.stroke % 2 == 1) != loading) {
            continue;
        }
        const double x = l.volumeFraction * l.coordination * l.meanForce;
        const double y = l.topForce;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
        ++fit.points;
    }
    const double n = fit.points;
    const double covariance = n * sxy - sx * sy;
    const double varianceX = n * sxx - sx * sx;
    const double varianceY = n * syy - sy * sy;
    // n sxx - sx^2 cancels: levels of one phi Z <f> leave a round-off of either sign, no line.
    if (fit.points < 2 || varianceX <= 1e-12 * n * sxx) {
        return fit;
    }
    fit.slope = covariance / varianceX;
    fit.offset = (sy - fit.slope * sx) / n;
    fit.r2 = varianceY > 0.0 ? covariance * covariance / (varianceX * varianceY) : 1.0;
    fit.determined = true;
    return fit;
}

}  // namespace granular::analysis
