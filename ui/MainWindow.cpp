#include "MainWindow.h"

#include "BlowUpLabel.h"
#include "CompressionPanel.h"
#include "ElidedLabel.h"
#include "FrameExport.h"
#include "FrameRecorder.h"
#include "LabelColours.h"
#include "LessonPanel.h"
#include "ParameterPanel.h"
#include "ParticleInspector.h"
#include "PlotPanel.h"
#include "SavedFile.h"
#include "SceneView.h"
#include "SimulationController.h"
#include "SolverThreadsText.h"
#include "StatusFields.h"
#include "ValueText.h"
#include "scenario/Schema.h"
#include "settings/SettingsBinding.h"
#include "sim/Frame.h"
#include "util/Parallel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QImage>
#include <QInputDialog>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <cmath>
#include <exception>

namespace granular::ui {

namespace {

/// Frames shown per second at most (with a GPU; with a software rasteriser, which takes its
/// cores from the simulation, fewer), and at least (however costly a frame). piston2d's frames cost
/// ~20-25 ms on llvmpipe with two cores: it shows 25-33 new frames/s, the solver keeping 80-90 % of the
/// steps/s it has in the studio at a third fewer frames (bench_studio, 2026-11-27).
constexpr double kMaximumFrameRate = 60.0;
constexpr double kMaximumSoftwareFrameRate = 40.0;
constexpr double kMinimumFrameRate = 2.0;
/// Wall time between two pulls / wall time a frame costs: 1.25 leaves a fifth of the GUI thread's time
/// to input, plots and panels; an event waits at most about one frame's cost.
constexpr double kFramePacing = 1.25;

/// The force-chain threshold slider counts tenths of <f_n>.
constexpr double kThresholdStep = 0.1;
constexpr int kThresholdTicks = 40;
/// Presentation mode: text this many times its usual size, lines this many times their usual width.
constexpr double kPresentationFontScale = 1.6;
constexpr double kPresentationLineScale = 2.2;
/// The Scenario dock's width (px), usual and in presentation mode: at a projector's text size the parameter form's
/// rows (a key, its field, unit and "on reset") need some 340 px, beside the dock's frame and scroll bar.
constexpr int kScenarioDockWidth = 330;
constexpr int kPresentationScenarioDockWidth = 400;
/// Drawn radius / radius of a 3D scene with contacts when its scenario leaves view.grain_size automatic.
constexpr double kChainViewGrainSize = 0.5;

/// The status bar's iterations field explained, for soft particles (md, mcdem) or the other methods.
QString iterationsTip(bool softParticles)
{
    return softParticles ? QObject::tr("velocity-Verlet steps in the last solver step (solver.substeps; automatic: "
                                       "enough for 50 steps per contact duration)")
                         : QObject::tr("solver iterations in the last step");
}

/// The status bar's residual field explained: the largest overlap for soft particles, else the solver's convergence.
QString residualTip(bool softParticles)
{
    if (softParticles) {
        return QObject::tr("the largest overlap of two grains, or of a grain and a wall, the piston or the drum, after "
                           "the last step (soft particles have no iteration to converge)");
    }
    return QObject::tr("Contact dynamics: |\u0394R|/|R| is how much the contact forces changed in the last "
                       "Gauss-Seidel sweep, relative to the forces (Euclidean norms over all contacts): small when the "
                       "forces have converged. Eq. 35 (Unger & Kertesz 2003) is the largest change of one contact "
                       "relative to its force: it is 1 whenever a contact opened or closed in that sweep. Other "
                       "methods: their convergence measure of the last iteration.");
}

QString number(double x, int digits = 4)
{
    return QString::number(x, 'g', digits);
}

QLabel* statusLabel(QWidget* parent, const QString& tip)
{
    auto* label = new QLabel(parent);
    label->setContentsMargins(6, 0, 6, 0);
    label->setToolTip(tip);
    return label;
}

}  // namespace

MainWindow::MainWindow(SimulationController& controller, QWidget* parent)
    : QMainWindow(parent), controller_(controller), view_(new SceneView), plots_(new PlotPanel(this)),
      parameters_(new ParameterPanel(this)), inspector_(new ParticleInspector(this)),
      compression_(new CompressionPanel(this)), lesson_(new LessonPanel(this)), pullTimer_(new QTimer(this)),
      recorder_(new FrameRecorder(this))
{
    setWindowTitle(tr("Granular Studio"));
    resize(1280, 800);

    // The view and the plots share the centre; the view gets the larger part.
    auto* centre = new QSplitter(Qt::Horizontal, this);
    viewContainer_ = QWidget::createWindowContainer(view_, centre);  // owns view_ from here on
    viewContainer_->setObjectName(QStringLiteral("sceneViewContainer"));
    viewContainer_->setMinimumSize(160, 120);
    viewContainer_->setFocusPolicy(Qt::StrongFocus);
    centre->addWidget(viewContainer_);
    analysisTabs_ = new QTabWidget(centre);
    analysisTabs_->setObjectName(QStringLiteral("analysisTabs"));
    analysisTabs_->addTab(plots_, tr("Plots"));
    analysisTabs_->addTab(compression_, tr("Compression"));
    analysisTabs_->setTabVisible(1, false);
    centre->addWidget(analysisTabs_);
    centre->setStretchFactor(0, 3);
    centre->setStretchFactor(1, 2);
    centre->setSizes({560, 390});
    setCentralWidget(centre);

    auto* tabs = new QTabWidget(this);
    sideTabs_ = tabs;
    tabs->setObjectName(QStringLiteral("sideTabs"));
    tabs->addTab(lesson_, tr("Lesson"));
    tabs->addTab(parameters_, tr("Parameters"));
    tabs->addTab(inspector_, tr("Particle"));
    tabs->setTabVisible(0, false);
    auto* dock = new QDockWidget(tr("Scenario"), this);
    dock->setObjectName(QStringLiteral("scenarioDock"));
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    dock->setWidget(tabs);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {kScenarioDockWidth}, Qt::Horizontal);

