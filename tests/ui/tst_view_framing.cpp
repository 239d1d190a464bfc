// How a reset camera frames the scene beside the overlays (ui/ViewFraming): the parts of the view the colour bars and
// the caption leave, the zoom out that fits the scene's picture into one, and the window centre that moves it there.
#include "ViewFraming.h"

#include <QTest>

using granular::ui::fittingZoom;
using granular::ui::freeAreas;
using granular::ui::OverlayPlaces;
using granular::ui::PixelBox;
using granular::ui::roomiestArea;
using granular::ui::windowCentreInto;

namespace {

/// piston2d's view in presentation mode at a projector's 1280 x 800 (pixels as the studio measured them): the force
/// bar's column and wide title at the left, the particle bar's at the right, the caption along the top.
OverlayPlaces presentationPlaces()
{
    OverlayPlaces places;
    places.view = {0.0, 554.0, 0.0, 666.0};
    places.leftColumn = {22.0, 72.0, 67.0, 511.0};
    places.leftTitle = {22.0, 157.0, 511.0, 546.0};
    places.rightColumn = {500.0, 548.0, 67.0, 550.0};
    places.rightTitle = {422.0, 548.0, 550.0, 586.0};
    places.caption = {6.0, 550.0, 631.0, 656.0};
    return places;
}

}  // namespace

class ViewFramingTest : public QObject {
    Q_OBJECT

private slots:
    void freeAreasLieBetweenTheColumnsAndBetweenTheTitles()
    {
        const auto [columns, titles] = freeAreas(presentationPlaces(), 10.0);
        // Between the columns, below the lower title.
        QCOMPARE(columns.left, 82.0);
        QCOMPARE(columns.right, 490.0);
        QCOMPARE(columns.bottom, 10.0);
        QCOMPARE(columns.top, 501.0);
        // Between the titles, below the caption.
        QCOMPARE(titles.left, 167.0);
        QCOMPARE(titles.right, 412.0);
        QCOMPARE(titles.top, 621.0);
    }

    void withoutOverlaysTheWholeViewIsFree()
    {
        OverlayPlaces places;
        places.view = {0.0, 400.0, 0.0, 300.0};
        const auto [columns, titles] = freeAreas(places, 5.0);
        QCOMPARE(columns.left, 0.0);
        QCOMPARE(columns.right, 400.0);
        QCOMPARE(columns.top, 295.0);
        QCOMPARE(titles.width(), columns.width());
    }

    void aPictureThatFitsIsNotZoomed()
    {
        QCOMPARE(fittingZoom({100.0, 200.0, 100.0, 200.0}, {0.0, 400.0, 0.0, 300.0}), 1.0);
        QCOMPARE(fittingZoom({}, {0.0, 400.0, 0.0, 300.0}), 1.0);
    }

    void aWidePictureZoomsOutToTheFreeWidth()
    {
        // piston2d's container as VTK framed it in the whole view: 378 px wide, 405 high.
        const PixelBox picture{88.0, 466.0, 130.5, 535.5};
        const auto areas = freeAreas(presentationPlaces(), 10.0);
        QCOMPARE(fittingZoom(picture, areas[0]), 1.0);  // 408 x 491 px between the columns: it fits
        QCOMPARE(fittingZoom(picture, areas[1]), 245.0 / 378.0);
        const PixelBox chosen = roomiestArea(picture, areas);
        QCOMPARE(chosen.left, areas[0].left);
    }

    void theWindowCentreMovesThePictureAsLittleAsItTakes()
    {
        const PixelBox free{82.0, 490.0, 10.0, 501.0};
        // Fits across (88 to 466 within 82 to 490): no move; 34.5 px too high: down by that.
        const auto centre = windowCentreInto({88.0, 466.0, 130.5, 535.5}, free, 554, 666);
        QCOMPARE(centre[0] + 0.0, 0.0);  // + 0.0: -0.0 and 0.0 alike
        QCOMPARE(centre[1], 2.0 * 34.5 / 666.0);
        // A picture wider than the free part: their middles meet.
        const auto wide = windowCentreInto({0.0, 554.0, 100.0, 200.0}, free, 554, 666);
        QCOMPARE(wide[0], -2.0 * (286.0 - 277.0) / 554.0);
        QCOMPARE(wide[1] + 0.0, 0.0);
    }

    void overlapNeedsMoreThanAnEdge()
    {
        const PixelBox a{0.0, 10.0, 0.0, 10.0};
        QVERIFY(a.overlaps({5.0, 15.0, 5.0, 15.0}));
        QVERIFY(!a.overlaps({10.0, 20.0, 0.0, 10.0}));
        QVERIFY(!a.overlaps({9.5, 20.0, 0.0, 10.0}, 1.0));
        QVERIFY(!a.overlaps({}));
    }
};

QTEST_GUILESS_MAIN(ViewFramingTest)
#include "tst_view_framing.moc"
