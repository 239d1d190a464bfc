#include "MainWindow.h"

#include "SceneView.h"
#include "sim/Frame.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QImage>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>

namespace granular::ui {

MainWindow::MainWindow(const QString& scenarioName, QWidget* parent)
    : QMainWindow(parent), scenarioName_(scenarioName), view_(new SceneView(this)), particlesLabel_(new QLabel(this)),
      dimensionLabel_(new QLabel(this)), timeLabel_(new QLabel(this))
{
    setWindowTitle(tr("Granular Studio - %1").arg(scenarioName));
    setCentralWidget(view_);
    resize(1280, 800);

    auto* resetCamera = new QAction(tr("&Reset camera"), this);
    resetCamera->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    resetCamera->setToolTip(tr("Frame the container and all particles"));
    connect(resetCamera, &QAction::triggered, view_, &SceneView::resetCamera);

    auto* screenshot = new QAction(tr("Save &screenshot..."), this);
    screenshot->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    screenshot->setToolTip(tr("Save the view as a PNG image"));
    connect(screenshot, &QAction::triggered, this, &MainWindow::saveScreenshot);

    auto* quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(screenshot);
    file->addSeparator();
    file->addAction(quit);
    auto* view = menuBar()->addMenu(tr("&View"));
    view->addAction(resetCamera);

    auto* tools = addToolBar(tr("View"));
    tools->setObjectName(QStringLiteral("viewToolBar"));
    tools->setMovable(false);
    tools->addAction(resetCamera);
    tools->addAction(screenshot);

    // Permanent widgets sit on the right, so transient messages (e.g. "saved") do not hide them.
    for (auto* label : {new QLabel(scenarioName, this), particlesLabel_, dimensionLabel_, timeLabel_}) {
        label->setContentsMargins(8, 0, 8, 0);
        statusBar()->addPermanentWidget(label);
    }
}

void MainWindow::showFrame(std::shared_ptr<const Frame> frame)
{
    const auto count = static_cast<qlonglong>(frame->position.size());
    particlesLabel_->setText(count == 1 ? tr("1 particle") : tr("%1 particles").arg(count));
    dimensionLabel_->setText(tr("%1D").arg(frame->dimension));
    timeLabel_->setText(tr("t = %1 s").arg(frame->time, 0, 'g', 6));
    view_->showFrame(std::move(frame));
}

void MainWindow::saveScreenshot()
{
    const QString suggestion = QDir::home().filePath(QStringLiteral("%1.png").arg(scenarioName_));
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save screenshot"), suggestion, tr("PNG images (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    if (!view_->grabFramebuffer().save(path, "PNG")) {
        QMessageBox::warning(this, tr("Save screenshot"),
                             tr("Could not write %1.").arg(QDir::toNativeSeparators(path)));
        return;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
}

}  // namespace granular::ui