    buildActions();
    buildDisplayBar();
    buildStatusBar();

    pullTimer_->setObjectName(QStringLiteral("pullTimer"));
    pullTimer_->setSingleShot(true);
    connect(pullTimer_, &QTimer::timeout, this, [this] { pullUpdate(); });
    connect(&controller_, &SimulationController::updateAvailable, this, &MainWindow::schedulePull);
    connect(&controller_, &SimulationController::runningChanged, this, [this](bool running) {
        playAction_->setChecked(running);
        playAction_->setText(running ? tr("Pause") : tr("Play"));
    });
    connect(&controller_, &SimulationController::parameterAccepted, this, &MainWindow::parameterAccepted);
    connect(&controller_, &SimulationController::parameterRejected, this,
            [this](const QString& key, const QString& message) {
                parameters_->markRejected(key, message);
                showError(message);
                if (key == QStringLiteral("solver.method") && settings_) {
                    method_->setCurrentText(QString::fromStdString(std::string(choiceName(settings_->solver.method))));
                }
            });
    connect(&controller_, &SimulationController::commandFailed, this, &MainWindow::showError);
    connect(&controller_, &SimulationController::blownUp, this, &MainWindow::showBlowUp);
    connect(&controller_, &SimulationController::stateSaved, this, [this](const QString& path, double time) {
        statusBar()->showMessage(
            tr("Saved the state at t = %1 s to %2").arg(number(time, 6), QDir::toNativeSeparators(path)), 8000);
    });
    connect(&controller_, &SimulationController::notice, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    // "press Play to go on" stayed for its 8 s while the run played (and in --screenshot images of later times).
    connect(&controller_, &SimulationController::noticeOutdated, this, [this](const QString& message) {
        if (statusBar()->currentMessage() == message) {
            statusBar()->clearMessage();
        }
    });

    connect(parameters_, &ParameterPanel::parameterEdited, &controller_, &SimulationController::setParameter);
    connect(lesson_, &LessonPanel::applyRequested, this, &MainWindow::applyLessonStep);
    connect(parameters_, &ParameterPanel::scenarioChosen, this,
            [this](const QString& nameOrPath) { controller_.loadScenario(nameOrPath); });
    connect(parameters_, &ParameterPanel::stateChosen, &controller_, &SimulationController::openState);
    connect(view_, &SceneView::particlePicked, this, [this, tabs](int index) {
        pickParticle(index);
        if (index >= 0) {
            tabs->setCurrentWidget(inspector_);
        }
    });
    connect(view_, &QOpenGLWindow::frameSwapped, this, [this] {
        if (frameClock_.isValid()) {
            // The window is composed after the view has swapped: the frame's cost ends when the
            // event loop gets back to posted work.
            QTimer::singleShot(0, this, [this] {
                if (!frameClock_.isValid()) {
                    return;
                }
                const qint64 drawing = view_->nsecsSinceDrawStarted();
                const qint64 sincePull = frameClock_.nsecsElapsed();
                // A drawing that began before this pull was not this frame's: then the whole time since the pull.
                const double cost = drawing >= 0 && drawing <= sincePull
                                        ? pullCost_ + 1e-6 * static_cast<double>(drawing)
                                        : 1e-6 * static_cast<double>(sincePull);
                frameCost_ = frameCost_ > 0.0 ? 0.7 * frameCost_ + 0.3 * cost : cost;
                frameClock_.invalidate();
            });
        }
    });

    // The REC label counts every frame as it is taken: by the second's tick alone it read "REC 0 frames" through a
    // recording's first second (and in a screenshot of a short recorded run).
    connect(view_, &SceneView::frameCaptured, this, [this](const QImage& image) {
        if (recordWholeWindow_) {
            // A frame of the whole window shows its own number (it showed the count of the frames before it).
            recordLabel_->setText(tr("REC %1 frames").arg(recorder_->recordedFrames() + 1));
        }
        recorder_->addFrame(recordWholeWindow_ ? windowImage(image) : image);
        showRecordingState();
    });
    connect(recorder_, &FrameRecorder::videoEncoded, this, [this](const QString& path, const QString& error) {
        statusBar()->showMessage(error.isEmpty() ? tr("Wrote %1").arg(QDir::toNativeSeparators(path))
                                                 : tr("Recording: %1").arg(error),
                                 8000);
    });

    // Frames drawn per second, over the last second.
    auto* tick = new QTimer(this);
    connect(tick, &QTimer::timeout, this, [this] {
        fpsLabel_->setText(tr("%1 frames/s").arg(renderedFrames() - renderedAtLastTick_));
        renderedAtLastTick_ = renderedFrames();
        showRecordingState();
        statusFields_->fit();  // the tooltip's texts of hidden fields, also while paused (no layout request then)
    });
    tick->start(1000);
}

MainWindow::~MainWindow() = default;

qint64 MainWindow::renderedFrames() const
{
    return view_->renderedFrames();
}

void MainWindow::buildActions()
{
    playAction_ = new QAction(tr("Play"), this);
    playAction_->setCheckable(true);
    playAction_->setShortcut(QKeySequence(Qt::Key_Space));
    playAction_->setToolTip(tr("Play / pause the simulation (Space)"));
    connect(playAction_, &QAction::triggered, &controller_, [this](bool on) {
        if (on) {
            controller_.play();
        } else {
            controller_.pause();
        }
    });

    auto* step = new QAction(tr("Step"), this);
    step->setShortcuts({QKeySequence(Qt::Key_S), QKeySequence(Qt::Key_Right)});
    step->setToolTip(tr("Pause and advance by one time step (S or Right)"));
    connect(step, &QAction::triggered, &controller_, &SimulationController::stepOnce);

    auto* reset = new QAction(tr("Reset"), this);
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    reset->setToolTip(tr("Rebuild the world from the scenario, with the parameters that apply on reset (Ctrl+R)"));
    connect(reset, &QAction::triggered, this, [this] {
        parameters_->commitTyped();  // a value typed without Enter goes into the rebuilt run
        controller_.reset();
    });

    loadStepAction_ = new QAction(tr("Load step"), this);
    loadStepAction_->setShortcut(QKeySequence(Qt::Key_L));
    loadStepAction_->setToolTip(tr("Push the piston with F + dF from the next step on (piston.load_step; L)"));
    connect(loadStepAction_, &QAction::triggered, &controller_, &SimulationController::applyLoadStep);

    auto* resetCamera = new QAction(tr("Reset camera"), this);
    resetCamera->setShortcut(QKeySequence(Qt::Key_Home));
    resetCamera->setToolTip(tr("Frame the container and all particles (Home)"));
    connect(resetCamera, &QAction::triggered, view_, &SceneView::resetCamera);

    auto* open = new QAction(tr("&Open scenario..."), this);
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, this, &MainWindow::openScenarioDialog);
    auto* openPacking = new QAction(tr("Open &packing..."), this);
    openPacking->setToolTip(tr("Load the grains from a LAMMPS/LIGGGHTS data file or a CSV (x,y,z,radius[,density]) "
                               "and rebuild (particles.file)"));
    connect(openPacking, &QAction::triggered, this, &MainWindow::openPackingDialog);
    auto* saveView = new QAction(tr("Save &view as PNG..."), this);
    saveView->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(saveView, &QAction::triggered, this, &MainWindow::saveViewDialog);
    auto* saveWindow = new QAction(tr("Save &window as PNG..."), this);
    connect(saveWindow, &QAction::triggered, this, &MainWindow::saveWindowDialog);
    auto* exportCsv = new QAction(tr("Export plot data as &CSV..."), this);
    exportCsv->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(exportCsv, &QAction::triggered, this, &MainWindow::exportCsvDialog);
    auto* saveState = new QAction(tr("Save s&tate..."), this);
    saveState->setToolTip(tr("Write the scenario and the complete state (particles, contacts, forces, piston, cell, "
                             "random generators) to a file; Open state goes on from it exactly"));
    connect(saveState, &QAction::triggered, this, &MainWindow::saveStateDialog);
    auto* openState = new QAction(tr("Open st&ate..."), this);
    openState->setToolTip(tr("Go on from a state saved by the studio or a run's checkpoint.bin"));
    connect(openState, &QAction::triggered, this, &MainWindow::openStateDialog);
    auto* exportFrameAction = new QAction(tr("Export &frame for ParaView..."), this);
    exportFrameAction->setToolTip(tr("Write the frame on show as a ParaView collection (.pvd) with its particles, "
                                     "force network and walls (.vtp)"));
    connect(exportFrameAction, &QAction::triggered, this, &MainWindow::exportFrameDialog);
    auto* quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(open);
    file->addAction(openPacking);
    file->addSeparator();
    file->addAction(saveState);
    file->addAction(openState);
    file->addSeparator();
    file->addAction(saveView);
    file->addAction(saveWindow);
    file->addAction(exportCsv);
    file->addAction(exportFrameAction);
    file->addSeparator();
    file->addAction(quit);
    auto* simulation = menuBar()->addMenu(tr("&Simulation"));
    for (auto* action : {playAction_, step, reset, loadStepAction_}) {
        simulation->addAction(action);
    }
    simulation->addSeparator();
    addSolverThreadsMenu(*simulation);
    recordAction_ = new QAction(tr("&Record..."), this);
    recordAction_->setCheckable(true);
    recordAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    recordAction_->setToolTip(tr("Write every frame the view draws as PNG into a folder; when stopped, encode them "
                                 "as recording.mp4 where ffmpeg is installed (Ctrl+Shift+R)"));
    connect(recordAction_, &QAction::triggered, this, &MainWindow::recordDialog);
    recordWindowAction_ = new QAction(tr("Record the whole &window"), this);
    recordWindowAction_->setCheckable(true);
    recordWindowAction_->setToolTip(tr("Record the window with its plots and panels instead of the view alone"));

