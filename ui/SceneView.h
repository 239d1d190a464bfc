#pragma once

#include "FrameScene.h"
#include "MotionResolution.h"

#include <QElapsedTimer>
#include <QImage>
#include <QOpenGLWindow>
#include <QPoint>
#include <QSize>
#include <QSurfaceFormat>
#include <QTimer>

#include <memory>

namespace granular {
struct Frame;
}

namespace granular::ui {

/// The 3D (or 2D) view of the latest Frame, drawn by VTK inside this window's OpenGL context.
/// Debian's VTK Qt widget is built for Qt 5, so this does by hand what QVTKOpenGLWindow does:
/// VTK renders into its own framebuffer with Qt's context, and paintGL() blits the result into
/// the window's framebuffer.
///
/// Mouse: left drag rotates (pans in 2D), middle or shift+left drag pans, wheel or right drag zooms,
/// a left click without dragging picks a particle.
///
/// While the camera moves (a drag, the wheel, orbit()) the view renders at a reduced resolution
/// chosen by MotionResolution and stretches the image to the window; kSettleMilliseconds after the
/// last motion it draws the full resolution again. Screenshots and recordings are always full.
/// Lives on the GUI thread and owns every VTK object it draws with.
///
/// A native window rather than a QOpenGLWidget: a QOpenGLWidget makes Qt compose its whole
/// top-level window through OpenGL on every repaint of any widget (a chart, a status label), which
/// costs tens of milliseconds a time on a software rasteriser. Embed it with
/// QWidget::createWindowContainer(); widget screenshots must paint grabView() in themselves.
class SceneView final : public QOpenGLWindow {
    Q_OBJECT

public:
    explicit SceneView(QWindow* parent = nullptr);
    ~SceneView() override;
    Q_DISABLE_COPY_MOVE(SceneView)

    /// The OpenGL format VTK's OpenGL2 backend needs (3.2 core, no multisampling: VTK multisamples
    /// its own framebuffer). Set it as the default before the QApplication exists.
    static QSurfaceFormat requiredFormat();

    /// Draws this frame from now on. The first frame, and any frame whose dimension differs from
    /// the previous one, also resets the camera.
    void showFrame(std::shared_ptr<const Frame> frame);

    /// Whether the context renders in software (Mesa's llvmpipe, softpipe): known once the view
    /// has been shown; viewers then show fewer frames per second.
    [[nodiscard]] bool softwareRendering() const { return softwareRendering_; }

    /// Frames VTK has rendered into this view since it was created (frameSwapped() also fires when
    /// Qt only recomposes the window).
    [[nodiscard]] qint64 renderedFrames() const { return renderedFrames_; }
    /// ns since the last frame began to draw (paintGL), or -1 before the first.
    [[nodiscard]] qint64 nsecsSinceDrawStarted() const
    {
        return drawStarted_.isValid() ? drawStarted_.nsecsElapsed() : -1;
    }

    /// The view as drawn now (device pixels), or a null image before the window is exposed.
    [[nodiscard]] QImage grabView();
    /// Frames the container and all particles of the current frame beside the colour bars and below the caption. Until
    /// the user moves the camera, the view frames them again when its size, its text size or the caption's lines
    /// change, or when the force bar first shows; its room is kept while it is hidden (between impacts).
    void resetCamera();
    /// resetCamera() for a new run: the force bar's room counts again only once the bar shows (a run without forces is
    /// framed in the room the particle bar leaves).
    void frameNewScene();
    /// Where the colour bars and the caption stand, and the container's and particles' box as the camera draws it now
    /// (both in VTK's pixels of the frame drawn last, from the bottom left).
    [[nodiscard]] OverlayPlaces overlayPlaces();
    [[nodiscard]] PixelBox drawnExtent() const;

    /// Draws the current frame again with these options (colour field, force chains, ...).
    void setOptions(const SceneOptions& options);
    [[nodiscard]] const SceneOptions& options() const;
    [[nodiscard]] const std::shared_ptr<const Frame>& frame() const;
    /// <f_n> of the shown frame's contacts, N.
    [[nodiscard]] double meanNormalForce() const;
    /// Force sticks in the last frame drawn (while the camera moves, only the strongest: FrameScene).
    [[nodiscard]] long long drawnSticks() const;
    /// The view's caption as drawn now: time, particles, the grain-grain contacts that carry a force (what the sticks
    /// show; the status bar's count adds the walls', piston's and drum's), <f_n>, the chains' threshold.
    [[nodiscard]] QString caption() const;
    /// Rings a particle in the view (-1: none); it stays ringed in later frames.
    void setHighlighted(int index);
    /// The particle under a point of the window (logical pixels), or -1.
    [[nodiscard]] int particleAt(QPoint position) const;
    /// Turns the 3D camera about the vertical axis through the focal point, degrees.
    void orbit(double degrees);
    /// The resolution divisor of the frame drawn last (1: full resolution; more while the camera moves).
    [[nodiscard]] int drawnReduction() const { return reduction_; }
    /// Whether the camera counts as moving (until kSettleMilliseconds after its last motion).
    [[nodiscard]] bool cameraMoving() const { return moving_; }
    /// The wall time a frame drawn while the camera moves may take, ms (MotionResolution's target).
    void setMotionFrameTarget(double milliseconds) { motion_.setTargetMilliseconds(milliseconds); }

    /// How long after its last motion the camera counts as still.
    static constexpr int kSettleMilliseconds = 250;
    /// While on, every frame the view draws is also read back and handed out by frameCaptured() (recording):
    /// the frame is not drawn a second time.
    void setCapturing(bool on) { capturing_ = on; }

signals:
    /// A left click without dragging hit this particle (-1: it hit none).
    void particlePicked(int index);
    /// A frame just drawn, while capturing (device pixels).
    void frameCaptured(const QImage& image);

protected:
    void initializeGL() override;
    void resizeGL(int width, int height) override;
    void paintGL() override;

    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    struct Vtk;
    /// Renders the scene with VTK at 1/reduction of the window's resolution and copies it, stretched,
    /// into the window's back buffer.
    void draw(int reduction);
    /// Sizes VTK's framebuffer (and the text's DPI) for this resolution divisor.
    void applyReduction(int reduction);
    /// The camera moved: reduced resolution until it settles.
    void noteCameraMotion();
    /// Drops VTK's OpenGL resources while Qt's context is still alive.
    void releaseGraphics();

    std::unique_ptr<Vtk> vtk_;
    QPoint pressPosition_;
    QSize deviceSize_;  ///< the window in device pixels
    MotionResolution motion_;
    QTimer settle_;
    bool moving_ = false;
    int reduction_ = 1;
    bool softwareRendering_ = false;
    qint64 renderedFrames_ = 0;
    QElapsedTimer drawStarted_;  ///< restarted as paintGL begins
    bool capturing_ = false;
    bool framed_ = false;      ///< the camera is as resetCamera() left it: the view frames the scene again on a resize
    bool fitPending_ = false;  ///< the next draw frames the scene (at the size VTK's window has then)
    OverlayArrangement overlaysAtFit_;  ///< the caption's lines and the force bar's room when the scene was last framed
};

}  // namespace granular::ui
