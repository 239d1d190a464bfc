#pragma once

#include <memory>

class vtkRenderer;

namespace granular {
struct Frame;
}

namespace granular::ui {

/// The VTK props that draw one Frame: particles as shaded sphere imposters (one quad each, so
/// tens of thousands stay interactive on a CPU renderer) coloured by height, walls as translucent
/// rectangles (3D) or lines (2D), the container's outline and a colour bar.
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

    /// Replaces what is drawn by the frame's particles and walls. The camera is left alone.
    void show(const Frame& frame);

    /// Frames the container and every particle of the last frame: an oblique view from above the
    /// front-right corner in 3D, a parallel projection looking down -z in 2D.
    void resetCamera();

    /// 2 or 3, as in the last frame shown (3 before any).
    [[nodiscard]] int dimension() const;

private:
    struct Props;
    std::unique_ptr<Props> props_;
};

}  // namespace granular::ui