    auto* viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->addAction(resetCamera);
    viewMenu->addSeparator();
    viewMenu->addAction(recordAction_);
    viewMenu->addAction(recordWindowAction_);
    viewMenu->addSeparator();
    presentationAction_ = new QAction(tr("&Presentation mode"), this);
    presentationAction_->setObjectName(QStringLiteral("presentationMode"));
    presentationAction_->setCheckable(true);
    presentationAction_->setShortcut(QKeySequence(Qt::Key_F5));
    presentationAction_->setToolTip(tr("Larger text and thicker lines for a projector: window, plots and view"));
    connect(presentationAction_, &QAction::toggled, this, &MainWindow::setPresentation);
    viewMenu->addAction(presentationAction_);
    addAction(presentationAction_);

    auto* run = addToolBar(tr("Run"));
    run->setObjectName(QStringLiteral("runToolBar"));
    run->setMovable(false);
    for (auto* action : {playAction_, step, reset, loadStepAction_}) {
        run->addAction(action);
    }
    run->addSeparator();
    run->addWidget(new QLabel(tr(" steps/frame "), run));
    stepsPerFrame_ = new QSpinBox(run);
    stepsPerFrame_->setObjectName(QStringLiteral("stepsPerFrame"));
    stepsPerFrame_->setRange(0, 10000);
    stepsPerFrame_->setSpecialValueText(tr("max"));
    stepsPerFrame_->setToolTip(tr("Steps between two frames while playing; max: as many as fit (frames at most "
                                  "60/s)"));
    connect(stepsPerFrame_, &QSpinBox::valueChanged, &controller_, &SimulationController::setStepsPerFrame);
    run->addWidget(stepsPerFrame_);
    run->addWidget(new QLabel(tr(" method "), run));
    method_ = new QComboBox(run);
    method_->setObjectName(QStringLiteral("method"));
    if (const Parameter* p = Schema::instance().find("solver.method")) {
        for (const auto& choice : p->choices) {
            method_->addItem(QString::fromStdString(choice));
        }
        method_->setToolTip(QString::fromStdString(p->description));
    }
    connect(method_, &QComboBox::activated, this,
            [this](int index) { controller_.changeMethod(method_->itemText(index)); });
    run->addWidget(method_);
    run->addSeparator();
    run->addAction(resetCamera);
    run->addAction(saveView);
}

