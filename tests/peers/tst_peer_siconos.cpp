// Contact dynamics against Siconos (Debian libsiconos-numerics-dev 4.4): one step of a 2000-sphere packing under
// tilted gravity (some 1500 of its 2400 pressed contacts sliding) handed to Siconos as its frictional contact problem
// u = W r + q (bench/peers/siconos/SiconosStepProblem.h). W's diagonal
// blocks are the inverse effective masses of Unger & Kertesz 2003, eq. 17-18; our Gauss-Seidel iteration with the
// shock law (eq. 34) converges to a solution of the Signorini-Coulomb problem by Siconos's own measure
// (fc3d_compute_error, the normal-map residual over |q|), as Siconos's NSGS does. Label `peer`; built only where
// Siconos is installed.
#include "CdPacking3d.h"
#include "cd/GaussSeidelSolver.h"
#include "peers/siconos/SiconosStepProblem.h"
#include "sim/Simulation.h"
#include "util/Random.h"

#include <Friction_cst.h>
#include <QTest>

#include <vector>

using namespace granular;
using namespace granular::siconos_peer;

namespace {

/// bench_contact_dynamics' packing (bench/CdPacking3d.h), 2000 spheres in a narrower box, gravity tilted by 27 deg.
Scenario packing()
{
    Scenario s = bench::cdPacking3d();
    s.setFromText("particles.count", "2000");
    s.setFromText("box.width", "21");
    s.setFromText("box.depth", "21");
    s.setFromText("box.height", "45");
    s.setFromText("gravity.x", "0.5");  // tilted: the grains lean on a side wall, the contacts carry friction
    return s;
}

}  // namespace

class TestPeerSiconos : public QObject {
    Q_OBJECT

private slots:
    void oursSolvesSiconosProblem()
    {
        Simulation simulation(packing());
        for (int step = 0; step < 400; ++step) {
            simulation.step();
        }
        const Settings& settings = simulation.settings();
        World world = nextStepContacts(simulation);
        const StepProblem problem(world, settings.contact, settings.solver.dt);
        QVERIFY2(problem.contacts() > 1500, "the packing has settled into contact");

        // Eq. 17-18: W's diagonal block of a contact is diag(1/m_n, 1/m_t, 1/m_t).
        QVERIFY2(problem.effectiveMassError() < 1e-12, qPrintable(QString::number(problem.effectiveMassError())));

        const double warmStartError = problem.error(problem.warmStart());
        QVERIFY2(warmStartError > 1e-5, qPrintable(QString::number(warmStartError)));

        // Ours: the paper's random sweep, 2000 sweeps (the sliding contacts make the iteration slow: Siconos's NSGS
        // needs some 1800 to reach its tolerance 1e-10 here).
        SolverSettings solver = settings.solver;
        solver.criterion = ConvergenceCriterion::Fixed;
        solver.iterations = 2000;
        GaussSeidelSolver gaussSeidel;
        Random random(settings.seed);
        gaussSeidel.solve(world, solver, settings.contact, random);
        const double oursError = problem.error(problem.impulses(world.contacts, solver.dt));
        int pressed = 0;
        int sliding = 0;
        for (const Contact& c : world.contacts) {
            const double Rn = c.force.dot(c.normal);
            pressed += Rn > 0.0 ? 1 : 0;
            sliding += Rn > 0.0 && (c.force - Rn * c.normal).norm() > 0.999 * settings.contact.friction * Rn ? 1 : 0;
        }

        // Siconos's NSGS with its default local solver, to its tolerance.
        SolverOptions* options = solver_options_create(SICONOS_FRICTION_3D_NSGS);
        options->iparam[SICONOS_IPARAM_MAX_ITER] = 2000;
        options->dparam[SICONOS_DPARAM_TOL] = 1e-10;
        std::vector<double> r = problem.warmStart();
        std::vector<double> u(r.size(), 0.0);
        int info = 1;
        fc3d_nsgs(problem.siconos(), r.data(), u.data(), &info, options);
        const int siconosSweeps = options->iparam[SICONOS_IPARAM_ITER_DONE];
        solver_options_delete(options);
        const double siconosError = problem.error(r);

        qInfo("%zu candidates, %d pressed, %d of them sliding: Siconos error of the warm start %.3e, ours after 2000 "
              "sweeps %.3e, Siconos's NSGS after %d sweeps %.3e",
              problem.contacts(), pressed, sliding, warmStartError, oursError, siconosSweeps, siconosError);
        QVERIFY2(sliding > 100, "the friction cone binds at many contacts");
        QVERIFY2(siconosError < 1e-8, qPrintable(QString::number(siconosError)));
        QVERIFY2(oursError < 1e-8, qPrintable(QString::number(oursError)));
    }
};

QTEST_APPLESS_MAIN(TestPeerSiconos)
#include "tst_peer_siconos.moc"
