// The scene view inside this process: mouse input reaches VTK's camera and schedules a repaint,
// and resetCamera() brings the initial view back. Needs an X display with OpenGL 3.2 (xvfb-run).
#include "SceneView.h"
#include "sim/Frame.h"

#include <QApplication>
#include <QColor>
#include <QImage>
#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace {

/// A 10 x 10 x 4 lattice of 1 mm spheres on the floor of a 20 mm box with five walls.
std::shared_ptr<const granular::Frame> latticeFrame(int dimension)
{
    auto frame = std::make_shared<granular::Frame>();
    frame->dimension = dimension;
    const double side = 0.02;
    const int layers = dimension == 3 ? 4 : 1;
    for (int i = 0; i < 10; ++i) {
        for (int j = 0; j < 4; ++j) {
            for (int k = 0; k < layers; ++k) {
                frame->position.emplace_back(0.001F + 0.002F * static_cast<float>(i),
                                             0.001F + 0.002F * static_cast<float>(j),
                                             dimension == 3 ? 0.001F + 0.002F * static_cast<float>(k) : 0.0F);
                frame->velocity.emplace_back(Eigen::Vector3f::Zero());
                frame->radius.push_back(0.001F);
            }
        }
    }
    const double depth = dimension == 3 ? side : 0.0;
    frame->bounds = Eigen::AlignedBox3d(Eigen::Vector3d::Zero(), Eigen::Vector3d(side, side, depth));
    frame->walls.push_back({"floor", Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY()});
    frame->walls.push_back({"left", Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitX()});
    frame->walls.push_back({"right", Eigen::Vector3d(side, 0, 0), -Eigen::Vector3d::UnitX()});
    return frame;
}

/// A 100 x 100 square of touching 1 mm disks, each pressed against its right and upper neighbour with forces
/// 1, 2, ..., 100 N repeating: 19,800 contacts, of which those with f_n >= <f_n> = 50.5 N are the chains.
std::shared_ptr<const granular::Frame> pressedSquare()
{
    auto frame = std::make_shared<granular::Frame>();
    frame->dimension = 2;
    constexpr int kSide = 100;
    for (int i = 0; i < kSide; ++i) {
        for (int j = 0; j < kSide; ++j) {
            frame->position.emplace_back(0.001F + 0.002F * static_cast<float>(i),
                                         0.001F + 0.002F * static_cast<float>(j), 0.0F);
            frame->velocity.emplace_back(Eigen::Vector3f::Zero());
            frame->radius.push_back(0.001F);
        }
    }
    const auto index = [](int i, int j) { return static_cast<std::int32_t>(i * kSide + j); };
    for (int i = 0; i < kSide; ++i) {
        for (int j = 0; j < kSide; ++j) {
            const auto force = [&frame] { return static_cast<float>(1 + frame->contacts.size() % 100); };
            if (i + 1 < kSide) {
                frame->contacts.push_back({index(i, j), index(i + 1, j), force()});
            }
            if (j + 1 < kSide) {
                frame->contacts.push_back({index(i, j), index(i, j + 1), force()});
            }
        }
    }
    const double side = 0.002 * kSide;
    frame->bounds = Eigen::AlignedBox3d(Eigen::Vector3d::Zero(), Eigen::Vector3d(side, side, 0.0));
    return frame;
}

/// chain1d's row: 50 disks of 1 m in a row from x = 1 m (a wall at x = 0), touching; with `forces`, each pressed
/// against the next with 0.05 N (the force chains' bar shows), else none (no bar).
std::shared_ptr<const granular::Frame> diskRow(bool forces)
{
    auto frame = std::make_shared<granular::Frame>();
    frame->dimension = 2;
    constexpr int kDisks = 50;
    for (int i = 0; i < kDisks; ++i) {
        frame->position.emplace_back(1.5F + static_cast<float>(i), 0.5F, 0.0F);
        frame->velocity.emplace_back(Eigen::Vector3f::Zero());
        frame->radius.push_back(0.5F);
        if (forces && i + 1 < kDisks) {
            frame->contacts.push_back({i, i + 1, 0.05F});
        }
    }
    frame->bounds = Eigen::AlignedBox3d(Eigen::Vector3d::Zero(), Eigen::Vector3d(kDisks + 1.0, 1.0, 0.0));
    frame->walls.push_back({"wall", Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitX()});
    return frame;
}

}  // namespace

