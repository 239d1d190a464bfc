#pragma once

#include <QOpenGLWidget>
#include <QSurfaceFormat>

#include <memory>

namespace granular {
struct Frame;
}

namespace granular::ui {

/// The 3D (or 2D) view of the latest Frame, drawn by VTK inside this widget's OpenGL context.
/// Debian's VTK Qt widget is built for Qt 5, so this does by hand what QVTKOpenGLNativeWidget does:
/// VTK renders into its own framebuffer with Qt's context, and paintGL() blits the result into
/// the widget's framebuffer.
///
/// Mouse: left drag rotates (pans in 2D), middle or shift+left drag pans, wheel or right drag zooms.
/// Lives on the GUI thread and owns every VTK object it draws with.
class SceneView final : public QOpenGLWidget {
    Q_OBJECT

public:
    explicit SceneView(QWidget* parent = nullptr);
    ~SceneView() override;
    Q_DISABLE_COPY_MOVE(SceneView)

    /// The OpenGL format VTK's OpenGL2 backend needs (3.2 core, no multisampling: VTK multisamples
    /// its own framebuffer). Set it as the default before the QApplication exists.
    static QSurfaceFormat requiredFormat();

    /// Draws this frame from now on. The first frame, and any frame whose dimension differs from
    /// the previous one, also resets the camera.
    void showFrame(std::shared_ptr<const Frame> frame);

    /// Frames the container and all particles of the current frame.
    void resetCamera();

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
    /// Drops VTK's OpenGL resources while Qt's context is still alive.
    void releaseGraphics();

    std::unique_ptr<Vtk> vtk_;
};

}  // namespace granular::ui
