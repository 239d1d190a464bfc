// What the view and the plots are given to draw: the colour range of a particle field (finite and open whatever the
// frame holds) and a long series decimated for a chart (its extremes, its first and its newest sample).
#include "ParticleFields.h"
#include "PlotDecimation.h"
#include "sim/Frame.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using granular::Frame;
using granular::ui::ColourField;
using granular::ui::decimate;
using granular::ui::particleField;

namespace {

Frame restingGrains(int count)
{
    Frame frame;
    frame.position.assign(static_cast<std::size_t>(count), Eigen::Vector3f::Zero());
    frame.velocity.assign(static_cast<std::size_t>(count), Eigen::Vector3f::Zero());
    frame.radius.assign(static_cast<std::size_t>(count), 0.5F);
    frame.coordination.assign(static_cast<std::size_t>(count), 0);
    frame.overlap.assign(static_cast<std::size_t>(count), 0.0F);
    return frame;
}

}  // namespace

class ViewDataTest : public QObject {
    Q_OBJECT

private slots:
    void aBlownUpSpeedKeepsAFiniteColourRange()
    {
        // A blow-up's infinite speed made the range [0, inf]: the colour bar's label loop never ended (the GUI hung).
        Frame frame = restingGrains(3);
        frame.velocity[0] = Eigen::Vector3f(2.0F, 0.0F, 0.0F);
        frame.velocity[1] = Eigen::Vector3f(std::numeric_limits<float>::infinity(), 0.0F, 0.0F);
        frame.velocity[2] = Eigen::Vector3f(std::numeric_limits<float>::quiet_NaN(), 0.0F, 0.0F);
        const auto field = particleField(frame, ColourField::Speed);
        QCOMPARE(field.low, 0.0);
        QCOMPARE(field.high, 2.0);
    }

    void aConstantFieldGetsAReadableRange()
    {
        // Grains at rest were given [0, 1e-12] m/s: labels 0.0000000000000 to 0.0000000000010.
        const Frame frame = restingGrains(4);
        const auto speed = particleField(frame, ColourField::Speed);
        QCOMPARE(speed.low, 0.0);
        QCOMPARE(speed.high, 1.0);
        const auto radius = particleField(frame, ColourField::Radius);
        QCOMPARE(radius.low, 0.475);
        QCOMPARE(radius.high, 0.525);
    }

    void decimationKeepsTheEndsAndTheExtremes()
    {
        // Each run's extremes only: the newest sample was usually left out, the curve short of the time axis' end.
        std::vector<double> t;
        std::vector<double> y;
        for (int i = 0; i < 10'000; ++i) {
            t.push_back(0.01 * i);
            y.push_back(i % 3 == 0 ? 0.0 : (i % 3 == 1 ? 1.0 : -1.0));  // the ends (i = 0, 9999) at 0: no extremes
        }
        y[5'000] = 7.0;  // a spike
        const auto points = decimate(t, y, 400);
        QVERIFY2(points.size() <= 400, qPrintable(QString::number(points.size())));
        QCOMPARE(points.front().x(), t.front());
        QCOMPARE(points.back().x(), t.back());
        QVERIFY(std::any_of(points.begin(), points.end(), [](const QPointF& p) { return p.y() == 7.0; }));
        for (qsizetype k = 1; k < points.size(); ++k) {
            QVERIFY(points[k].x() > points[k - 1].x());
        }
    }
};

QTEST_GUILESS_MAIN(ViewDataTest)
#include "tst_view_data.moc"
