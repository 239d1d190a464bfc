#pragma once

#include "SimulationUpdate.h"

#include <QElapsedTimer>
#include <QImage>
#include <QMainWindow>

#include <memory>
#include <optional>

class QTabWidget;

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QSlider;
class QSpinBox;
class QTimer;

namespace granular {
struct Frame;
struct LessonStep;
}  // namespace granular

namespace granular::ui {

class LessonPanel;
class ParameterPanel;
class ParticleInspector;
class CompressionPanel;
class FrameRecorder;
class PlotPanel;
class SceneView;
class SimulationController;
class StatusFields;
class BlowUpLabel;
class ElidedLabel;

/// The studio's window: the scene view and the live plots side by side, the parameter panel and
/// the particle inspector in a dock, the run and display controls in toolbars, the state of the
/// simulation in the status bar. It sends the user's commands to the controller and shows what
/// the controller publishes.
///
/// Shortcuts: Space play/pause, S or Right one step, Ctrl+R reset, L load step, Home camera reset.
/// Lives on the GUI thread and owns its widgets; the controller is the caller's.
class MainWindow final : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(SimulationController& controller, QWidget* parent = nullptr);
    ~MainWindow() override;
    Q_DISABLE_COPY_MOVE(MainWindow)

    [[nodiscard]] SceneView* sceneView() const { return view_; }
    /// Presentation mode on or off (View > Presentation mode, F5; granular-studio --presentation): the window's
    /// text, the plots' text and curves, the view's captions and lines grow for a projector.
    void setPresentation(bool on);
    /// The widget that holds the scene view's native window in the layout.
    [[nodiscard]] QWidget* sceneViewContainer() const { return viewContainer_; }
    /// The whole window as shown, the scene view painted in (grab() leaves its area blank).
    [[nodiscard]] QImage windowImage();
    [[nodiscard]] PlotPanel* plotPanel() const { return plots_; }
    [[nodiscard]] ParameterPanel* parameterPanel() const { return parameters_; }
    [[nodiscard]] ParticleInspector* particleInspector() const { return inspector_; }
    [[nodiscard]] CompressionPanel* compressionPanel() const { return compression_; }
    [[nodiscard]] LessonPanel* lessonPanel() const { return lesson_; }
    /// The side dock's tabs (Lesson, Parameters, Particle).
    [[nodiscard]] QTabWidget* sideTabs() const { return sideTabs_; }
    /// The settings the simulation runs with now (after accepted live edits).
    [[nodiscard]] const std::optional<Settings>& settings() const { return settings_; }
    /// The newest status the controller published.
    [[nodiscard]] const StepStatus& status() const { return status_; }

    /// Takes what the controller published and shows it; with `redrawPlots` the plots are drawn
    /// at once instead of at their next refresh (before a screenshot). Normally called by the
    /// window itself when the controller has something new, paced by what a frame costs here.
    void pullUpdate(bool redrawPlots = false);
    /// Frames received from the controller and frames the view has drawn since the window opened.
    [[nodiscard]] qint64 receivedFrames() const { return receivedFrames_; }
    [[nodiscard]] qint64 renderedFrames() const;
    /// ms, what a frame costs the GUI thread and the view (smoothed), which paces the pulls: one every 1.25 costs.
    [[nodiscard]] double frameCost() const { return frameCost_; }

    /// Writes the view's image as PNG; returns an error message, empty on success.
    [[nodiscard]] QString saveViewImage(const QString& path);
    /// Writes the frame on show for ParaView (NAME.pvd with NAME_particles/contacts/boundaries.vtp beside it);
    /// returns an error message, empty on success.
    [[nodiscard]] QString exportFrame(const QString& path);
    /// The blow-up guard's message while the run is stopped by a blow-up; empty otherwise.
    [[nodiscard]] QString blowUpMessage() const;

