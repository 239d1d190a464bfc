#include "analysis/ChainOscillation.h"

#include "analysis/SeriesTable.h"
#include "settings/Settings.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace granular::analysis {

theory::ChainParameters chainParametersFrom(const Settings& settings)
{
    theory::ChainParameters chain;
    chain.particleCount = static_cast<int>(settings.chain.count);
    chain.mass = settings.chain.mass;
    chain.diameter = 2.0 * settings.particles.radiusMax;
    chain.timeStep = settings.solver.dt;
    chain.iterationsPerStep = static_cast<int>(settings.solver.iterations);
    return chain;
}

double contactsSettled(const SeriesTable& series)
{
    const auto contacts = series.column("contacts");
    double start = series.time.empty() ? 0.0 : series.time.front();
    for (std::size_t i = 1; i < contacts.size(); ++i) {
        if (contacts[i] != contacts[i - 1]) {
            start = series.time[i];
        }
    }
    return start;
}

double chainFitStart(const Settings& settings, const SeriesTable& series)
{
    const double settled = contactsSettled(series);
    const auto chain = chainParametersFrom(settings);
    const double omega = theory::angularFrequency(chain, theory::slowestModeWaveNumber(chain));
    if (!(std::isfinite(omega) && omega > 0.0) || series.time.empty()) {
        return settled;  // an overdamped chain: no period to wait for
    }
    const double wait = kChainSettlingPeriods * 2.0 * std::numbers::pi / omega;
    return std::min(settled + wait, std::max(settled, series.time.back() - wait));
}

ChainOscillation analyzeChainOscillation(const Settings& settings, const SeriesTable& series)
{
    ChainOscillation result;
    result.chain = chainParametersFrom(settings);
    const double k = theory::slowestModeWaveNumber(result.chain);
    result.theoryOmega = theory::angularFrequency(result.chain, k);
    result.theoryTau = theory::dampingTime(result.chain, k);
    result.windowStart = chainFitStart(settings, series);
    result.windowEnd = series.time.empty() ? 0.0 : series.time.back();
    const auto probe = series.column("probe_x");
    const TimeSeries window = selectWindow(series.time, probe, result.windowStart, std::nullopt);
    result.fit = fitDampedOscillation(window.t, window.x);
    return result;
}

}  // namespace granular::analysis
