#pragma once

#include <QMainWindow>

#include <memory>

class QLabel;

namespace granular {
struct Frame;
}

namespace granular::ui {

class SceneView;

/// The studio's window: the scene view in the middle, what is shown (scenario, particles,
/// dimension, simulated time) in the status bar, camera and screenshot commands in a menu and
/// toolbar. Lives on the GUI thread and owns its widgets.
class MainWindow final : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(const QString& scenarioName, QWidget* parent = nullptr);

    /// Shows the frame in the view and its particle count, dimension and time in the status bar.
    void showFrame(std::shared_ptr<const Frame> frame);

    [[nodiscard]] SceneView* sceneView() const { return view_; }

private:
    /// Asks for a file name and saves the view's image there as PNG.
    void saveScreenshot();

    QString scenarioName_;
    SceneView* view_;
    QLabel* particlesLabel_;
    QLabel* dimensionLabel_;
    QLabel* timeLabel_;
};

}  // namespace granular::ui
