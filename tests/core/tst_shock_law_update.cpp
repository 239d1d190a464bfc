// The sweeps' update (shockLawUpdate) is Unger & Kertesz 2003, eq. 23 and 34, as one increment. Written out as the
// paper does, an update first takes the contact's own force R out of the relative velocity V of the contact point,
// U = V - dt (R_n / m_n n + R_t / m_t) (eq. 23 with the effective masses of eq. 17-18), and then applies the shock law
// with g_pos = max(g, 0) (eq. 34): the contact opens (R' = 0) where g_pos + U_n dt > 0, else
// R_n' = -(m_n / dt)(g_pos / dt + U_n), and sticking R_t' = -(m_t / dt) U_t, scaled onto the Coulomb cone
// |R_t'| = mu R_n' where it would exceed it. This test computes the paper's form here and checks that the increment
// form gives the same force for 100,000 random contacts, spheres and disks, open, sticking and sliding, whose
// velocities, forces, masses and gaps span several decades: to 1e-12 of the force's scale, and the same branch
// except where the paper's own open/closed test is within rounding of its boundary.
#include "cd/ContactUpdate.h"
#include "cd/SweepContact.h"
#include "util/Random.h"

#include <QTest>

#include <cmath>
#include <cstdio>

using namespace granular;

namespace {

struct PaperForce {
    Vec3 force = Vec3::Zero();
    bool open = false;
    double openMargin = 0.0;  ///< m, |g_pos + U_n dt|: how far eq. 34's test is from its boundary
};

/// Eq. 23 and 34 as written in the paper.
PaperForce paperShockLaw(const Vec3& V, const Vec3& n, const Vec3& R, double mn, double mt, double gap, double mu,
                         double dt)
{
    const double Rn = R.dot(n);
    const Vec3 Rt = R - Rn * n;
    const Vec3 U = V - dt * ((Rn / mn) * n + Rt / mt);  // eq. 23
    const double Un = U.dot(n);
    const double gPos = std::max(gap, 0.0);
    PaperForce out;
    out.openMargin = std::fabs(gPos + Un * dt);
    if (gPos + Un * dt > 0.0) {
        out.open = true;  // eq. 34: the gap does not close within dt
        return out;
    }
    const double normal = -(mn / dt) * (gPos / dt + Un);
    Vec3 tangential = -(mt / dt) * (U - Un * n);
    if (tangential.norm() > mu * normal) {
        tangential *= mu * normal / tangential.norm();  // sliding: on the Coulomb cone
    }
    out.force = normal * n + tangential;
    return out;
}

Vec3 randomVector(Random& random, double scale, int dimension)
{
    const Vec3 v(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0),
                 dimension == 3 ? random.uniform(-1.0, 1.0) : 0.0);
    return scale * v;
}

struct Tally {
    int open = 0;
    int sticking = 0;
    int sliding = 0;
    int branchMismatches = 0;  ///< open in one form, closed in the other, away from the boundary
    double worstError = 0.0;   ///< |R' - R'_paper| / scale
};

template <class Vec> Tally compare(int dimension)
{
    Random random(static_cast<std::uint64_t>(dimension));
    Tally tally;
    const double dt = 0.01;
    for (int trial = 0; trial < 50000; ++trial) {
        const Vec3 n = randomVector(random, 1.0, dimension).normalized();
        const double mn = std::pow(10.0, random.uniform(-2.0, 3.0));
        const double mt = mn * random.uniform(0.2, 1.0);
        const double gap = random.uniform(-0.01, 0.004);
        const double mu = random.uniform() < 0.1 ? 0.0 : random.uniform(0.0, 1.5);
        const double speed = std::pow(10.0, random.uniform(-3.0, 1.0));
        const Vec3 V = randomVector(random, speed, dimension);
        const Vec3 R = random.uniform() < 0.2
                           ? Vec3::Zero()
                           : randomVector(random, std::pow(10.0, random.uniform(-1.0, 3.0)), dimension);

        const PaperForce paper = paperShockLaw(V, n, R, mn, mt, gap, mu, dt);
        Contact c;
        c.normal = n;
        c.force = R;
        c.normalMass = mn;
        c.tangentialMass = mt;
        c.gap = gap;
        c.particle = 1;
        Particles p;
        p.add(Vec3::Zero(), 1.0, 1.0, dimension);
        p.add(Vec3::Zero(), 1.0, 1.0, dimension);
        const SweepContact s = sweepContact(c, p, mu, dt, 0);
        const FrameForce<Vec> after =
            shockLawUpdate(inSpace<Vec>(components(V)), normalOf<Vec>(s), forceOf<Vec>(s), ratesOf(s));
        const Vec3 force = toVec3(after.normal * inSpace<Vec>(s.normal) + after.tangential);
        const bool open = after.normal == 0.0 && dot(after.tangential, after.tangential) == 0.0;
        // The scale of the numbers that meet in the update: the force, and what the masses make of V and the gap.
        const double scale = R.norm() + (mn + mt) / dt * (speed + std::max(gap, 0.0) / dt) + 1e-300;
        if (open != paper.open) {
            if (paper.openMargin > 1e-12 * (speed * dt + std::fabs(gap))) {
                ++tally.branchMismatches;
            }
            continue;
        }
        if (open) {
            ++tally.open;
            continue;
        }
        const double Rn = force.dot(n);
        (Rn > 0.0 && (force - Rn * n).norm() >= (1.0 - 1e-9) * mu * Rn ? tally.sliding : tally.sticking)++;
        tally.worstError = std::max(tally.worstError, (force - paper.force).norm() / scale);
    }
    std::printf("%dD: %d open, %d sticking, %d sliding; %d branch mismatches; largest difference %.2e of the scale\n",
                dimension, tally.open, tally.sticking, tally.sliding, tally.branchMismatches, tally.worstError);
    return tally;
}

}  // namespace

class ShockLawUpdateTest : public QObject {
    Q_OBJECT

private slots:
    void incrementFormIsEq23And34ForSpheres() { check(3); }
    void incrementFormIsEq23And34ForDisks() { check(2); }

private:
    static void check(int dimension)
    {
        const Tally tally = dimension == 2 ? compare<Vector2Of<double>>(2) : compare<Vector3Of<double>>(3);
        QCOMPARE(tally.branchMismatches, 0);
        QVERIFY2(tally.worstError < 1e-12, std::to_string(tally.worstError).c_str());
        QVERIFY(tally.open > 5000);
        QVERIFY(tally.sticking > 5000);
        QVERIFY(tally.sliding > 5000);
    }
};

QTEST_APPLESS_MAIN(ShockLawUpdateTest)
#include "tst_shock_law_update.moc"
