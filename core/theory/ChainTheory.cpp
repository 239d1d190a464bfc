#include "theory/ChainTheory.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace granular::theory {

double randomSweepRelaxation()
{
    return (4.0 * std::sqrt(std::numbers::e) - 5.0) / 2.0;
}

namespace {

/// q N_I: how far the forces relax per time step; every closed form below scales with it.
double relaxationPerStep(const ChainParameters& chain)
{
    return chain.relaxation * chain.iterationsPerStep;
}

}  // namespace

double forceDiffusionConstant(const ChainParameters& chain)
{
    return relaxationPerStep(chain) * chain.diameter * chain.diameter / chain.timeStep;
}

double soundVelocity(const ChainParameters& chain)
{
    return std::sqrt(relaxationPerStep(chain)) * chain.diameter / chain.timeStep;
}

double angularFrequency(const ChainParameters& chain, double waveNumber)
{
    const double c = soundVelocity(chain);
    const double diffusion = forceDiffusionConstant(chain);
    const double square = c * c - diffusion * diffusion * waveNumber * waveNumber / 4.0;
    if (square < 0.0) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return waveNumber * std::sqrt(square);
}

bool isOverdamped(const ChainParameters& chain, double waveNumber)
{
    return waveNumber > criticalWaveNumber(chain);
}

double dampingTime(const ChainParameters& chain, double waveNumber)
{
    return 2.0 / (forceDiffusionConstant(chain) * waveNumber * waveNumber);
}

double criticalWaveNumber(const ChainParameters& chain)
{
    return 2.0 * soundVelocity(chain) / forceDiffusionConstant(chain);
}

double diffusionLength(const ChainParameters& chain)
{
    return std::sqrt(4.0 * forceDiffusionConstant(chain) * chain.timeStep);
}

double chainLength(const ChainParameters& chain)
{
    return chain.particleCount * chain.diameter;
}

double slowestModeWaveNumber(const ChainParameters& chain)
{
    return 2.0 * std::numbers::pi / (4.0 * chainLength(chain));
}

double equivalentStiffness(const ChainParameters& chain)
{
    return relaxationPerStep(chain) * chain.mass / (chain.timeStep * chain.timeStep);
}

double equivalentDamping(const ChainParameters& chain)
{
    return relaxationPerStep(chain) * chain.mass / chain.timeStep;
}

}  // namespace granular::theory
