#include "SceneView.h"

#include "FrameScene.h"
#include "sim/Frame.h"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkNew.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <array>
#include <utility>

namespace granular::ui {

/// The VTK side of the view. Its observers answer VTK's questions about Qt's context.
struct SceneView::Vtk {
    explicit Vtk(SceneView& owner) : view(owner) {}

    /// VTK asks whether Qt's context is current; `callData` is a bool* for the answer.
    void answerIsCurrent(vtkObject* /*window*/, unsigned long /*event*/, void* callData)
    {
        *static_cast<bool*>(callData) = view.context() != nullptr && QOpenGLContext::currentContext() == view.context();
    }

    /// Makes Qt's context current without touching its framebuffer binding: QOpenGLWindow::makeCurrent()
    /// may rebind the window's framebuffer behind VTK's cached GL state, and VTK would then attach
    /// its own textures to Qt's framebuffer (every frame comes out black).
    void makeContextCurrent(vtkObject* /*window*/, unsigned long /*event*/, void* /*callData*/)
    {
        auto* context = view.context();
        if (context != nullptr && QOpenGLContext::currentContext() != context) {
            context->makeCurrent(context->surface());
        }
    }

    /// The interactor has moved the camera: let Qt schedule a paint instead of rendering right away.
    void scheduleRender(vtkObject* /*interactor*/, unsigned long /*event*/, void* /*callData*/) { view.update(); }

    SceneView& view;
    FrameScene scene;
    vtkNew<vtkGenericOpenGLRenderWindow> window;
    vtkNew<vtkGenericRenderWindowInteractor> interactor;
    vtkNew<vtkInteractorStyleTrackballCamera> style;
    bool hasFrame = false;
};

namespace {

/// The VTK press/release events for a Qt button. 2D frames cannot be rotated, so there the left
/// button pans like the middle one.
struct ButtonEvents {
    unsigned long press = vtkCommand::NoEvent;
    unsigned long release = vtkCommand::NoEvent;
};

ButtonEvents buttonEvents(Qt::MouseButton button, int dimension)
{
    switch (button) {
    case Qt::LeftButton:
        if (dimension == 2) {
            return {vtkCommand::MiddleButtonPressEvent, vtkCommand::MiddleButtonReleaseEvent};
        }
        return {vtkCommand::LeftButtonPressEvent, vtkCommand::LeftButtonReleaseEvent};
    case Qt::MiddleButton:
        return {vtkCommand::MiddleButtonPressEvent, vtkCommand::MiddleButtonReleaseEvent};
    case Qt::RightButton:
        return {vtkCommand::RightButtonPressEvent, vtkCommand::RightButtonReleaseEvent};
    default:
        return {};
    }
}

/// GL_RENDERER of the current context, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
QString rendererName(QOpenGLContext& context)
{
    const auto* name = context.functions()->glGetString(GL_RENDERER);
    // GL hands out its strings as GLubyte*.
    return name == nullptr ? QString() : QString::fromLatin1(reinterpret_cast<const char*>(name));  // NOLINT
}

}  // namespace

SceneView::SceneView(QWindow* parent)
    : QOpenGLWindow(QOpenGLWindow::NoPartialUpdate, parent), vtk_(std::make_unique<Vtk>(*this))
{
    auto& v = *vtk_;
    // Nothing may render before Qt has created the context (initializeGL).
    v.window->SetReadyForRendering(false);
    v.window->SetOwnContext(0);
    // VTK keeps the finished image in its own framebuffer; paintGL() copies it into Qt's.
    v.window->SetFrameBlitModeToNoBlit();
    // Qt's core-profile contexts are forward compatible, where glLineWidth() above 1 fails:
    // make VTK draw wide lines itself.
    v.window->SetForceMaximumHardwareLineWidth(1.0F);
    v.window->AddRenderer(v.scene.renderer());
    v.window->AddObserver(vtkCommand::WindowIsCurrentEvent, &v, &Vtk::answerIsCurrent);
    v.window->AddObserver(vtkCommand::WindowMakeCurrentEvent, &v, &Vtk::makeContextCurrent);

    v.interactor->SetInteractorStyle(v.style);
    v.interactor->SetRenderWindow(v.window);
    v.interactor->EnableRenderOff();
    v.interactor->AddObserver(vtkCommand::RenderEvent, &v, &Vtk::scheduleRender);
    v.interactor->Initialize();

    setMinimumSize(QSize(160, 120));

    settle_.setSingleShot(true);
    settle_.setInterval(kSettleMilliseconds);
    connect(&settle_, &QTimer::timeout, this, [this] {
        moving_ = false;
        update();  // the full resolution again
    });
}

SceneView::~SceneView()
{
    // The context outlives this destructor (QOpenGLWindow's own destructor deletes it), but its
    // aboutToBeDestroyed signal must not reach a view whose VTK objects are gone.
    if (auto* c = context()) {
        disconnect(c, nullptr, this, nullptr);
    }
    releaseGraphics();
}

QSurfaceFormat SceneView::requiredFormat()
{
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 2);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    format.setRedBufferSize(8);
    format.setGreenBufferSize(8);
    format.setBlueBufferSize(8);
    format.setAlphaBufferSize(8);
    format.setDepthBufferSize(8);
    format.setStencilBufferSize(0);
    format.setSamples(0);
    return format;
}