void MainWindow::buildDisplayBar()
{
    // A row of its own: beside the run bar it overflowed a 1280-pixel window, hiding the size slider.
    addToolBarBreak(Qt::TopToolBarArea);
    auto* bar = addToolBar(tr("Display"));
    bar->setObjectName(QStringLiteral("displayToolBar"));
    bar->setMovable(false);

    bar->addWidget(new QLabel(tr(" colour "), bar));
    colourField_ = new QComboBox(bar);
    colourField_->setObjectName(QStringLiteral("colourField"));
    for (const ColourField field : kColourFields) {
        colourField_->addItem(fieldName(field), static_cast<int>(field));
    }
    colourField_->setToolTip(tr("The field the particles are coloured by"));
    connect(colourField_, &QComboBox::currentIndexChanged, this, &MainWindow::applyDisplayOptions);
    bar->addWidget(colourField_);
    bar->addSeparator();

    chains_ = new QCheckBox(tr("force chains"), bar);
    chains_->setObjectName(QStringLiteral("forceChains"));
    chains_->setChecked(true);
    connect(chains_, &QCheckBox::toggled, this, &MainWindow::applyDisplayOptions);
    bar->addWidget(chains_);
    networkPart_ = new QComboBox(bar);
    networkPart_->setObjectName(QStringLiteral("networkPart"));
    networkPart_->addItem(tr("strong: f_n >= x <f_n>"), static_cast<int>(ForceNetworkPart::Strong));
    networkPart_->addItem(tr("weak: f_n < x <f_n>"), static_cast<int>(ForceNetworkPart::Weak));
    connect(networkPart_, &QComboBox::currentIndexChanged, this, &MainWindow::applyDisplayOptions);
    bar->addWidget(networkPart_);
    threshold_ = new QSlider(Qt::Horizontal, bar);
    threshold_->setObjectName(QStringLiteral("forceThreshold"));
    threshold_->setRange(0, kThresholdTicks);
    threshold_->setValue(10);
    threshold_->setFixedWidth(120);
    threshold_->setToolTip(tr("Threshold x of the force network, in units of the mean normal force"));
    connect(threshold_, &QSlider::valueChanged, this, &MainWindow::applyDisplayOptions);
    bar->addWidget(threshold_);
    thresholdLabel_ = new QLabel(bar);
    thresholdLabel_->setMinimumWidth(60);
    bar->addWidget(thresholdLabel_);
    bar->addSeparator();

    bar->addWidget(new QLabel(tr(" size "), bar));
    particleSize_ = new QSlider(Qt::Horizontal, bar);
    particleSize_->setObjectName(QStringLiteral("particleSize"));
    particleSize_->setRange(1, 100);  // view.grain_size in %: it takes (0, 1], 0 being automatic
    particleSize_->setValue(100);
    particleSize_->setFixedWidth(90);
    particleSize_->setToolTip(tr("Drawn radius / radius: smaller spheres show the chains inside 3D packings"));
    connect(particleSize_, &QSlider::valueChanged, this, &MainWindow::applyDisplayOptions);
    bar->addWidget(particleSize_);
    // Apart from the slider: it ran into the box's mark in presentation mode.
    periodicImages_ = new QCheckBox(tr("periodic images"), bar);
    periodicImages_->setContentsMargins(8, 0, 0, 0);
    periodicImages_->setObjectName(QStringLiteral("periodicImages"));
    periodicImages_->setToolTip(tr("The periodic cell's neighbouring images around it, dimmed: grains and force chains "
                                   "across the boundary read as one packing"));
    connect(periodicImages_, &QCheckBox::toggled, this, [this] {
        applyDisplayOptions();
        view_->resetCamera();
    });
    periodicImagesAction_ = bar->addWidget(periodicImages_);
    periodicImagesAction_->setObjectName(QStringLiteral("periodicImagesAction"));
    periodicImagesAction_->setVisible(false);
    applyDisplayOptions();
}

