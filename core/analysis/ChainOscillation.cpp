#include "analysis/ChainOscillation.h"

#include "analysis/SeriesTable.h"
#include "md/MaterialModel.h"
#include "scenario/Value.h"
#include "settings/Settings.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace granular::analysis {

namespace {

/// Why the chain theory is not that of this method and its settings (chainTheoryInapplicable's first test).
std::optional<std::string> otherMethod(const Settings& settings)
{
    const auto& solver = settings.solver;
    switch (solver.method) {
    case Method::ContactDynamics:
    case Method::ConstantPressure:
        if (solver.criterion != ConvergenceCriterion::Fixed) {
            return "the chain theory is that of a fixed number of iterations N_I (solver.criterion = fixed); this run "
                   "iterates to its convergence criterion";
        }
        if (solver.sweep != SweepOrder::Random) {
            return std::string("the chain theory's q = 0.797 is the random sweep's (solver.sweep = random); this run "
                               "sweeps the contacts by ") +
                   (solver.sweep == SweepOrder::Coloured ? "colours" : "strips");
        }
        return std::nullopt;
    case Method::SoftParticle: {
        const md::MaterialModel material = md::materialModelFrom(settings);
        if (material.cdEquivalentStiffness() && material.cdEquivalentDamping()) {
            return std::nullopt;
        }
        return "md follows the chain theory only with the CD-equivalent linear law (material.stiffness = 0 and "
               "material.restitution = -1, eq. 67-68); this run has its own stiffness or damping";
    }
    case Method::Ballistic:
    case Method::MultiContact:
        break;
    }
    return "the chain theory is that of contact dynamics (and md with the CD-equivalent law), not of solver.method = " +
           std::string(choiceName(solver.method));
}

}  // namespace

std::optional<std::string> chainTheoryInapplicable(const Settings& settings)
{
    if (auto reason = otherMethod(settings)) {
        return reason;
    }
    const theory::ChainParameters chain = chainParametersFrom(settings);
    const double k = theory::slowestModeWaveNumber(chain);
    if (theory::isOverdamped(chain, k)) {
        return "the chain's slowest mode is overdamped: k = 2 pi / (4 L) = " + formatShort(k) +
               " 1/m exceeds k_c = 2c / D = " + formatShort(theory::criticalWaveNumber(chain)) +
               " 1/m (eq. 59), so it relaxes without oscillating and eq. 58 and 60 do not describe it; a longer chain "
               "(chain.count) or fewer iterations (solver.iterations) bring k below k_c";
    }
    return std::nullopt;
}

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