void SceneView::showFrame(std::shared_ptr<const Frame> frame)
{
    auto& v = *vtk_;
    const bool newKind = !v.hasFrame || frame->dimension != v.scene.dimension();
    v.scene.show(std::move(frame));
    v.hasFrame = true;
    if (newKind) {
        frameNewScene();
    }
    update();
}

void SceneView::frameNewScene()
{
    vtk_->scene.restartForceBarRoom();
    resetCamera();
}

void SceneView::resetCamera()
{
    vtk_->scene.resetCamera();
    // Framed again as the next frame is drawn, at the size VTK's window has then: before the window is first
    // exposed VTK's has none, and the colour bars' room could not be measured.
    framed_ = true;
    fitPending_ = true;
    update();
}

void SceneView::setOptions(const SceneOptions& options)
{
    const SceneOptions& before = vtk_->scene.options();
    // The colour bars' room changes with the text's size and with the force bar shown or not.
    fitPending_ =
        fitPending_ ||
        (framed_ && (options.textScale != before.textScale || options.showForceChains != before.showForceChains));
    vtk_->scene.setOptions(options);
    update();
}

const SceneOptions& SceneView::options() const
{
    return vtk_->scene.options();
}

const std::shared_ptr<const Frame>& SceneView::frame() const
{
    return vtk_->scene.frame();
}

double SceneView::meanNormalForce() const
{
    return vtk_->scene.meanNormalForce();
}

long long SceneView::drawnSticks() const
{
    return vtk_->scene.drawnSticks();
}

QString SceneView::caption() const
{
    return vtk_->scene.caption();
}

OverlayPlaces SceneView::overlayPlaces()
{
    return vtk_->scene.overlayPlaces();
}

PixelBox SceneView::drawnExtent() const
{
    return vtk_->scene.drawnExtent();
}

void SceneView::setHighlighted(int index)
{
    vtk_->scene.setHighlighted(index);
    update();
}

int SceneView::particleAt(QPoint position) const
{
    // VTK counts device pixels from the bottom left.
    // VTK's window has 1/reduction_ of the device pixels while the camera moves.
    const qreal ratio = devicePixelRatio() / reduction_;
    return vtk_->scene.pick(position.x() * ratio, (height() - position.y()) * ratio);
}

void SceneView::orbit(double degrees)
{
    auto* camera = vtk_->scene.renderer()->GetActiveCamera();
    camera->Azimuth(degrees);
    vtk_->scene.renderer()->ResetCameraClippingRange();
    noteCameraMotion();
    update();
}

void SceneView::noteCameraMotion()
{
    // The user's camera from now on: a resize or a larger text no longer frames the scene again.
    framed_ = false;
    fitPending_ = false;
    moving_ = true;
    settle_.start();
}