class SceneViewTest : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        view_ = std::make_unique<granular::ui::SceneView>();
        view_->resize(400, 300);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    }

    void cleanup() { view_.reset(); }

    void dragMovesTheCameraAndResetRestoresIt_data()
    {
        QTest::addColumn<int>("dimension");
        QTest::newRow("3D rotates") << 3;
        QTest::newRow("2D pans") << 2;
    }

    void dragMovesTheCameraAndResetRestoresIt()
    {
        QFETCH(int, dimension);
        const QImage initial = showAndSettle(latticeFrame(dimension));
        QVERIFY(!initial.isNull());

        QSignalSpy repainted(view_.get(), &QOpenGLWindow::frameSwapped);
        const QPoint centre = QRect(QPoint(0, 0), view_->size()).center();
        QTest::mousePress(view_.get(), Qt::LeftButton, Qt::NoModifier, centre);
        QTest::mouseMove(view_.get(), centre + QPoint(80, 30));
        QTest::mouseRelease(view_.get(), Qt::LeftButton, Qt::NoModifier, centre + QPoint(80, 30));
        // The interactor does not render by itself: it asks Qt for a paint.
        QVERIFY(repainted.wait(10'000));
        QVERIFY(view_->grabView() != initial);

        view_->resetCamera();
        QCOMPARE(view_->grabView(), initial);
    }

    void wheelZooms()
    {
        const QImage initial = showAndSettle(latticeFrame(3));
        QVERIFY(!initial.isNull());
        QSignalSpy repainted(view_.get(), &QOpenGLWindow::frameSwapped);
        const QPointF centre = QRectF(QPointF(0, 0), view_->size()).center();
        QWheelEvent wheel(centre, view_->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view_.get(), &wheel);
        QVERIFY(repainted.wait(10'000));
        QVERIFY(view_->grabView() != initial);
    }

    void turningDrawsCoarserUntilTheCameraSettles()
    {
        const QImage initial = showAndSettle(latticeFrame(3));
        QVERIFY(!initial.isNull());
        QCOMPARE(view_->drawnReduction(), 1);
        // No moving frame can meet a zero target: the view draws at the coarsest divisor.
        view_->setMotionFrameTarget(0.0);
        QSignalSpy repainted(view_.get(), &QOpenGLWindow::frameSwapped);
        view_->orbit(20.0);
        QVERIFY(view_->cameraMoving());
        QVERIFY(repainted.wait(10'000));
        QCOMPARE(view_->drawnReduction(), granular::ui::MotionResolution::kLargestFactor);
        // Picking counts in the coarse framebuffer's pixels while it moves: the same particle as later.
        const QPoint centre = QRect(QPoint(0, 0), view_->size()).center();
        const int pickedWhileMoving = view_->particleAt(centre);
        QVERIFY(pickedWhileMoving >= 0);

        // kSettleMilliseconds after the last motion it draws the full resolution again, by itself.
        QTRY_VERIFY_WITH_TIMEOUT(!view_->cameraMoving(), 5'000);
        QTRY_COMPARE_WITH_TIMEOUT(view_->drawnReduction(), 1, 5'000);
        QCOMPARE(view_->particleAt(centre), pickedWhileMoving);
        const QImage turned = view_->grabView();
        QCOMPARE(turned.size(), initial.size());
        QVERIFY(turned != initial);
    }

    void movingCameraDrawsTheStrongestChainsOnly()
    {
        // 19,800 contacts with forces 1..100 N in equal numbers: the 9,900 of 51..100 N are at or above the mean.
        const QImage initial = showAndSettle(pressedSquare());
        QVERIFY(!initial.isNull());
        constexpr long long kChains = 9900;
        QCOMPARE(view_->drawnSticks(), kChains);
        QSignalSpy repainted(view_.get(), &QOpenGLWindow::frameSwapped);
        view_->orbit(0.0);  // a camera motion that leaves the picture's geometry as it is
        QVERIFY(view_->cameraMoving());
        QVERIFY(repainted.wait(10'000));
        QCOMPARE(view_->drawnSticks(), 6000LL);
        // A screenshot taken meanwhile has every stick; the next moving paint has the strongest again.
        QCOMPARE(view_->grabView().size(), initial.size());
        QCOMPARE(view_->drawnSticks(), kChains);
        view_->orbit(0.0);
        QVERIFY(repainted.wait(10'000));
        QCOMPARE(view_->drawnSticks(), 6000LL);
        QTRY_VERIFY_WITH_TIMEOUT(!view_->cameraMoving(), 5'000);
        QTRY_COMPARE_WITH_TIMEOUT(view_->drawnSticks(), kChains, 5'000);
        QCOMPARE(view_->grabView(), initial);
    }

    /// A periodic cell's dimmed images are its grains: a click on the image of the one grain (near the cell's left
    /// edge, so that its image shows beyond the right edge) picks that grain. Along the view's middle row the grain is
    /// hit in two separate runs of pixels, itself and its image; before, only in the first.
    void clickingAPeriodicImagePicksItsGrain()
    {
        auto frame = std::make_shared<granular::Frame>();
        frame->dimension = 2;
        constexpr double kSide = 0.02;
        frame->periodic = true;
        frame->cell = granular::PeriodicCell::cube(2, kSide);
        frame->bounds = frame->cell.box();
        frame->position.emplace_back(0.002F, 0.01F, 0.0F);
        frame->velocity.emplace_back(Eigen::Vector3f::Zero());
        frame->radius.push_back(0.0015F);
        auto options = view_->options();
        options.periodicImages = true;
        view_->setOptions(options);
        QVERIFY(!showAndSettle(frame).isNull());
        // The grain's row: the middle of the cell and its images as drawn (the camera frames them below the caption).
        const granular::ui::PixelBox drawn = view_->drawnExtent();
        const int row = view_->height() - qRound(0.5 * (drawn.bottom + drawn.top) / view_->devicePixelRatio());
        int runs = 0;
        bool inside = false;
        for (int x = 0; x < view_->width(); ++x) {
            const int picked = view_->particleAt(QPoint(x, row));
            QVERIFY(picked == -1 || picked == 0);
            if (picked == 0 && !inside) {
                ++runs;
            }
            inside = picked == 0;
        }
        QCOMPARE(runs, 2);
    }

    void theImageIsOpaque()
    {
        // The view's image goes into screenshots and recordings with its alpha: the background (plain on a software
        // rasteriser), the colour bars and the caption over it must leave every pixel opaque, or a PNG viewer shows
        // the background white and the text in black boxes.
        const QImage image = showAndSettle(pressedSquare());
        QVERIFY(!image.isNull());
        qint64 translucent = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                translucent += qAlpha(image.pixel(x, y)) < 255 ? 1 : 0;
            }
        }
        QVERIFY2(translucent == 0, qPrintable(QStringLiteral("%1 of %2 pixels are not opaque")
                                                  .arg(translucent)
                                                  .arg(static_cast<qint64>(image.width()) * image.height())));
    }

    void colourBarsStandBesideTheScene()
    {
        // The force bar (dark red to orange, f_n / <f_n>) at the view's left edge and the particle bar (viridis) at its
        // right, outside the square of disks that the camera frames in the middle.
        const QImage image = showAndSettle(pressedSquare());
        QVERIFY(!image.isNull());
        const auto count = [&image](int from, int to, auto isColoured) {
            qint64 n = 0;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = from; x < to; ++x) {
                    n += isColoured(QColor(image.pixel(x, y))) ? 1 : 0;
                }
            }
            return n;
        };
        const auto chainHue = [](const QColor& c) {
            const float hue = c.hsvHueF() * 360.0F;
            return c.hsvSaturationF() > 0.6F && c.valueF() > 0.3F && (hue <= 40.0F || hue >= 350.0F);
        };
        const auto viridis = [](const QColor& c) {
            const float hue = c.hsvHueF() * 360.0F;
            return c.hsvSaturationF() > 0.45F && c.valueF() > 0.2F && hue >= 45.0F && hue <= 300.0F;
        };
        const int strip = image.width() / 10;
        const qint64 forceBar = count(0, strip, chainHue);
        const qint64 particleBar = count(image.width() - strip, image.width(), viridis);
        qInfo("force bar %lld pixels, particle bar %lld pixels", static_cast<long long>(forceBar),
              static_cast<long long>(particleBar));
        QVERIFY2(forceBar > 1000, qPrintable(QString::number(forceBar)));
        QVERIFY2(particleBar > 1000, qPrintable(QString::number(particleBar)));
    }

    void resetFramesTheSceneBesideTheColourBars()
    {
        // piston2d's view in the studio at a projector's 1280 x 800 in presentation mode (text 1.6x): the square of
        // disks with its chains (both bars shown) stays clear of the bars' columns and titles and of the caption; a
        // resize frames it again, until the user moves the camera.
        view_->resize(554, 666);
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
        granular::ui::SceneOptions options = view_->options();
        options.textScale = 1.6;
        view_->setOptions(options);
        QVERIFY(!showAndSettle(pressedSquare()).isNull());
        const auto clearOfOverlays = [this](const char* when) {
            const granular::ui::OverlayPlaces places = view_->overlayPlaces();
            const granular::ui::PixelBox scene = view_->drawnExtent();
            QVERIFY2(!places.leftColumn.isEmpty() && !places.rightColumn.isEmpty(), when);
            for (const auto* overlay :
                 {&places.leftColumn, &places.leftTitle, &places.rightColumn, &places.rightTitle, &places.caption}) {
                QVERIFY2(!scene.overlaps(*overlay, 1.0),
                         qPrintable(QStringLiteral("%1: the scene %2-%3 x %4-%5 px under an overlay at %6-%7 x %8-%9")
                                        .arg(when)
                                        .arg(scene.left)
                                        .arg(scene.right)
                                        .arg(scene.bottom)
                                        .arg(scene.top)
                                        .arg(overlay->left)
                                        .arg(overlay->right)
                                        .arg(overlay->bottom)
                                        .arg(overlay->top)));
            }
            // The caption within the view (broken into lines between its fields at this text size).
            QVERIFY2(!places.caption.isEmpty() && places.caption.right <= places.view.right,
                     qPrintable(QStringLiteral("%1: the caption ends at %2 px, the view at %3 px")
                                    .arg(when)
                                    .arg(places.caption.right)
                                    .arg(places.view.right)));
            // Not shrunk to nothing: at least half the room between the bars' columns.
            QVERIFY2(scene.width() > 0.5 * (places.rightColumn.left - places.leftColumn.right), when);
        };
        clearOfOverlays("after the first frame");
        if (QTest::currentTestFailed()) {
            return;
        }

        QSignalSpy repainted(view_.get(), &QOpenGLWindow::frameSwapped);
        view_->resize(760, 520);
        QVERIFY(repainted.wait(10'000));
        QVERIFY(!view_->grabView().isNull());  // drawn at the new size (and framed again where it follows)
        clearOfOverlays("after a resize");
        if (QTest::currentTestFailed()) {
            return;
        }

        // A wheel turn zooms in: the user's camera from then on, which a resize leaves alone.
        const QPointF centre = QRectF(QPointF(0, 0), view_->size()).center();
        QWheelEvent wheel(centre, view_->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view_.get(), &wheel);
        QVERIFY(!view_->grabView().isNull());  // drawn at the new size (and framed again where it follows)
        const double zoomedWidth = view_->drawnExtent().width();
        view_->resize(770, 520);
        QVERIFY(repainted.wait(10'000));
        QVERIFY(!view_->grabView().isNull());  // drawn at the new size (and framed again where it follows)
        QCOMPARE(view_->drawnExtent().width(), zoomedWidth);
    }

    void theForceBarsComingFramesTheSceneAgainOnce()
    {
        // chain1d in the studio: its first frame has no force yet (no force bar), and the camera framed the row in the
        // room the particle bar left; once the contacts carried forces the force bar came and stood over the row's
        // first ten disks. The view frames the scene again when the bar first comes (until the user moves the camera)
        // and keeps its room when it goes.
        view_->resize(554, 698);
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
        QVERIFY(!showAndSettle(diskRow(false)).isNull());
        QVERIFY2(view_->overlayPlaces().leftColumn.isEmpty(), "no force bar without a force");
        const granular::ui::PixelBox before = view_->drawnExtent();
        QVERIFY(!showAndSettle(diskRow(true)).isNull());
        QVERIFY(!view_->grabView().isNull());  // the frame that was framed again
        const granular::ui::OverlayPlaces places = view_->overlayPlaces();
        const granular::ui::PixelBox scene = view_->drawnExtent();
        QVERIFY2(!places.leftColumn.isEmpty(), "the force bar is shown");
        for (const auto* overlay : {&places.leftColumn, &places.leftTitle, &places.rightColumn, &places.rightTitle}) {
            QVERIFY2(!scene.overlaps(*overlay, 1.0),
                     qPrintable(QStringLiteral("the row %1-%2 px under a bar at %3-%4 px")
                                    .arg(scene.left)
                                    .arg(scene.right)
                                    .arg(overlay->left)
                                    .arg(overlay->right)));
        }
        QVERIFY2(scene.left > before.left, "framed again beside the bar");
        // Not shrunk to nothing: at least half the room between the bars' columns.
        QVERIFY(scene.width() > 0.5 * (places.rightColumn.left - places.leftColumn.right));
        // The bar gone again (between a bouncing grain's impacts): its room kept, also when the scene is framed again
        // (here by a larger text and back), and the bar's coming again frames nothing anew.
        QVERIFY(!showAndSettle(diskRow(false)).isNull());
        QVERIFY(view_->overlayPlaces().leftColumn.isEmpty());
        for (const double textScale : {1.3, 1.0}) {
            granular::ui::SceneOptions options = view_->options();
            options.textScale = textScale;
            view_->setOptions(options);
            QVERIFY(!view_->grabView().isNull());
        }
        QCOMPARE(view_->drawnExtent().left, scene.left);
        QCOMPARE(view_->drawnExtent().right, scene.right);
        // Home between impacts keeps it too (a new run, frameNewScene, does not).
        view_->resetCamera();
        QVERIFY(!view_->grabView().isNull());
        QCOMPARE(view_->drawnExtent().left, scene.left);
        QVERIFY(!showAndSettle(diskRow(true)).isNull());
        QCOMPARE(view_->drawnExtent().left, scene.left);
        QCOMPARE(view_->drawnExtent().right, scene.right);
    }

    /// The caption counts the grain-grain contacts that carry a force, what the sticks are drawn from, and says so:
    /// chain1d's row read "49 contacts" above the view and "50 contacts" in the status bar (which counts its disk
    /// against the wall too), with nothing to tell the two apart.
    void theCaptionNamesTheContactsItCounts()
    {
        QVERIFY(!showAndSettle(diskRow(true)).isNull());
        QVERIFY2(view_->caption().contains(QStringLiteral("   49 grain-grain contacts   <f_n> = 0.05 N")),
                 qPrintable(view_->caption()));
        auto pair = std::make_shared<granular::Frame>(*diskRow(false));
        pair->contacts.push_back({0, 1, 0.05F});
        QVERIFY(!showAndSettle(pair).isNull());
        QVERIFY2(view_->caption().contains(QStringLiteral("   1 grain-grain contact   <f_n> = 0.05 N")),
                 qPrintable(view_->caption()));
        QVERIFY(!showAndSettle(diskRow(false)).isNull());
        QVERIFY2(!view_->caption().contains(QStringLiteral("contact")), qPrintable(view_->caption()));
    }

private:
    /// Shows the frame and waits for the paint it asked for, so that a later paint can only come
    /// from what the test does next. Returns the image.
    QImage showAndSettle(std::shared_ptr<const granular::Frame> frame)
    {
        QSignalSpy repainted(view_.get(), &QOpenGLWindow::frameSwapped);
        view_->showFrame(std::move(frame));
        if (!repainted.wait(10'000)) {
            return {};
        }
        return view_->grabView();
    }

    std::unique_ptr<granular::ui::SceneView> view_;
};

int main(int argc, char** argv)
{
    // As in granular-studio: VTK needs this format on every context, set before QApplication.
    QSurfaceFormat::setDefaultFormat(granular::ui::SceneView::requiredFormat());
    QApplication app(argc, argv);
    SceneViewTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_scene_view.moc"