void MainWindow::buildStatusBar()
{
    timeLabel_ = statusLabel(this, tr("simulated time and steps"));
    timeLabel_->setObjectName(QStringLiteral("statusTime"));
    rateLabel_ = statusLabel(this, tr("steps per second of wall-clock time while playing"));
    rateLabel_->setObjectName(QStringLiteral("statusRate"));
    const SolverThreadsShare noSteps{solverThreadsSet(), 0, 0, 0};
    threadsLabel_ = statusLabel(this, solverThreadsTip(noSteps));
    threadsLabel_->setObjectName(QStringLiteral("solverThreadsLabel"));
    threadsLabel_->setText(solverThreadsText(noSteps));
    contactsLabel_ = statusLabel(
        this, tr("active contacts after the last step: between grains and with the walls, the piston and the drum (the "
                 "view's caption counts those between grains that carry a force, which its sticks show)"));
    contactsLabel_->setObjectName(QStringLiteral("statusContacts"));
    iterationsLabel_ = statusLabel(this, iterationsTip(false));
    iterationsLabel_->setObjectName(QStringLiteral("statusIterations"));
    residualLabel_ = statusLabel(this, residualTip(false));
    residualLabel_->setObjectName(QStringLiteral("residual"));
    overlapLabel_ = statusLabel(this, tr("mean overlap of the active contacts"));
    overlapLabel_->setObjectName(QStringLiteral("statusOverlap"));
    forceLabel_ = statusLabel(this, tr("force pushing the piston in the last step"));
    forceLabel_->setObjectName(QStringLiteral("statusForce"));
    fpsLabel_ = statusLabel(this, tr("frames drawn by the view per second"));
    fpsLabel_->setObjectName(QStringLiteral("statusFps"));
    // Cut to the room the readouts leave (the whole advice in its tooltip): whole, md_impact's dt advice filled the bar
    // and hid every readout.
    advisoryLabel_ = new ElidedLabel(this);
    advisoryLabel_->setContentsMargins(6, 0, 6, 0);
    advisoryLabel_->setObjectName(QStringLiteral("advisory"));
    setLabelColours(*advisoryLabel_, QColor(0xb3, 0x5c, 0x00));
    advisoryLabel_->hide();
    statusBar()->addWidget(advisoryLabel_, 1);
    connect(statusBar(), &QStatusBar::messageChanged, this, [this] { showAdvice(); });
    blowUpLabel_ = new BlowUpLabel(this);
    // Permanent, the first on the right: transient messages do not hide it.
    statusBar()->addPermanentWidget(blowUpLabel_);
    recordLabel_ = statusLabel(this, tr("recording: View > Record stops it (Ctrl+Shift+R)"));
    recordLabel_->setObjectName(QStringLiteral("recording"));
    recordLabel_->setContentsMargins(10, 0, 10, 0);
    setLabelColours(*recordLabel_, Qt::white, QColor(0xc6, 0x28, 0x28));
    recordLabel_->hide();
    statusBar()->addPermanentWidget(recordLabel_);
    // Permanent widgets sit on the right, so transient messages do not hide them.
    for (auto* label : {timeLabel_, rateLabel_, threadsLabel_, contactsLabel_, iterationsLabel_, residualLabel_,
                        overlapLabel_, forceLabel_, fpsLabel_}) {
        statusBar()->addPermanentWidget(label);
    }
    statusFields_ =
        new StatusFields(statusBar(), {timeLabel_, forceLabel_, contactsLabel_, residualLabel_, overlapLabel_,
                                       iterationsLabel_, rateLabel_, fpsLabel_, threadsLabel_});
    statusFields_->setWanted(forceLabel_, false);
}

void MainWindow::schedulePull()
{
    if (pullTimer_->isActive()) {
        return;  // the pull already scheduled takes the newest state
    }
    const double fastest = view_->softwareRendering() ? kMaximumSoftwareFrameRate : kMaximumFrameRate;
    const double interval = std::clamp(kFramePacing * frameCost_, 1000.0 / fastest, 1000.0 / kMinimumFrameRate);
    const double elapsed = sincePull_.isValid() ? static_cast<double>(sincePull_.elapsed()) : interval;
    pullTimer_->start(static_cast<int>(std::max(0.0, interval - elapsed)));
}

void MainWindow::pullUpdate(bool redrawPlots)
{
    pullTimer_->stop();
    sincePull_.start();
    SimulationUpdate update = controller_.takeUpdate();
    const bool newFrame = update.frame != nullptr;
    if (newFrame) {
        frameClock_.start();
    }
    if (update.run) {
        startRun(*update.run);
    }
    if (!update.rows.empty()) {
        plots_->appendRows(update.rows);
        compression_->appendRows(update.rows);
    }
    if (update.frame) {
        compression_->showFrame(update.frame);
        showFrame(std::move(update.frame));
    }
    if (update.status) {
        showStatus(*update.status);
    }
    if (redrawPlots) {
        plots_->refreshNow();
    }
    if (newFrame) {
        pullCost_ = 1e-6 * static_cast<double>(frameClock_.nsecsElapsed());
    }
}

void MainWindow::startRun(const RunInfo& run)
{
    settings_ = run.settings;
    origin_ = QString::fromStdString(run.origin);
    const QString name = QString::fromStdString(run.settings.name);
    setWindowTitle(tr("Granular Studio - %1").arg(name));
    parameters_->setScenario(run.scenario, run.settings, origin_, run.waiting, run.fromSavedState);
    const bool newLesson = lesson_->setLesson(run.scenario.lesson(), origin_);
    const bool hasLesson = !run.scenario.lesson().empty();
    sideTabs_->setTabVisible(sideTabs_->indexOf(lesson_), hasLesson);
    if (hasLesson && newLesson) {
        sideTabs_->setCurrentWidget(lesson_);
    }
    plots_->startRun(run);
    compression_->startRun(run);
    const bool compression = run.settings.setup == Setup::Compression;
    analysisTabs_->setTabVisible(1, compression);
    if (compression && !run.continued) {
        analysisTabs_->setCurrentWidget(compression_);
    }
    method_->setCurrentText(QString::fromStdString(std::string(choiceName(run.settings.solver.method))));
    const bool piston = run.settings.setup == Setup::Piston;
    loadStepAction_->setEnabled(piston);
    statusFields_->setWanted(forceLabel_, piston);
    // Ballistic flight detects and solves no contact: no contacts, iterations, residual or overlap to show (they read
    // 0 whatever the grains did).
    const bool solver = run.settings.solver.method != Method::Ballistic;
    for (QLabel* label : {contactsLabel_, iterationsLabel_, residualLabel_, overlapLabel_}) {
        statusFields_->setWanted(label, solver);
    }
    contactForces_ = solver;  // and no force chains to draw
    applyDisplayOptions();
    // Soft particles neither iterate nor converge: the fields show their MD steps and largest overlap (showStatus).
    const bool softParticles =
        run.settings.solver.method == Method::SoftParticle || run.settings.solver.method == Method::MultiContact;
    iterationsLabel_->setToolTip(iterationsTip(softParticles));
    residualLabel_->setToolTip(residualTip(softParticles));
    periodicImagesAction_->setVisible(run.settings.setup == Setup::Periodic);
    if (!run.continued && origin_ != viewOrigin_) {
        applyScenarioView(run.settings);
        viewOrigin_ = origin_;
    }
    if (!run.continued) {
        resetCameraOnNextFrame_ = true;
        statusFields_->forgetWidths();
        pickParticle(-1);
        blowUpLabel_->forget();
    }
}