void SceneView::initializeGL()
{
    auto& window = *vtk_->window;
    // A software rasteriser (Mesa's llvmpipe under Xvfb, remote sessions) pays for multisampling
    // in every pixel: VTK's default of 8 samples costs ~70 ms a frame at 1200 x 700 on two cores.
    const QString renderer = rendererName(*context());
    softwareRendering_ = renderer.contains(QStringLiteral("llvmpipe")) ||
                         renderer.contains(QStringLiteral("softpipe")) ||
                         renderer.contains(QStringLiteral("software"), Qt::CaseInsensitive);
    if (softwareRendering_) {
        window.SetMultiSamples(0);
        // Without multisampling VTK's render framebuffer holds the finished image: draw() copies it from there, and
        // VTK's own copy into its display framebuffer (colour and depth, a pass over every pixel) is skipped.
        window.SetSwapBuffers(0);
        vtk_->scene.setPlainBackground(true);
    }
    window.SetReadyForRendering(true);
    window.OpenGLInitContext();
    // A new platform window replaces the context: VTK must drop what it built in the old one.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &SceneView::releaseGraphics, Qt::DirectConnection);
}

void SceneView::resizeGL(int width, int height)
{
    // VTK works in device pixels, Qt's window geometry in device-independent ones.
    const qreal ratio = devicePixelRatio();
    deviceSize_ = QSize(qRound(width * ratio), qRound(height * ratio));
    fitPending_ = fitPending_ || framed_;
    const int reduction = std::exchange(reduction_, 0);
    applyReduction(std::max(1, reduction));
}

void SceneView::applyReduction(int reduction)
{
    if (reduction == reduction_) {
        return;
    }
    const int w = std::max(1, deviceSize_.width() / reduction);
    const int h = std::max(1, deviceSize_.height() / reduction);
    // The interactor counts in VTK's pixels too: a drag keeps its place when the divisor changes.
    auto& interactor = *vtk_->interactor;
    if (reduction_ > 0) {
        const double scale = static_cast<double>(reduction_) / reduction;
        const int* now = interactor.GetEventPosition();
        const int* last = interactor.GetLastEventPosition();
        const std::array<int, 4> positions{qRound(now[0] * scale), qRound(now[1] * scale), qRound(last[0] * scale),
                                           qRound(last[1] * scale)};
        interactor.SetEventPosition(positions[0], positions[1]);
        interactor.SetLastEventPosition(positions[2], positions[3]);
    }
    vtk_->window->SetSize(w, h);
    interactor.SetSize(w, h);
    // Text keeps its size on the screen: VTK sizes it in points at the window's DPI.
    vtk_->window->SetDPI(kVtkDefaultDpi / reduction);
    reduction_ = reduction;
}

void SceneView::paintGL()
{
    drawStarted_.start();
    // A recording keeps every frame at full resolution and detail.
    vtk_->scene.setReducedDetail(moving_ && !capturing_);
    draw(capturing_ ? 1 : motion_.factor(moving_));
    ++renderedFrames_;
    if (capturing_) {
        emit frameCaptured(grabFramebuffer());  // the back buffer, before Qt swaps it
    }
}

QImage SceneView::grabView()
{
    if (!isValid() || !vtk_->window->GetReadyForRendering()) {
        return {};
    }
    // After a swap the back buffer is undefined: draw into it again and read it back unswapped.
    makeCurrent();
    vtk_->scene.setReducedDetail(false);
    draw(1);
    return grabFramebuffer();
}

