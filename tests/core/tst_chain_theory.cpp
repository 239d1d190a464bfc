// The continuum theory of the spurious elasticity of CD with a fixed number of iterations
// (Unger & Kertesz 2003, section 3, eq. 45-68), checked against values worked out here from the paper's formulas.
#include "theory/ChainTheory.h"

#include <QTest>

#include <cmath>
#include <numbers>
#include <string>

using namespace granular::theory;

namespace {

constexpr double kPi = std::numbers::pi;

/// The chain of Unger & Kertesz 2003, Fig. 6-7: 50 disks, d = m = dt = 1, N_I = 40.
ChainParameters paperChain()
{
    ChainParameters chain;
    chain.particleCount = 50;
    chain.mass = 1.0;
    chain.diameter = 1.0;
    chain.timeStep = 1.0;
    chain.iterationsPerStep = 40;
    return chain;
}

/// A chain in SI units far from 1: 2 mm disks of 10 mg, dt = 0.1 ms, N_I = 25.
ChainParameters smallGrains()
{
    ChainParameters chain;
    chain.particleCount = 200;
    chain.mass = 1e-5;
    chain.diameter = 2e-3;
    chain.timeStep = 1e-4;
    chain.iterationsPerStep = 25;
    return chain;
}

bool matches(double value, double expected, double tolerance)
{
    return std::fabs(value - expected) <= tolerance * std::fabs(expected);
}

}  // namespace

class ChainTheoryTest : public QObject {
    Q_OBJECT

private slots:
    void relaxationFactors();
    void paperChainFrequencyAndDampingTime();
    void criticalWaveNumberSeparatesOverdampedModes();
    void diffusionLengthIsTwiceSqrtQNiDiameters();
    void equivalentSpringDashpotReproducesDiffusionAndSound();
    void frequencyScalesAsSqrtIterationsAndDampingTimeAsInverse();
};

void ChainTheoryTest::relaxationFactors()
{
    // eq. 46: q = (4 sqrt(e) - 5)/2 ~= 0.797 for the random sweep.
    QVERIFY(matches(randomSweepRelaxation(), 0.7974425414002564, 1e-15));
    QVERIFY(matches(randomSweepRelaxation(), (4.0 * std::exp(0.5) - 5.0) / 2.0, 1e-15));
    QCOMPARE(paperChain().relaxation, randomSweepRelaxation());
}

void ChainTheoryTest::paperChainFrequencyAndDampingTime()
{
    // eq. 54, 57, 58, 60 for the slowest mode k = 2 pi/(4 L), L = 50 d (Fig. 7).
    const ChainParameters chain = paperChain();
    const double qNi = 0.7974425414002564 * 40.0;
    const double k = 2.0 * kPi / 200.0;
    QVERIFY(matches(chainLength(chain), 50.0, 1e-15));
    QVERIFY(matches(slowestModeWaveNumber(chain), k, 1e-15));
    QVERIFY(matches(forceDiffusionConstant(chain), qNi, 1e-14));
    QVERIFY(matches(soundVelocity(chain), std::sqrt(qNi), 1e-14));
    const double omega = k * std::sqrt(qNi - qNi * qNi * k * k / 4.0);
    const double tau = 2.0 / (qNi * k * k);
    QVERIFY2(matches(angularFrequency(chain, k), omega, 1e-13), std::to_string(angularFrequency(chain, k)).c_str());
    QVERIFY2(matches(dampingTime(chain, k), tau, 1e-13), std::to_string(dampingTime(chain, k)).c_str());
    // The same numbers worked out by hand: a period of ~35.6 dt, damped over ~63.5 dt.
    QVERIFY(matches(angularFrequency(chain, k), 0.176731418286538, 1e-12));
    QVERIFY(matches(dampingTime(chain, k), 63.5288302179267, 1e-12));
}

