// The force chains the studio draws in a periodic cell: a contact across the cell's boundary is drawn from
// the first grain to the nearest image of the second, also once a free cell shape has sheared the cell into
// a parallelogram (the image then lies along the tilted edge, not along x). Checks the sticks' end points.
#include "ForceNetwork.h"
#include "model/World.h"
#include "sim/Frame.h"

#include <QTest>

using namespace granular;
using namespace granular::ui;

class ForceNetworkTest : public QObject {
    Q_OBJECT

private slots:
    void contactAcrossAShearedBoundaryReachesTheNearestImage();
    void rigidContactAcrossAGapIsNotCreatedByDeformation();
};

void ForceNetworkTest::rigidContactAcrossAGapIsNotCreatedByDeformation()
{
    // Contact dynamics: a force across a small gap that the step closes (rigid grains, no bulges) is an ordinary
    // contact, drawn in the force colours; only mcdem's bulges create a contact between spheres that do not touch.
    World world;
    world.dimension = 3;
    world.particles.add(Vec3(0.0, 0.0, 0.0), 0.5, 1000.0, 3);
    world.particles.add(Vec3(1.001, 0.0, 0.0), 0.5, 1000.0, 3);
    Contact c;
    c.partner = 0;
    c.particle = 1;
    c.normal = Vec3::UnitX();
    c.gap = 0.001;
    c.force = Vec3(2.0, 0.0, 0.0);
    world.contacts.push_back(c);
    c.gap = -0.0002;             // mcdem: `gap` includes the bulges, which overlap
    c.bulge = {0.0006, 0.0006};  // while the spheres stay 1 mm apart
    world.contacts.push_back(c);
    const auto frame = Frame::capture(world);
    QCOMPARE(frame->contacts.size(), std::size_t{2});
    QVERIFY(!frame->contacts[0].createdByDeformation);
    QVERIFY(frame->contacts[1].createdByDeformation);
}

void ForceNetworkTest::contactAcrossAShearedBoundaryReachesTheNearestImage()
{
    Frame frame;
    frame.dimension = 2;
    frame.periodic = true;
    frame.cell = PeriodicCell::cube(2, 10.0);
    Mat3 h = frame.cell.edges;
    h(0, 1) = 2.0;  // the y edge leans by 2 m along x
    frame.cell.setEdges(h);
    // Grain 1 sits just below the top face; its nearest image under grain 0 is shifted by the leaning edge
    // (-2, -10), not by (0, -10).
    frame.position = {Eigen::Vector3f(3.0F, 0.5F, 0.0F), Eigen::Vector3f(5.0F, 9.7F, 0.0F)};
    frame.radius = {0.5F, 0.5F};
    frame.contacts = {{0, 1, 2.0F}};

    const ForceNetwork network = selectForceNetwork(frame, 1.0, ForceNetworkPart::Strong);
    QCOMPARE(network.sticks.size(), std::size_t{1});
    const Eigen::Vector3f expected(3.0F, -0.3F, 0.0F);  // (5, 9.7) - (2, 10)
    const Eigen::Vector3f to = network.sticks.front().to;
    QVERIFY2((to - expected).norm() < 1e-5F,
             qPrintable(QString("stick ends at (%1, %2), nearest image (3, -0.3)").arg(to.x()).arg(to.y())));
    QVERIFY((network.sticks.front().from - frame.position[0]).norm() < 1e-6F);
}

QTEST_APPLESS_MAIN(ForceNetworkTest)
#include "tst_force_network.moc"