void MainWindow::showFrame(std::shared_ptr<const Frame> frame)
{
    ++receivedFrames_;
    view_->showFrame(std::move(frame));
    if (resetCameraOnNextFrame_) {
        view_->frameNewScene();
        resetCameraOnNextFrame_ = false;
    }
    if (picked_ >= 0) {
        inspector_->inspect(view_->frame().get(), picked_, view_->meanNormalForce());
    }
}

void MainWindow::showStatus(const StepStatus& status)
{
    status_ = status;
    const auto& d = status.diagnostics;
    timeLabel_->setText(status.steps == 1 ? tr("t = %1 s (1 step)").arg(number(status.time, 6))
                                          : tr("t = %1 s (%2 steps)").arg(number(status.time, 6)).arg(status.steps));
    // Paused, the rate is that of the last stretch played, which its tooltip says (in the text, 'when played' widened
    // the field for the whole run: the bar keeps each field's widest text).
    rateLabel_->setText(tr("%1 steps/s").arg(number(status.stepsPerSecond, 3)));
    rateLabel_->setToolTip(status.running ? tr("steps per second of wall-clock time while playing")
                                          : tr("steps per second of wall-clock time while playing: paused, those of "
                                               "the last stretch played"));
    threadsLabel_->setText(solverThreadsText(status.threads));
    threadsLabel_->setToolTip(solverThreadsTip(status.threads));
    contactsLabel_->setText(d.contacts == 1 ? tr("1 contact") : tr("%1 contacts").arg(d.contacts));
    const bool contactDynamics = settings_ && (settings_->solver.method == Method::ContactDynamics ||
                                               settings_->solver.method == Method::ConstantPressure);
    // Soft particles have no iteration and no residual: their velocity-Verlet steps per solver step, and the largest
    // overlap, which says how soft the contacts are at this stiffness.
    const bool softParticles = settings_ && (settings_->solver.method == Method::SoftParticle ||
                                             settings_->solver.method == Method::MultiContact);
    if (d.iterations == 1) {
        iterationsLabel_->setText(softParticles ? tr("1 MD step") : tr("1 iteration"));
    } else {
        iterationsLabel_->setText(softParticles ? tr("%1 MD steps").arg(d.iterations)
                                                : tr("%1 iterations").arg(d.iterations));
    }
    if (softParticles) {
        residualLabel_->setText(tr("max overlap = %1 m").arg(number(d.maxOverlap, 3)));
    } else if (contactDynamics) {
        residualLabel_->setText(
            tr("|\u0394R|/|R| = %1 (eq. 35: %2)").arg(number(d.forceChange, 3), number(d.residual, 3)));
    } else {
        residualLabel_->setText(tr("residual %1").arg(number(d.residual, 3)));
    }
    overlapLabel_->setText(tr("<overlap> = %1 m").arg(number(d.meanOverlap, 3)));
    if (std::isfinite(status.appliedPistonForce)) {
        forceLabel_->setText(tr("F = %1 N").arg(number(status.appliedPistonForce, 6)));
    }
    QStringList advice;
    for (const auto& line : status.advisories) {
        advice << QString::fromStdString(line);
    }
    advisoryLabel_->setWholeText(advice.join(QStringLiteral("  ")));
    advisoryLabel_->setToolTip(advice.isEmpty() ? tr("the method's advice on the current settings")
                                                : advice.join(QLatin1Char('\n')));
    showAdvice();
    if (playAction_->isChecked() != status.running) {
        playAction_->setChecked(status.running);
        playAction_->setText(status.running ? tr("Pause") : tr("Play"));
    }
}

void MainWindow::applyDisplayOptions()
{
    SceneOptions options;
    options.colourField = static_cast<ColourField>(colourField_ != nullptr ? colourField_->currentData().toInt() : 0);
    options.showForceChains = chains_ == nullptr || chains_->isChecked();
    options.forceThreshold = threshold_ != nullptr ? kThresholdStep * threshold_->value() : 1.0;
    options.networkPart =
        static_cast<ForceNetworkPart>(networkPart_ != nullptr ? networkPart_->currentData().toInt() : 0);
    options.particleScale = particleSize_ != nullptr ? 0.01 * particleSize_->value() : 1.0;
    options.periodicImages = periodicImages_ != nullptr && periodicImages_->isChecked();
    options.textScale = presentation_ ? kPresentationFontScale : 1.0;
    options.lineScale = presentation_ ? kPresentationLineScale : 1.0;
    if (thresholdLabel_ != nullptr) {
        thresholdLabel_->setText(tr("x = %1").arg(options.forceThreshold, 0, 'f', 1));
    }
    if (networkPart_ != nullptr) {
        chains_->setEnabled(contactForces_);
        chains_->setToolTip(contactForces_ ? tr("Sticks from centre to centre, width and colour by f_n / <f_n>")
                                           : tr("Ballistic flight has no contact forces: no chains to draw"));
        networkPart_->setEnabled(contactForces_ && options.showForceChains);
        threshold_->setEnabled(contactForces_ && options.showForceChains);
    }
    view_->setOptions(options);
}

void MainWindow::setPresentation(bool on)
{
    presentation_ = on;
    QFont font;  // an empty font: the application's, as the window had it
    if (on) {
        font = QApplication::font(this);
        if (font.pointSizeF() > 0.0) {
            font.setPointSizeF(font.pointSizeF() * kPresentationFontScale);
        } else {
            font.setPixelSize(static_cast<int>(std::lround(font.pixelSize() * kPresentationFontScale)));
        }
    }
    setFont(font);
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("scenarioDock")); dock != nullptr) {
        resizeDocks({dock}, {on ? kPresentationScenarioDockWidth : kScenarioDockWidth}, Qt::Horizontal);
    }
    plots_->setScale(on ? kPresentationFontScale : 1.0, on ? kPresentationLineScale : 1.0);
    compression_->setScale(on ? kPresentationFontScale : 1.0, on ? kPresentationLineScale : 1.0);
    applyDisplayOptions();
    presentationAction_->setChecked(on);
}

