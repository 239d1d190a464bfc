// MotionResolution: the resolution divisor of the scene view while the camera moves follows the
// measured cost of the frames (no display needed; the class only does arithmetic).
#include "MotionResolution.h"

#include <QTest>

using granular::ui::MotionResolution;

class MotionResolutionTest : public QObject {
    Q_OBJECT

private slots:
    void stillFramesAreFullResolution()
    {
        MotionResolution motion(30.0, 4);
        motion.record(false, 1, 500.0);
        QCOMPARE(motion.factor(false), 1);
    }

    void firstMotionDividesTheStillCostDownToTheTarget()
    {
        // 150 ms at full resolution, 30 ms wanted: 5x fewer pixels, i.e. a divisor of ceil(sqrt(5)) = 3.
        MotionResolution motion(30.0, 4);
        motion.record(false, 1, 150.0);
        QCOMPARE(motion.factor(true), 3);
        // A cheap scene keeps its full resolution while it turns.
        MotionResolution cheap(30.0, 4);
        cheap.record(false, 1, 12.0);
        QCOMPARE(cheap.factor(true), 1);
        // Never coarser than the largest divisor.
        MotionResolution capped(30.0, 4);
        capped.record(false, 1, 5000.0);
        QCOMPARE(capped.factor(true), 4);
    }

    void dearMovingFramesCoarsenCheapOnesRefine()
    {
        MotionResolution motion(30.0, 4);
        motion.record(false, 1, 100.0);
        QCOMPARE(motion.factor(true), 2);
        motion.record(true, 2, 45.0);  // over the target
        QCOMPARE(motion.factor(true), 3);
        motion.record(true, 3, 40.0);
        QCOMPARE(motion.factor(true), 4);
        motion.record(true, 4, 40.0);  // the coarsest stays
        QCOMPARE(motion.factor(true), 4);
        motion.record(true, 4, 20.0);  // 20 (4/3)^2 = 35.6 ms would miss 0.7 x 30: stays
        QCOMPARE(motion.factor(true), 4);
        motion.record(true, 4, 10.0);  // 10 (4/3)^2 = 17.8 ms < 21 ms: one finer
        QCOMPARE(motion.factor(true), 3);
        // The next motion starts where this one ended, whatever the still frames cost meanwhile.
        motion.record(false, 1, 1000.0);
        QCOMPARE(motion.factor(false), 1);
        QCOMPARE(motion.factor(true), 3);
    }
};

QTEST_APPLESS_MAIN(MotionResolutionTest)
#include "tst_motion_resolution.moc"
