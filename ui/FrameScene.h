#pragma once

#include "ForceNetwork.h"
#include "ParticleFields.h"
#include "ViewFraming.h"

#include <QImage>
#include <QString>

#include <memory>

class vtkObject;    // NOLINT(cppcoreguidelines-virtual-class-destructor): VTK's class, deleted by its own refcount
class vtkRenderer;  // NOLINT(cppcoreguidelines-virtual-class-destructor): VTK's class, deleted by its own refcount

namespace granular {
struct Frame;
}

namespace granular::ui {

/// How the scene draws a frame.
struct SceneOptions {
    ColourField colourField = ColourField::Height;
    bool showForceChains = true;
    double forceThreshold = 1.0;  ///< x: sticks for f_n >= x <f_n> (strong) or f_n < x <f_n> (weak)
    ForceNetworkPart networkPart = ForceNetworkPart::Strong;
    double particleScale = 1.0;  ///< drawn radius / radius, in (0, 1]: smaller shows chains inside 3D packings
    /// A periodic cell's neighbouring images around it, dimmed, to kPeriodicImageBand of the cell's edges.
    bool periodicImages = false;
    /// Presentation mode: text (caption, colour bars) and lines (outlines, walls, piston) this many times larger.
    double textScale = 1.0;
    double lineScale = 1.0;
};

/// VTK's pixels per inch unless a window sets its own: its text is sized in points at that DPI. SceneView lowers it
/// while the camera moves (fewer pixels), and the scene's overlay text keeps its size on the screen.
inline constexpr int kVtkDefaultDpi = 72;

/// How far beyond the periodic cell its images are drawn, in cell edges.
inline constexpr double kPeriodicImageBand = 0.3;

/// The VTK props that draw one Frame: particles as shaded sphere imposters (one quad each, so
/// tens of thousands stay interactive on a CPU renderer) coloured by a chosen field; contacts as
/// stick imposters from centre to centre, width and colour by f_n / <f_n>; walls as translucent
/// rectangles (3D) or lines (2D), the piston, the drum with marks that turn with it, the
/// container's outline or the periodic cell, optionally with the cell's neighbouring images of grains
/// and sticks around it; colour bars and a caption, drawn by Qt into pictures over the scene (OverlayImage).
/// Owned by SceneView, on the GUI thread, like every VTK object of the studio.
class FrameScene {
public:
    FrameScene();
    ~FrameScene();
    FrameScene(const FrameScene&) = delete;
    FrameScene& operator=(const FrameScene&) = delete;
    FrameScene(FrameScene&&) = delete;
    FrameScene& operator=(FrameScene&&) = delete;

    /// The renderer holding the props; the view adds it to its render window.
    [[nodiscard]] vtkRenderer* renderer() const;

    /// Replaces what is drawn by this frame. The camera is left alone.
    void show(std::shared_ptr<const Frame> frame);
    /// Draws the current frame again with these options.
    void setOptions(const SceneOptions& options);
    [[nodiscard]] const SceneOptions& options() const;

    /// Frames the container and every particle of the last frame: an oblique view from above the
    /// front-right corner in 3D, a parallel projection looking down -z in 2D.
    void resetCamera();

    /// Where the colour bars and the caption stand (display pixels) for the view's size, its text size and what the
    /// bars show now. `forceBarRoom`: the force bar's place also where it has been shown since restartForceBarRoom()
    /// and is hidden now (no stick drawn: between a bouncing grain's impacts); resetCamera() frames the container and
    /// particles beside these places, so that the scene does not jump as the bar comes and goes.
    [[nodiscard]] OverlayPlaces overlayPlaces(bool forceBarRoom = false);
    /// From now on the force bar's room counts in the framing only once the bar is shown (a new run,
    /// SceneView::frameNewScene): a scene without forces is framed without it.
    void restartForceBarRoom();
    /// The box of the container and every particle of the last frame as the camera draws it now (display pixels; the
    /// bounding box of its eight corners), empty before any frame.
    [[nodiscard]] PixelBox drawnExtent() const;
    /// The caption's lines as last drawn and whether the force bar's room is kept: a framed camera is framed again
    /// when they change (the force bar came: chain1d's row, framed at its first frame without a force, ran under it).
    [[nodiscard]] OverlayArrangement overlayArrangement() const;

    /// 2 or 3, as in the last frame shown (3 before any).
    [[nodiscard]] int dimension() const;
    [[nodiscard]] const std::shared_ptr<const Frame>& frame() const;
    /// <f_n> of the last frame's contacts, N (0 without contacts).
    [[nodiscard]] double meanNormalForce() const;

    /// The particle drawn nearest to the eye under the display point (pixels from the bottom
    /// left, as VTK counts them), or whose periodic image is drawn there; -1 when the ray misses every particle.
    [[nodiscard]] int pick(double x, double y) const;
    /// Rings a particle (-1: none).
    void setHighlighted(int index);

    /// A plain background, the mean of the gradient's two colours, instead of the gradient: for a software
    /// rasteriser, where the gradient is a shaded pass over every pixel of every frame (piston2d playing in the
    /// studio under Xvfb on 2 cores: ~2 new frames/s of ~30, bench_studio 2026-12-01). Gradient unless set.
    void setPlainBackground(bool plain);

    /// While the camera moves the view asks for less detail: of more than kMostSticksWhileMoving (6,000) force
    /// sticks only the strongest are drawn, and the caption says so; every stick again when it stops.
    void setReducedDetail(bool reduced);
    /// Force sticks drawn now (periodic images included).
    [[nodiscard]] long long drawnSticks() const;
    /// The caption's text as drawn now (its fields three spaces apart; empty before any frame).
    [[nodiscard]] QString caption() const;

private:
    void redraw();
    void showStickDetail();
    /// Lays the colour bars and the caption out for the viewport's size and text size, as a render starts; draws
    /// their pictures again only where what they show, or their size, changed.
    void placeOverlays(vtkObject* renderer, unsigned long event, void* callData);
    /// The overlays' pixels per point: the text scale at the render window's DPI (lowered while the camera moves).
    [[nodiscard]] double overlayPixelsPerPoint() const;
    /// The caption's picture at this text size in a view `viewWidth` pixels wide (its lines broken between fields where
    /// one would be wider), drawn again only where its text, size or the view's width changed.
    QImage captionPicture(double pixelsPerPoint, int viewWidth);

    struct Props;
    std::unique_ptr<Props> props_;
};

}  // namespace granular::ui