void ChainTheoryTest::criticalWaveNumberSeparatesOverdampedModes()
{
    // eq. 59: k_c = 2c/D = 2/(d sqrt(q N_I)); omega(k_c) = 0 and modes with k > k_c do not oscillate.
    for (const ChainParameters& chain : {paperChain(), smallGrains()}) {
        const double qNi = chain.relaxation * chain.iterationsPerStep;
        const double kc = criticalWaveNumber(chain);
        QVERIFY(matches(kc, 2.0 / (chain.diameter * std::sqrt(qNi)), 1e-14));
        // omega/(c k) = sqrt(1 - (k/k_c)^2) vanishes at k_c, here ~ sqrt(2e-6) just below it.
        const double k = (1.0 - 1e-6) * kc;
        QVERIFY(matches(angularFrequency(chain, k) / (soundVelocity(chain) * k), std::sqrt(2e-6), 1e-5));
        QVERIFY(!isOverdamped(chain, 0.99 * kc));
        QVERIFY(angularFrequency(chain, 0.99 * kc) > 0.0);
        QVERIFY(isOverdamped(chain, 1.01 * kc));
        QVERIFY(std::isnan(angularFrequency(chain, 1.01 * kc)));
    }
}

void ChainTheoryTest::diffusionLengthIsTwiceSqrtQNiDiameters()
{
    // eq. 63: l_diff = sqrt(4 D dt), so l_diff^2 = 4 q N_I d^2 whatever dt.
    for (const ChainParameters& chain : {paperChain(), smallGrains()}) {
        const double l = diffusionLength(chain);
        const double d = chain.diameter;
        QVERIFY(matches(l * l, 4.0 * chain.relaxation * chain.iterationsPerStep * d * d, 1e-14));
    }
    QVERIFY(matches(diffusionLength(paperChain()), 11.29561005984365, 1e-12));
}

void ChainTheoryTest::equivalentSpringDashpotReproducesDiffusionAndSound()
{
    // eq. 67-68: kappa = q m N_I/dt^2, gamma = q m N_I/dt, hence gamma = kappa dt. Inserted in eq. 66
    // they give eq. 54-55 back: gamma d^2/m = D and kappa d = beta = q N_I m d/dt^2; and the spring
    // chain's sound velocity d sqrt(kappa/m) is c of eq. 57.
    for (const ChainParameters& chain : {paperChain(), smallGrains()}) {
        const double kappa = equivalentStiffness(chain);
        const double gamma = equivalentDamping(chain);
        const double qNi = chain.relaxation * chain.iterationsPerStep;
        const double m = chain.mass;
        const double d = chain.diameter;
        const double dt = chain.timeStep;
        QVERIFY(matches(kappa, qNi * m / (dt * dt), 1e-14));
        QVERIFY(matches(gamma, kappa * dt, 1e-14));
        QVERIFY(matches(gamma * d * d / m, forceDiffusionConstant(chain), 1e-14));
        QVERIFY(matches(kappa * d, qNi * m * d / (dt * dt), 1e-14));
        QVERIFY(matches(d * std::sqrt(kappa / m), soundVelocity(chain), 1e-14));
    }
}

void ChainTheoryTest::frequencyScalesAsSqrtIterationsAndDampingTimeAsInverse()
{
    // eq. 58 and 60 for k << k_c: omega ~ c k ~ sqrt(N_I), tau ~ 1/N_I (Unger & Kertesz 2003, Fig. 8 discussion).
    ChainParameters few = paperChain();
    ChainParameters many = paperChain();
    many.iterationsPerStep = 4 * few.iterationsPerStep;
    const double k = 1e-3 * criticalWaveNumber(many);
    QVERIFY(matches(angularFrequency(many, k) / angularFrequency(few, k), 2.0, 1e-5));
    QVERIFY(matches(dampingTime(many, k) / dampingTime(few, k), 0.25, 1e-14));
    // The law holds for k << k_c only: at 0.9 k_c of the larger N_I (k_c ~ 1/sqrt(N_I)), that mode is
    // almost overdamped and oscillates slower than the one with fewer iterations.
    const double kNear = 0.9 * criticalWaveNumber(many);
    QVERIFY(angularFrequency(many, kNear) / angularFrequency(few, kNear) < 1.0);
}

QTEST_APPLESS_MAIN(ChainTheoryTest)
#include "tst_chain_theory.moc"