void SceneView::draw(int reduction)
{
    applyReduction(reduction);
    // A caption that took another line (a field moved down as a number grew), or the force bar's first showing,
    // changed the room the scene is framed in.
    fitPending_ = fitPending_ || (framed_ && vtk_->scene.overlayArrangement() != overlaysAtFit_);
    if (fitPending_) {
        vtk_->scene.resetCamera();
        overlaysAtFit_ = vtk_->scene.overlayArrangement();
        fitPending_ = false;
    }
    QElapsedTimer clock;
    clock.start();
    auto& window = *vtk_->window;
    window.Render();
    // The finished image: in VTK's display framebuffer after its Frame() (multisampling resolved there), or where it
    // rendered while SwapBuffers is off.
    auto* image = window.GetSwapBuffers() != 0 ? window.GetDisplayFramebuffer() : window.GetRenderFramebuffer();
    auto* state = window.GetState();
    state->PushFramebufferBindings();
    image->Bind(GL_READ_FRAMEBUFFER);
    image->ActivateReadBuffer(0);
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    const int* size = window.GetSize();
    state->vtkglBlitFramebuffer(0, 0, size[0], size[1], 0, 0, deviceSize_.width(), deviceSize_.height(),
                                GL_COLOR_BUFFER_BIT, reduction == 1 ? GL_NEAREST : GL_LINEAR);
    state->PopFramebufferBindings();
    // The cost includes the rasteriser's work, which a software renderer does when the image is read.
    context()->functions()->glFinish();
    motion_.record(moving_, reduction, 1e-6 * static_cast<double>(clock.nsecsElapsed()));
}

void SceneView::releaseGraphics()
{
    if (!vtk_->window->GetReadyForRendering()) {
        return;
    }
    makeCurrent();
    vtk_->window->Finalize();
    vtk_->window->SetReadyForRendering(false);
    doneCurrent();
}

namespace {

/// Hands the pointer position (device pixels, y up as VTK counts) and modifiers to the interactor.
void setEventInformation(vtkRenderWindowInteractor& interactor, const QWindow& window, int reduction, QPointF position,
                         Qt::KeyboardModifiers modifiers)
{
    const QPointF p = position * window.devicePixelRatio() / reduction;
    interactor.SetEventInformationFlipY(qRound(p.x()), qRound(p.y()), modifiers.testFlag(Qt::ControlModifier) ? 1 : 0,
                                        modifiers.testFlag(Qt::ShiftModifier) ? 1 : 0);
    interactor.SetAltKey(modifiers.testFlag(Qt::AltModifier) ? 1 : 0);
}

}  // namespace

void SceneView::mousePressEvent(QMouseEvent* event)
{
    pressPosition_ = event->position().toPoint();
    const auto events = buttonEvents(event->button(), vtk_->scene.dimension());
    if (events.press == vtkCommand::NoEvent) {
        QOpenGLWindow::mousePressEvent(event);
        return;
    }
    setEventInformation(*vtk_->interactor, *this, reduction_, event->position(), event->modifiers());
    vtk_->interactor->InvokeEvent(events.press);
    event->accept();
}

void SceneView::mouseReleaseEvent(QMouseEvent* event)
{
    const auto events = buttonEvents(event->button(), vtk_->scene.dimension());
    if (events.release == vtkCommand::NoEvent) {
        QOpenGLWindow::mouseReleaseEvent(event);
        return;
    }
    setEventInformation(*vtk_->interactor, *this, reduction_, event->position(), event->modifiers());
    vtk_->interactor->InvokeEvent(events.release);
    event->accept();
    constexpr int clickTolerance = 3;  // logical pixels a click may wander and still pick
    if (event->button() == Qt::LeftButton &&
        (event->position().toPoint() - pressPosition_).manhattanLength() <= clickTolerance) {
        emit particlePicked(particleAt(event->position().toPoint()));
    }
}

void SceneView::mouseMoveEvent(QMouseEvent* event)
{
    // Without mouse tracking Qt reports moves only while a button is down: no renders on hover.
    if (event->buttons() != Qt::NoButton) {
        noteCameraMotion();  // a drag turns, pans or zooms
    }
    setEventInformation(*vtk_->interactor, *this, reduction_, event->position(), event->modifiers());
    vtk_->interactor->InvokeEvent(vtkCommand::MouseMoveEvent);
    event->accept();
}

void SceneView::wheelEvent(QWheelEvent* event)
{
    const int steps = event->angleDelta().y();
    if (steps == 0) {
        QOpenGLWindow::wheelEvent(event);
        return;
    }
    noteCameraMotion();
    setEventInformation(*vtk_->interactor, *this, reduction_, event->position(), event->modifiers());
    vtk_->interactor->InvokeEvent(steps > 0 ? vtkCommand::MouseWheelForwardEvent : vtkCommand::MouseWheelBackwardEvent);
    event->accept();
}

}  // namespace granular::ui