void MainWindow::applyScenarioView(const Settings& settings)
{
    for (const char* key : {"view.colour", "view.grain_size", "view.periodic_images", "view.fit_zoom"}) {
        setViewControl(QString::fromLatin1(key), settings);
    }
    applyDisplayOptions();
    resetCameraOnNextFrame_ = true;
}

int MainWindow::grainSizePercent(const Settings& settings)
{
    // Automatic size: in 3D, grains at half their radius leave the force chains inside the packing in sight.
    const bool contacts = settings.solver.method != Method::Ballistic;
    const double grainSize = settings.view.grainSize > 0.0         ? settings.view.grainSize
                             : settings.dimension == 3 && contacts ? kChainViewGrainSize
                                                                   : 1.0;
    return std::max(1, static_cast<int>(std::lround(100.0 * grainSize)));
}

void MainWindow::setViewControl(const QString& key, const Settings& settings)
{
    const QSignalBlocker colour(colourField_);
    const QSignalBlocker size(particleSize_);
    const QSignalBlocker images(periodicImages_);
    if (key == QStringLiteral("view.colour")) {
        colourField_->setCurrentIndex(colourField_->findData(static_cast<int>(settings.view.colour)));
    } else if (key == QStringLiteral("view.grain_size")) {
        particleSize_->setValue(grainSizePercent(settings));
    } else if (key == QStringLiteral("view.periodic_images")) {
        periodicImages_->setChecked(settings.view.periodicImages);
    } else if (key == QStringLiteral("view.fit_zoom")) {
        plots_->setZoomToFitWindow(settings.view.fitZoom);
    }
}

void MainWindow::applyViewKey(const QString& key, const Settings& settings)
{
    setViewControl(key, settings);
    applyDisplayOptions();
}

void MainWindow::pickParticle(int index)
{
    picked_ = index;
    view_->setHighlighted(index);
    inspector_->inspect(view_->frame().get(), index, view_->meanNormalForce());
}

void MainWindow::parameterAccepted(const QString& key, const QString& value, bool live)
{
    parameters_->markAccepted(key, value, live);
    if (settings_ && live) {
        try {
            const std::string k = key.toStdString();
            assignSetting(*settings_, k, Schema::instance().parse(k, value.toStdString()));
        } catch (const std::exception&) {
            // The controller holds the value; the copy here only feeds the plots' theory and window.
        }
        plots_->setSettings(*settings_);
    }
    if (key == QStringLiteral("solver.method")) {
        // The method that runs: one that waits for the reset is marked in the panel (the toolbar's box kept the name
        // picked while the other method ran on).
        method_->setCurrentText(
            live || !settings_ ? value : QString::fromStdString(std::string(choiceName(settings_->solver.method))));
    }
    if (key.startsWith(QStringLiteral("view.")) && settings_) {
        applyViewKey(key, *settings_);  // that key only: the other display choices and the camera stay
    }
    // The value with its unit, as the panel's range shows it (none for pure numbers, integers and choices).
    const QString shown = withUnit(key, value);
    statusBar()->showMessage(live ? tr("%1 = %2").arg(key, shown) : tr("%1 = %2 (applies on reset)").arg(key, shown),
                             5000);
}

void MainWindow::applyLessonStep(const LessonStep& step)
{
    for (const auto& change : step.changes) {
        controller_.setParameter(QString::fromStdString(change.key), displayText(change.value));
    }
    switch (step.action) {
    case LessonAction::Play:
        controller_.play();
        break;
    case LessonAction::Pause:
        controller_.pause();
        break;
    case LessonAction::Reset:
        parameters_->commitTyped();
        controller_.reset();
        break;
    case LessonAction::LoadStep:
        controller_.applyLoadStep();
        break;
    case LessonAction::None:
        break;
    }
    statusBar()->showMessage(tr("Lesson: %1").arg(LessonPanel::suggestion(step)), 5000);
}

void MainWindow::showError(const QString& message)
{
    statusBar()->showMessage(message, 12000);
}

void MainWindow::showBlowUp(const QString& message)
{
    blowUpLabel_->showMessage(message);
    // A message of the run before the blow-up ("Preparing the run ...") no longer holds.
    statusBar()->clearMessage();
}

void MainWindow::showAdvice()
{
    advisoryLabel_->setVisible(!advisoryLabel_->wholeText().isEmpty() && statusBar()->currentMessage().isEmpty());
}

QString MainWindow::blowUpMessage() const
{
    return blowUpLabel_->message();
}