    /// View > Record: every frame the view draws from now on goes to `folder` as a PNG (the view, or the whole
    /// window with `wholeWindow`); stopRecording() finishes the files and encodes an MP4 where ffmpeg exists.
    /// Returns an error message, empty on success.
    [[nodiscard]] QString startRecording(const QString& folder, bool wholeWindow = false);
    /// Returns the recording's summary (also shown in the status bar).
    QString stopRecording();
    [[nodiscard]] FrameRecorder* recorder() const { return recorder_; }
    /// The whole window as shown, with `view` painted in for the scene view.
    [[nodiscard]] QImage windowImage(const QImage& view);

private:
    /// The controller has something new: pull it now, or once the view has had its rest.
    void schedulePull();
    void buildActions();
    void buildDisplayBar();
    void buildStatusBar();
    /// Simulation > Solver threads: 1 to the machine's cores, the process-wide solver thread count, and whether a
    /// step may run on fewer threads where that is faster (Adapt to busy cores).
    void addSolverThreadsMenu(QMenu& menu);
    void startRun(const RunInfo& run);
    void showFrame(std::shared_ptr<const Frame> frame);
    void showStatus(const StepStatus& status);
    /// Shows the advice label where there is advice and no transient message: QStatusBar hides its widgets while a
    /// message is shown and shows them again after it, and a label shown during the message would take its room.
    void showAdvice();
    void applyDisplayOptions();
    /// Sets the display bar to the scenario's view.* settings (colour field, grain size, periodic images).
    void applyScenarioView(const Settings& settings);
    /// Sets the display bar's control of one view.* key from `settings` (an edit of that key): the others and the
    /// camera stay as the user left them.
    void applyViewKey(const QString& key, const Settings& settings);
    /// The display bar's control of one view.* key set from `settings`, without its signal.
    void setViewControl(const QString& key, const Settings& settings);
    /// The grain size slider's value (%) for the scenario's view.grain_size (0: automatic).
    [[nodiscard]] static int grainSizePercent(const Settings& settings);
    void pickParticle(int index);
    void parameterAccepted(const QString& key, const QString& value, bool live);
    void showError(const QString& message);
    void saveViewDialog();
    void saveWindowDialog();
    void exportCsvDialog();
    void openScenarioDialog();
    /// File > Open packing: particles.file and its up axis, then a reset.
    void openPackingDialog();
    void saveStateDialog();
    void openStateDialog();
    void exportFrameDialog();
    void showBlowUp(const QString& message);
    void recordDialog(bool on);
    void showRecordingState();
    /// A lesson step's suggestion: its parameter changes, then its action, as the user's own commands.
    void applyLessonStep(const LessonStep& step);

    SimulationController& controller_;
    std::optional<Settings> settings_;
    StepStatus status_;
    QString origin_;
    bool resetCameraOnNextFrame_ = true;
    int picked_ = -1;
    qint64 receivedFrames_ = 0;
    qint64 renderedAtLastTick_ = 0;
    /// Pacing of the pulls: a pull at most every 1.25 frame costs (kFramePacing), so that the GUI thread keeps
    /// a fifth of its time for input, plots and panels.
    QElapsedTimer sincePull_;
    QElapsedTimer frameClock_;  ///< runs from a pull with a frame until the view has shown it
    double pullCost_ = 0.0;     ///< ms, the GUI thread's work of the last pull with a frame (before the view draws)
    /// ms, smoothed wall time of a frame's work: its pull, then from the view's drawing to the window's composition.
    /// Not the wait between them: Qt delivers the view's update up to 5 ms after it is asked for, to let the event
    /// loop gather input, and that idle time is not the frame's.
    double frameCost_ = 0.0;

    SceneView* view_;
    QWidget* viewContainer_ = nullptr;
    PlotPanel* plots_;
    ParameterPanel* parameters_;
    ParticleInspector* inspector_;
    CompressionPanel* compression_;
    LessonPanel* lesson_;
    QTabWidget* analysisTabs_ = nullptr;
    QTabWidget* sideTabs_ = nullptr;
    QTimer* pullTimer_;
    FrameRecorder* recorder_;
    bool recordWholeWindow_ = false;
    QAction* recordAction_ = nullptr;
    QAction* recordWindowAction_ = nullptr;

    QAction* playAction_ = nullptr;
    QAction* loadStepAction_ = nullptr;
    QSpinBox* stepsPerFrame_ = nullptr;
    QComboBox* method_ = nullptr;

    QComboBox* colourField_ = nullptr;
    QCheckBox* chains_ = nullptr;
    QSlider* threshold_ = nullptr;
    QLabel* thresholdLabel_ = nullptr;
    QComboBox* networkPart_ = nullptr;
    QSlider* particleSize_ = nullptr;
    QCheckBox* periodicImages_ = nullptr;
    QAction* periodicImagesAction_ = nullptr;  ///< the checkbox's place in the display bar: periodic cells only
    QString viewOrigin_;                       ///< the scenario whose view.* settings the display shows
    QAction* presentationAction_ = nullptr;
    bool presentation_ = false;
    bool contactForces_ = true;  ///< whether the run's method has contact forces (not ballistic flight)
    QFont normalFont_;           ///< the window's font outside presentation mode

    QLabel* timeLabel_ = nullptr;
    QLabel* rateLabel_ = nullptr;
    QLabel* threadsLabel_ = nullptr;
    QLabel* contactsLabel_ = nullptr;
    QLabel* iterationsLabel_ = nullptr;
    QLabel* residualLabel_ = nullptr;
    QLabel* overlapLabel_ = nullptr;
    QLabel* forceLabel_ = nullptr;
    QLabel* fpsLabel_ = nullptr;
    ElidedLabel* advisoryLabel_ = nullptr;
    BlowUpLabel* blowUpLabel_ = nullptr;    ///< the blow-up guard's message, until another run starts
    QLabel* recordLabel_ = nullptr;         ///< shown while recording: the frames so far
    StatusFields* statusFields_ = nullptr;  ///< which of the readouts above fit in the bar (the bar owns it)
};

}  // namespace granular::ui