QString MainWindow::exportFrame(const QString& path)
{
    const auto& frame = view_->frame();
    if (!frame) {
        return tr("there is no frame to export yet");
    }
    try {
        vtkio::exportFrame(*frame, path.toStdString());
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

QImage MainWindow::windowImage()
{
    return windowImage(view_->grabView());
}

QImage MainWindow::windowImage(const QImage& view)
{
    // The view is a native window of its own: grab() leaves its area blank.
    QImage image = grab().toImage();
    if (!view.isNull() && viewContainer_->isVisible()) {
        QPainter painter(&image);
        painter.drawImage(QRect(viewContainer_->mapTo(this, QPoint(0, 0)), viewContainer_->size()), view);
    }
    return image;
}

QString MainWindow::saveViewImage(const QString& path)
{
    if (const QString error = savePngWhole(view_->grabView(), path); !error.isEmpty()) {
        return tr("the view's image: %1").arg(error);
    }
    return {};
}

QString MainWindow::startRecording(const QString& folder, bool wholeWindow)
{
    if (QString error = recorder_->start(folder); !error.isEmpty()) {
        return error;
    }
    recordWholeWindow_ = wholeWindow;
    view_->setCapturing(true);
    view_->update();
    showRecordingState();
    return {};
}

QString MainWindow::stopRecording()
{
    view_->setCapturing(false);
    QString summary = recorder_->stop();
    showRecordingState();
    if (!summary.isEmpty()) {
        statusBar()->showMessage(summary, 8000);
    }
    return summary;
}

void MainWindow::showRecordingState()
{
    const bool on = recorder_->isRecording();
    recordAction_->setChecked(on);
    recordLabel_->setVisible(on);
    if (on) {
        recordLabel_->setText(tr("REC %1 frames").arg(recorder_->recordedFrames()));
    }
}

void MainWindow::recordDialog(bool on)
{
    if (!on) {
        (void)stopRecording();
        return;
    }
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Record into an empty folder"),
                                                             QDir::home().filePath(QStringLiteral("recording")));
    if (folder.isEmpty()) {
        showRecordingState();
        return;
    }
    if (const QString error = startRecording(folder, recordWindowAction_->isChecked()); !error.isEmpty()) {
        showRecordingState();
        QMessageBox::warning(this, tr("Record"), error);
    }
}

void MainWindow::saveViewDialog()
{
    const QString suggestion = QDir::home().filePath(QStringLiteral("%1.png").arg(windowTitle().section(' ', -1)));
    const QString path = QFileDialog::getSaveFileName(this, tr("Save view"), suggestion, tr("PNG images (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    if (const QString error = saveViewImage(path); !error.isEmpty()) {
        QMessageBox::warning(this, tr("Save view"), error);
        return;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::saveWindowDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save window"), QDir::home().filePath(QStringLiteral("studio.png")), tr("PNG images (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    if (const QString error = savePngWhole(windowImage(), path); !error.isEmpty()) {
        QMessageBox::warning(this, tr("Save window"), error);
        return;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::exportCsvDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export plot data"), QDir::home().filePath(QStringLiteral("series.csv")), tr("CSV files (*.csv)"));
    if (path.isEmpty()) {
        return;
    }
    if (const QString error = plots_->writeCsv(path); !error.isEmpty()) {
        QMessageBox::warning(this, tr("Export plot data"), error);
        return;
    }
    statusBar()->showMessage(
        tr("Wrote %1 rows to %2").arg(plots_->series().time.size()).arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::openScenarioDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(),
                                                      tr("Scenario files (*.json);;All files (*)"));
    if (!path.isEmpty()) {
        controller_.loadScenario(path);
    }
}

void MainWindow::openPackingDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open packing"), QString(),
                                                      tr("Packings (*.data *.csv *.txt);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    bool chosen = false;
    const QStringList axes = {QStringLiteral("y"), QStringLiteral("z"), QStringLiteral("x")};
    const QString up = QInputDialog::getItem(this, tr("Open packing"),
                                             tr("The file's vertical axis (LAMMPS and LIGGGHTS files are often z up):"),
                                             axes, 0, false, &chosen);
    if (!chosen) {
        return;
    }
    controller_.openPacking(path, up);
}

void MainWindow::saveStateDialog()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save state"), QDir::home().filePath(QStringLiteral("state.granular")),
                                     tr("Granular states (*.granular *.bin);;All files (*)"));
    if (!path.isEmpty()) {
        controller_.saveState(path);
    }
}

void MainWindow::openStateDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open state"), QString(),
                                                      tr("Granular states (*.granular *.bin);;All files (*)"));
    if (!path.isEmpty()) {
        controller_.openState(path);
    }
}

void MainWindow::exportFrameDialog()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export frame"), QDir::home().filePath(QStringLiteral("frame.pvd")),
                                     tr("ParaView collections (*.pvd)"));
    if (path.isEmpty()) {
        return;
    }
    if (const QString error = exportFrame(path); !error.isEmpty()) {
        QMessageBox::warning(this, tr("Export frame"), error);
        return;
    }
    statusBar()->showMessage(tr("Wrote %1 and its three .vtp files").arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::addSolverThreadsMenu(QMenu& menu)
{
    auto* threads = menu.addMenu(tr("Solver &threads"));
    threads->setObjectName(QStringLiteral("solverThreadsMenu"));
    threads->setToolTipsVisible(true);
    auto* group = new QActionGroup(threads);
    const int cores = granular::parallelBuild() ? granular::availableCores() : 1;
    for (int n = 1; n <= std::max(cores, granular::solverThreads()); ++n) {
        auto* action = threads->addAction(n == 1 ? tr("1 thread") : tr("%1 threads").arg(n));
        action->setObjectName(QStringLiteral("solverThreads%1").arg(n));
        action->setCheckable(true);
        action->setChecked(n == granular::solverThreads());
        action->setToolTip(
            tr("Contact search and forces of md and mcdem, contact search and the coloured or strip sweep "
               "of cd (solver.sweep = coloured, strips) on %1 thread(s); the results do not depend on it")
                .arg(n));
        group->addAction(action);
        connect(action, &QAction::triggered, this, [n] { granular::setSolverThreads(n); });
    }
    threads->addSeparator();
    auto* adapt = threads->addAction(tr("&Adapt to busy cores"));
    adapt->setObjectName(QStringLiteral("adaptiveSolverThreads"));
    adapt->setCheckable(true);
    adapt->setChecked(granular::adaptiveSolverThreads());
    adapt->setToolTip(tr("Run a step on fewer threads (half, a quarter, ... one) where that is faster: while other "
                         "programs take the cores, the threads' team waits for its slowest thread at every barrier. "
                         "The steps are timed, and now and then one runs on another count to see whether that has "
                         "changed (the status bar says \"M of N threads\" while most run on M). The results are the "
                         "same either way. Off: every step on the threads set (granular run --fixed-threads)."));
    connect(adapt, &QAction::toggled, this, [](bool on) { granular::setAdaptiveSolverThreads(on); });
}

}  // namespace granular::ui
