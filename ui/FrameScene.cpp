#include "FrameScene.h"

#include "BoundaryGeometry.h"
#include "ColourMaps.h"
#include "OverlayImage.h"
#include "OverlayPictures.h"
#include "ViewFraming.h"
#include "sim/Frame.h"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkFloatArray.h>
#include <vtkNew.h>
#include <vtkOpenGLSphereMapper.h>
#include <vtkOpenGLStickMapper.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace granular::ui {

namespace {

using Vec3 = Eigen::Vector3d;

constexpr Rgb backgroundBottom{0.09, 0.10, 0.13};
constexpr Rgb backgroundTop{0.22, 0.25, 0.31};
constexpr Rgb wallColour{0.66, 0.75, 0.90};
constexpr Rgb pistonColour{0.80, 0.86, 0.96};
constexpr Rgb outlineColour{0.55, 0.60, 0.70};
constexpr Rgb cellColour{0.55, 0.85, 0.78};
constexpr Rgb highlightColour{1.0, 1.0, 1.0};
/// An image of the periodic cell's content keeps this share of its colour, the rest being the background's.
constexpr double kImageColourShare = 0.5;

/// Camera offset from the focal point in 3D: in front of the box (+z), to the right (+x) and
/// above (+y, which is up), so floor, side walls and the heap's surface are all in sight.
const Vec3 obliqueViewDirection(0.55, 0.50, 1.0);

/// Stick radius / mean particle radius at f_n = <f_n>, and its bounds: thick enough to read at a
/// glance, thin enough that neighbouring chains stay apart.
constexpr double stickRadiusAtMean = 0.22;
/// Sticks of contacts that only the grains' bulges close (mcdem), whatever their force.
constexpr std::array<unsigned char, 3> kDeformationContactColour = {220, 40, 200};
constexpr double thinnestStick = 0.06;
constexpr double thickestStick = 0.65;
/// While the camera moves, at most this many sticks are drawn: the strongest. On a software renderer a stick
/// imposter costs about what a sphere's does, whatever its size on the screen: 20,000 spheres turning at 1/4 of
/// the resolution drew 14 frames/s with their ~20,000 chain sticks, 19-22 with the ~7,000 above 2 <f_n>, 22 with
/// the ~2,600 above 3 <f_n> (2026-11-27, this project's 2-core machine, bench_studio).
constexpr vtkIdType kMostSticksWhileMoving = 6000;
/// Colour span of the strong network above the threshold, in units of <f_n>.
constexpr double strongColourSpan = 3.0;

std::array<unsigned char, 3> bytes(const Rgb& c)
{
    const auto byte = [](double x) { return static_cast<unsigned char>(std::lround(255.0 * std::clamp(x, 0.0, 1.0))); };
    return {byte(c[0]), byte(c[1]), byte(c[2])};
}

/// The container together with every particle (particles may leave an open box).
Eigen::AlignedBox3d sceneExtent(const Frame& frame)
{
    Eigen::AlignedBox3d extent = frame.bounds;
    if (frame.hasDrum) {
        const Vec3 reach(frame.drumRadius, frame.drumRadius, 0.0);
        extent.extend(Vec3(frame.drumCentre - reach));
        extent.extend(Vec3(frame.drumCentre + reach));
    }
    for (std::size_t i = 0; i < frame.position.size(); ++i) {
        const Vec3 centre = frame.position[i].cast<double>();
        const Vec3 reach = Vec3::Constant(static_cast<double>(frame.radius[i]));
        extent.extend(centre - reach);
        extent.extend(centre + reach);
    }
    return extent;
}

/// The offsets H a of the periodic cell's neighbouring images, a in {-1, 0, 1}^D without a = 0, with a.
std::vector<std::pair<Eigen::Vector3f, Eigen::Vector3i>> imageShifts(const PeriodicCell& cell)
{
    std::vector<std::pair<Eigen::Vector3f, Eigen::Vector3i>> shifts;
    const int zRange = cell.dimension == 3 ? 1 : 0;
    for (int a = -1; a <= 1; ++a) {
        for (int b = -1; b <= 1; ++b) {
            for (int c = -zRange; c <= zRange; ++c) {
                if (a == 0 && b == 0 && c == 0) {
                    continue;
                }
                const Eigen::Vector3i n(a, b, c);
                shifts.emplace_back((cell.edges * n.cast<double>()).cast<float>(), n);
            }
        }
    }
    return shifts;
}

/// Whether the image of a point at reduced coordinates s, shifted by n cells, lies within the band drawn.
bool inImageBand(const Eigen::Vector3d& s, const Eigen::Vector3i& n, int dimension)
{
    for (int d = 0; d < dimension; ++d) {
        const double x = s[d] + n[d];
        if (x < -kPeriodicImageBand || x > 1.0 + kPeriodicImageBand) {
            return false;
        }
    }
    return true;
}

/// Where a periodic frame's points are drawn again: for each image, the point's index and its offset.
template <class Position>
std::vector<std::pair<std::size_t, Eigen::Vector3f>> periodicImages(const Frame& frame, std::size_t count,
                                                                    const Position& position)
{
    std::vector<std::pair<std::size_t, Eigen::Vector3f>> images;
    const auto shifts = imageShifts(frame.cell);
    for (std::size_t k = 0; k < count; ++k) {
        const Eigen::Vector3d s = frame.cell.inverseEdges * position(k).template cast<double>();
        for (const auto& [offset, n] : shifts) {
            if (inImageBand(s, n, frame.dimension)) {
                images.emplace_back(k, offset);
            }
        }
    }
    return images;
}

std::array<unsigned char, 3> dimmed(const std::array<unsigned char, 3>& c)
{
    std::array<unsigned char, 3> out{};
    const std::array<double, 3> background{backgroundBottom[0], backgroundBottom[1], backgroundBottom[2]};
    for (std::size_t k = 0; k < 3; ++k) {
        out[k] = static_cast<unsigned char>(
            std::lround(kImageColourShare * c[k] + (1.0 - kImageColourShare) * 255.0 * background[k]));
    }
    return out;
}

/// The colour bars' places and heights in the view (fractions of its width and height): the particles' at the right
/// edge, the forces' at the left; both from 10 % of the height up; a ramp 0.3 of a bar's width, which is at most
/// 11 % of the view's width and kBarPixels at text scale 1.
constexpr double kBarBottom = 0.10;
constexpr double kParticleBarRight = 0.99;
constexpr double kParticleBarHeight = 0.78;
constexpr double kForceBarLeft = 0.04;
constexpr double kForceBarHeight = 0.72;
constexpr double kBarWidth = 0.11;
constexpr double kRampShare = 0.3;
/// The caption's top-left corner, fractions of the view's width and height from its bottom left.
constexpr double kCaptionLeft = 0.01;
constexpr double kCaptionTop = 0.985;
/// The room a reset camera leaves between the scene and the bars or the caption, points.
constexpr double kFramingGapPoints = 6.0;
/// The least part of the view's width (height) that the overlays must leave for the scene to be framed beside them; in
/// a smaller view the scene is framed in the whole view and the bars stand over it.
constexpr double kLeastFreeShare = 0.4;

/// What a colour bar shows, for a redraw only when it changes.
struct BarContent {
    double low = 0.0;
    double high = 1.0;
    bool wholeNumbers = false;
    QString title;
    bool visible = false;
    friend bool operator==(const BarContent&, const BarContent&) = default;
};

/// A colour bar drawn by OverlayImage, and what its picture was drawn from.
struct ColourBar {
    std::span<const Rgb> stops;
    bool labelsLeft = false;
    BarContent content;
    BarContent drawnContent;
    ColourBarLook drawnLook;  ///< height, ramp and text size of `picture`
    QImage picture;           ///< drawn from drawnContent and drawnLook (shown by `overlay` once the render starts)
    ColourBarLayout layout;   ///< where `picture` has its title and its ramp's column
    OverlayImage overlay;
};

/// The picture of a colour bar in a view of width x height pixels at this text size, or a null image where the bar is
/// hidden (unless `evenHidden`: its picture as it would be shown): drawn again only where what it shows or its size
/// changed since its last picture.
QImage barPicture(ColourBar& bar, double heightShare, int width, int height, double pixelsPerPoint,
                  bool evenHidden = false)
{
    if ((!bar.content.visible && !evenHidden) || width < 2 || height < 2) {
        return {};
    }
    ColourBarLook look;
    look.stops = bar.stops;
    look.low = bar.content.low;
    look.high = bar.content.high;
    look.wholeNumbers = bar.content.wholeNumbers;
    look.title = bar.content.title;
    look.labelsLeft = bar.labelsLeft;
    look.height = static_cast<int>(std::lround(heightShare * height));
    const double barWidth = std::min(kBarWidth * width, kBarPixels * pixelsPerPoint);
    look.rampWidth = static_cast<int>(std::lround(kRampShare * barWidth));
    look.pixelsPerPoint = pixelsPerPoint;
    const bool sameLook = look.height == bar.drawnLook.height && look.rampWidth == bar.drawnLook.rampWidth &&
                          look.pixelsPerPoint == bar.drawnLook.pixelsPerPoint;
    if (bar.picture.isNull() || !sameLook || bar.content != bar.drawnContent) {
        bar.picture = colourBarImage(look);
        bar.layout = colourBarLayout(look);
        bar.drawnContent = bar.content;
        bar.drawnLook = look;
    }
    return bar.picture;
}

/// The left edge of a bar's picture in a view `width` pixels wide: the particle bar's right edge at
/// kParticleBarRight, the force bar's left edge at kForceBarLeft.
int barLeft(const ColourBar& bar, const QImage& picture, int width)
{
    return bar.labelsLeft ? static_cast<int>(std::lround(kParticleBarRight * width)) - picture.width()
                          : static_cast<int>(std::lround(kForceBarLeft * width));
}

/// Points with one poly-vertex over all of them: the imposter mappers draw points only, but
/// VTK 9.1's polydata mapper skips inputs without cells.
void setVertices(vtkCellArray& vertices, vtkIdType count)
{
    if (vertices.GetNumberOfConnectivityIds() == count && vertices.GetNumberOfCells() == (count > 0 ? 1 : 0)) {
        return;
    }
    vertices.Reset();
    if (count == 0) {
        return;
    }
    vertices.InsertNextCell(static_cast<int>(count));
    for (vtkIdType i = 0; i < count; ++i) {
        vertices.InsertCellPoint(i);
    }
}

/// Contacts drawn as VTK stick imposters: per stick a centre, a direction, a size and a colour, and the
/// mapper and actor that draw them. (The methods are const as the VTK objects are held by pointer.)
struct StickImposters {
    vtkNew<vtkPoints> centres;         ///< m, midpoints of the contacts
    vtkNew<vtkFloatArray> directions;  ///< unit vectors from first to second particle
    vtkNew<vtkFloatArray> sizes;       ///< m: length, radius, unused
    vtkNew<vtkUnsignedCharArray> colours;
    vtkNew<vtkCellArray> vertices;
    vtkNew<vtkPolyData> sticks;
    vtkNew<vtkOpenGLStickMapper> mapper;
    vtkNew<vtkActor> actor;

    StickImposters()
    {
        centres->SetDataTypeToFloat();
        directions->SetName("direction");
        directions->SetNumberOfComponents(3);
        sizes->SetName("size");
        sizes->SetNumberOfComponents(3);
        colours->SetName("colour");
        colours->SetNumberOfComponents(3);
        sticks->SetPoints(centres);
        sticks->SetVerts(vertices);
        sticks->GetPointData()->AddArray(directions);
        sticks->GetPointData()->AddArray(sizes);
        sticks->GetPointData()->SetScalars(colours);
        mapper->SetInputData(sticks);
        mapper->SetOrientationArray("direction");
        mapper->SetScaleArray("size");
        mapper->SetColorModeToDirectScalars();
        mapper->ScalarVisibilityOn();
        actor->SetMapper(mapper);
        actor->GetProperty()->SetAmbient(0.35);
        actor->GetProperty()->SetDiffuse(0.75);
    }

    [[nodiscard]] vtkIdType count() const { return centres->GetNumberOfPoints(); }

    /// Room for `n` sticks, each to be set.
    void resize(vtkIdType n) const
    {
        centres->SetNumberOfPoints(n);
        directions->SetNumberOfTuples(n);
        sizes->SetNumberOfTuples(n);
        colours->SetNumberOfTuples(n);
        setVertices(*vertices.Get(), n);
    }

    /// Stick `i` becomes stick `k` of `from`.
    void copy(vtkIdType i, const StickImposters& from, vtkIdType k) const
    {
        centres->SetPoint(i, from.centres->GetPoint(k));
        directions->SetTuple(i, k, from.directions);
        sizes->SetTuple(i, k, from.sizes);
        colours->SetTuple(i, k, from.colours);
    }

    /// The sticks were set: the mapper uploads them at the next render.
    void modified() const
    {
        centres->Modified();
        directions->Modified();
        sizes->Modified();
        colours->Modified();
        sticks->Modified();
    }
};

}  // namespace

struct FrameScene::Props {
    vtkNew<vtkRenderer> renderer;

    vtkNew<vtkPoints> centres;             ///< m
    vtkNew<vtkFloatArray> radii;           ///< m, drawn radius of each imposter
    vtkNew<vtkUnsignedCharArray> colours;  ///< RGB of each particle
    vtkNew<vtkCellArray> vertices;
    vtkNew<vtkPolyData> particles;
    vtkNew<vtkOpenGLSphereMapper> particleMapper;
    vtkNew<vtkActor> particleActor;
    ColourBar particleBar;

    StickImposters sticks;
    std::vector<float> stickForces;  ///< f_n / <f_n> of each of the sticks
    StickImposters strongest;        ///< while the camera moves: the kMostSticksWhileMoving strongest sticks
    bool strongestStale = true;      ///< the strongest sticks are not those of the current sticks
    bool reducedDetail = false;      ///< the camera moves: draw the strongest sticks only
    std::string fullCaption;         ///< the caption with every stick drawn
    ColourBar forceBar;
    bool forceBarRoom = false;  ///< the framing keeps the force bar's room (shown since restartForceBarRoom())

    vtkNew<vtkPolyDataMapper> wallMapper;
    vtkNew<vtkActor> wallActor;
    vtkNew<vtkPolyDataMapper> pistonMapper;
    vtkNew<vtkActor> pistonActor;
    vtkNew<vtkPolyDataMapper> containerMapper;
    vtkNew<vtkActor> containerActor;
    vtkNew<vtkPolyDataMapper> highlightMapper;
    vtkNew<vtkActor> highlightActor;
    QString captionText;  ///< the caption as shown now (with the moving camera's note)
    OverlayImage caption;
    QImage drawnCaptionImage;        ///< the caption's picture
    QString drawnCaption;            ///< drawn from this text
    int drawnCaptionPixels = 0;      ///< at this text size
    int drawnCaptionWidth = 0;       ///< broken into lines at most this wide (px)
    QList<qsizetype> captionFields;  ///< into lines of these many fields
    unsigned long overlayObserver = 0;

    std::shared_ptr<const Frame> frame;
    SceneOptions options;
    double meanForce = 0.0;  ///< N
    int highlighted = -1;
    Eigen::AlignedBox3d extent;  ///< m, container and particles of the last frame
    int dimension = 3;
};

FrameScene::FrameScene() : props_(std::make_unique<Props>())
{
    auto& p = *props_;
    setPlainBackground(false);

    p.centres->SetDataTypeToFloat();
    p.radii->SetName("radius");
    p.colours->SetName("colour");
    p.colours->SetNumberOfComponents(3);
    p.particles->SetPoints(p.centres);
    p.particles->SetVerts(p.vertices);
    p.particles->GetPointData()->AddArray(p.radii);
    p.particles->GetPointData()->SetScalars(p.colours);
    p.particleMapper->SetInputData(p.particles);
    p.particleMapper->SetScaleArray("radius");
    p.particleMapper->SetColorModeToDirectScalars();
    p.particleMapper->ScalarVisibilityOn();
    p.particleActor->SetMapper(p.particleMapper);
    auto* surface = p.particleActor->GetProperty();
    surface->SetAmbient(0.15);
    surface->SetDiffuse(0.85);
    surface->SetSpecular(0.35);
    surface->SetSpecularPower(40.0);

    p.strongest.actor->VisibilityOff();

    p.particleBar.stops = kParticleColours;
    p.particleBar.labelsLeft = true;
    p.forceBar.stops = kForceColours;
    p.forceBar.content.title = QStringLiteral("f_n / <f_n>");

    p.wallActor->SetMapper(p.wallMapper);
    p.wallActor->GetProperty()->SetColor(wallColour[0], wallColour[1], wallColour[2]);
    p.wallActor->GetProperty()->LightingOff();
    p.pistonActor->SetMapper(p.pistonMapper);
    p.pistonActor->GetProperty()->SetColor(pistonColour[0], pistonColour[1], pistonColour[2]);
    p.pistonActor->GetProperty()->LightingOff();
    p.containerActor->SetMapper(p.containerMapper);
    p.containerActor->GetProperty()->LightingOff();
    p.highlightActor->SetMapper(p.highlightMapper);
    p.highlightActor->GetProperty()->SetColor(highlightColour[0], highlightColour[1], highlightColour[2]);
    p.highlightActor->GetProperty()->SetLineWidth(2.5F);
    p.highlightActor->GetProperty()->LightingOff();
    p.highlightActor->VisibilityOff();

    p.renderer->AddActor(p.containerActor);
    p.renderer->AddActor(p.wallActor);
    p.renderer->AddActor(p.pistonActor);
    p.renderer->AddActor(p.particleActor);
    p.renderer->AddActor(p.sticks.actor);
    p.renderer->AddActor(p.strongest.actor);
    p.renderer->AddActor(p.highlightActor);
    p.renderer->AddViewProp(p.particleBar.overlay.prop());
    p.renderer->AddViewProp(p.forceBar.overlay.prop());
    p.renderer->AddViewProp(p.caption.prop());
    // The pictures over the scene are laid out for the viewport's size as each render starts.
    p.overlayObserver = p.renderer->AddObserver(vtkCommand::StartEvent, this, &FrameScene::placeOverlays);
}

FrameScene::~FrameScene()
{
    // The render window may hold the renderer longer than this scene lives.
    props_->renderer->RemoveObserver(props_->overlayObserver);
}

vtkRenderer* FrameScene::renderer() const
{
    return props_->renderer;
}

int FrameScene::dimension() const
{
    return props_->dimension;
}

const std::shared_ptr<const Frame>& FrameScene::frame() const
{
    return props_->frame;
}

double FrameScene::meanNormalForce() const
{
    return props_->meanForce;
}

const SceneOptions& FrameScene::options() const
{
    return props_->options;
}

void FrameScene::show(std::shared_ptr<const Frame> frame)
{
    auto& p = *props_;
    p.frame = std::move(frame);
    p.dimension = p.frame->dimension;

    p.wallMapper->SetInputData(vtkio::wallGeometry(*p.frame, false));
    p.pistonMapper->SetInputData(vtkio::wallGeometry(*p.frame, true));
    p.containerMapper->SetInputData(vtkio::containerGeometry(*p.frame));
    const Rgb& container = p.frame->periodic ? cellColour : outlineColour;
    p.containerActor->GetProperty()->SetColor(container[0], container[1], container[2]);
    const auto width = [&p](double pixels) { return static_cast<float>(pixels * p.options.lineScale); };
    p.containerActor->GetProperty()->SetLineWidth(width(p.frame->periodic || p.frame->hasDrum ? 2.0 : 1.0));
    if (p.dimension == 2) {
        // Seen edge-on, 2D walls are lines: drawn opaque and thicker than the outline.
        p.wallActor->GetProperty()->SetRepresentationToSurface();
        p.wallActor->GetProperty()->SetOpacity(1.0);
        p.wallActor->GetProperty()->SetLineWidth(width(3.0));
        p.pistonActor->GetProperty()->SetRepresentationToSurface();
        p.pistonActor->GetProperty()->SetOpacity(1.0);
        p.pistonActor->GetProperty()->SetLineWidth(width(6.0));
    } else {
        // Walls and piston as opaque outlines of their faces: translucent faces would make VTK
        // add its order-independent transparency passes over the whole view to every frame,
        // which a software rasteriser pays for in every pixel.
        p.wallActor->GetProperty()->SetRepresentationToWireframe();
        p.wallActor->GetProperty()->SetOpacity(1.0);
        p.wallActor->GetProperty()->SetLineWidth(width(1.5));
        p.pistonActor->GetProperty()->SetRepresentationToWireframe();
        p.pistonActor->GetProperty()->SetOpacity(1.0);
        p.pistonActor->GetProperty()->SetLineWidth(width(4.0));
    }
    redraw();
}

void FrameScene::setOptions(const SceneOptions& options)
{
    auto& p = *props_;
    const bool rescaled = options.textScale != p.options.textScale || options.lineScale != p.options.lineScale;
    p.options = options;
    if (rescaled) {
        p.highlightActor->GetProperty()->SetLineWidth(static_cast<float>(2.5 * options.lineScale));
        if (p.frame) {
            show(p.frame);  // the outlines' widths
            return;
        }
    }
    if (props_->frame) {
        redraw();
    }
}

void FrameScene::redraw()
{
    auto& p = *props_;
    const Frame& frame = *p.frame;
    const SceneOptions& o = p.options;
    const double scale = std::clamp(o.particleScale, 0.05, 1.0);

    const auto count = static_cast<vtkIdType>(frame.position.size());
    const bool images = frame.periodic && o.periodicImages;
    p.extent = sceneExtent(frame);
    if (images) {
        const Vec3 band = kPeriodicImageBand * frame.bounds.sizes();
        p.extent.extend(Vec3(frame.bounds.min() - band));
        p.extent.extend(Vec3(frame.bounds.max() + band));
    }
    const auto particleImages =
        images ? periodicImages(frame, frame.position.size(), [&frame](std::size_t k) { return frame.position[k]; })
               : std::vector<std::pair<std::size_t, Eigen::Vector3f>>{};
    const auto drawn = count + static_cast<vtkIdType>(particleImages.size());
    const FieldValues field = particleField(frame, o.colourField);
    p.centres->SetNumberOfPoints(drawn);
    p.radii->SetNumberOfValues(drawn);
    p.colours->SetNumberOfTuples(drawn);
    double radiusSum = 0.0;
    double largestRadius = 0.0;
    const auto colourOf = [&](std::size_t k) {
        return bytes(
            colourAt(kParticleColours, (static_cast<double>(field.values[k]) - field.low) / (field.high - field.low)));
    };
    for (vtkIdType i = 0; i < count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        p.centres->SetPoint(i, frame.position[k].data());
        p.radii->SetValue(i, static_cast<float>(scale * static_cast<double>(frame.radius[k])));
        radiusSum += static_cast<double>(frame.radius[k]);
        largestRadius = std::max(largestRadius, static_cast<double>(frame.radius[k]));
        p.colours->SetTypedTuple(i, colourOf(k).data());
    }
    for (std::size_t m = 0; m < particleImages.size(); ++m) {
        const auto& [k, offset] = particleImages[m];
        const auto i = count + static_cast<vtkIdType>(m);
        const Eigen::Vector3f centre = frame.position[k] + offset;
        p.centres->SetPoint(i, centre.data());
        p.radii->SetValue(i, static_cast<float>(scale * static_cast<double>(frame.radius[k])));
        p.colours->SetTypedTuple(i, dimmed(colourOf(k)).data());
    }
    setVertices(*p.vertices.Get(), drawn);
    p.centres->Modified();
    p.radii->Modified();
    p.colours->Modified();
    p.particles->Modified();
    p.particleBar.content = {field.low, field.high, o.colourField == ColourField::Coordination,
                             fieldTitle(o.colourField), true};

    // Sticks: in 2D lifted in front of the disks (the camera looks down -z); in 3D inside the
    // (shrunk) spheres.
    const ForceNetwork network =
        o.showForceChains ? selectForceNetwork(frame, o.forceThreshold, o.networkPart) : ForceNetwork{};
    p.meanForce =
        o.showForceChains ? network.meanForce : selectForceNetwork(frame, 0.0, ForceNetworkPart::Weak).meanForce;
    const double meanRadius = count > 0 ? radiusSum / static_cast<double>(count) : 0.0;
    const double colourLow = o.networkPart == ForceNetworkPart::Strong ? o.forceThreshold : 0.0;
    const double colourHigh = o.networkPart == ForceNetworkPart::Strong ? o.forceThreshold + strongColourSpan
                                                                        : std::max(o.forceThreshold, 1e-3);
    const auto stickCount = static_cast<vtkIdType>(network.sticks.size());
    const auto stickImages = images ? periodicImages(frame, network.sticks.size(),
                                                     [&network](std::size_t k) {
                                                         const ForceStick& s = network.sticks[k];
                                                         return Eigen::Vector3f(0.5F * (s.from + s.to));
                                                     })
                                    : std::vector<std::pair<std::size_t, Eigen::Vector3f>>{};
    const auto sticksDrawn = stickCount + static_cast<vtkIdType>(stickImages.size());
    p.sticks.resize(sticksDrawn);
    p.stickForces.resize(static_cast<std::size_t>(sticksDrawn));
    std::size_t createdByDeformation = 0;
    for (vtkIdType i = 0; i < sticksDrawn; ++i) {
        const bool image = i >= stickCount;
        const std::size_t k =
            image ? stickImages[static_cast<std::size_t>(i - stickCount)].first : static_cast<std::size_t>(i);
        const Eigen::Vector3f offset =
            image ? stickImages[static_cast<std::size_t>(i - stickCount)].second : Eigen::Vector3f::Zero();
        const ForceStick& s = network.sticks[k];
        p.stickForces[static_cast<std::size_t>(i)] = s.relativeForce;
        const double radius = meanRadius * std::clamp(stickRadiusAtMean * static_cast<double>(s.relativeForce),
                                                      thinnestStick, thickestStick);
        Eigen::Vector3f centre = 0.5F * (s.from + s.to) + offset;
        if (frame.dimension == 2) {
            centre.z() = static_cast<float>(scale * largestRadius + radius);
        }
        const Eigen::Vector3f d = s.to - s.from;
        const float length = d.norm();
        const Eigen::Vector3f direction = length > 0.0F ? Eigen::Vector3f(d / length) : Eigen::Vector3f::UnitX();
        p.sticks.centres->SetPoint(i, centre.data());
        p.sticks.directions->SetTypedTuple(i, direction.data());
        const std::array<float, 3> size{length, static_cast<float>(radius), 0.0F};
        p.sticks.sizes->SetTypedTuple(i, size.data());
        const auto c = s.createdByDeformation
                           ? kDeformationContactColour
                           : bytes(colourAt(kForceColours, (static_cast<double>(s.relativeForce) - colourLow) /
                                                               (colourHigh - colourLow)));
        createdByDeformation += s.createdByDeformation && !image ? 1 : 0;
        p.sticks.colours->SetTypedTuple(i, (image ? dimmed(c) : c).data());
    }
    p.sticks.modified();
    p.strongestStale = true;
    p.forceBar.content.low = colourLow;
    p.forceBar.content.high = colourHigh;
    p.forceBar.content.visible = stickCount > 0;
    p.forceBarRoom = p.forceBarRoom || stickCount > 0;

    std::string caption = "t = " + QString::number(frame.time, 'g', 6).toStdString() + " s   " + std::to_string(count) +
                          (count == 1 ? " particle" : " particles");
    if (!frame.contacts.empty()) {
        caption += "   " + std::to_string(frame.contacts.size()) +
                   (frame.contacts.size() == 1 ? " grain-grain contact" : " grain-grain contacts") +
                   "   <f_n> = " + QString::number(p.meanForce, 'g', 3).toStdString() + " N";
        if (o.showForceChains) {
            caption += o.networkPart == ForceNetworkPart::Strong ? "   chains: f_n >= " : "   weak network: f_n < ";
            caption += QString::number(o.forceThreshold, 'g', 3).toStdString() + " <f_n>";
            if (createdByDeformation > 0) {
                caption += "   " + std::to_string(createdByDeformation) + " created by deformation (magenta)";
            }
        }
    }
    if (images) {
        caption += "   periodic images dimmed";
    }
    p.fullCaption = caption;
    showStickDetail();

    setHighlighted(p.highlighted);
    p.renderer->ResetCameraClippingRange();
}

void FrameScene::setPlainBackground(bool plain)
{
    auto& r = *props_->renderer;
    if (plain) {
        const Rgb mean{0.5 * (backgroundBottom[0] + backgroundTop[0]), 0.5 * (backgroundBottom[1] + backgroundTop[1]),
                       0.5 * (backgroundBottom[2] + backgroundTop[2])};
        r.GradientBackgroundOff();
        r.SetBackground(mean.data());
        r.SetBackgroundAlpha(1.0);  // opaque, as the gradient is: screenshots keep the image's alpha
    } else {
        r.GradientBackgroundOn();
        r.SetBackground(backgroundBottom.data());
        r.SetBackground2(backgroundTop.data());
    }
}

void FrameScene::setReducedDetail(bool reduced)
{
    if (reduced != props_->reducedDetail) {
        props_->reducedDetail = reduced;
        showStickDetail();
    }
}

void FrameScene::showStickDetail()
{
    auto& p = *props_;
    const vtkIdType all = p.sticks.count();
    const bool reduced = p.reducedDetail && all > kMostSticksWhileMoving;
    if (reduced && p.strongestStale) {
        // The strongest first: the order of the kept sticks does not matter to the picture.
        std::vector<vtkIdType> order(static_cast<std::size_t>(all));
        std::iota(order.begin(), order.end(), vtkIdType{0});
        std::nth_element(
            order.begin(), order.begin() + kMostSticksWhileMoving, order.end(), [&p](vtkIdType a, vtkIdType b) {
                return p.stickForces[static_cast<std::size_t>(a)] > p.stickForces[static_cast<std::size_t>(b)];
            });
        p.strongest.resize(kMostSticksWhileMoving);
        for (vtkIdType i = 0; i < kMostSticksWhileMoving; ++i) {
            p.strongest.copy(i, p.sticks, order[static_cast<std::size_t>(i)]);
        }
        p.strongest.modified();
        p.strongestStale = false;
    }
    p.sticks.actor->SetVisibility(all > 0 && !reduced ? 1 : 0);
    p.strongest.actor->SetVisibility(reduced ? 1 : 0);
    std::string caption = p.fullCaption;
    if (reduced) {
        caption += "   (while the camera moves: the " + std::to_string(kMostSticksWhileMoving) + " strongest of " +
                   std::to_string(all) + " sticks)";
    }
    p.captionText = QString::fromStdString(caption);
}

void FrameScene::placeOverlays(vtkObject* /*renderer*/, unsigned long /*event*/, void* /*callData*/)
{
    auto& p = *props_;
    const int* size = p.renderer->GetSize();
    const int width = size[0];
    const int height = size[1];
    const double pixelsPerPoint = overlayPixelsPerPoint();
    const auto place = [&](ColourBar& bar, double heightShare) {
        const QImage image = barPicture(bar, heightShare, width, height, pixelsPerPoint);
        bar.overlay.show(image, barLeft(bar, image, width), static_cast<int>(std::lround(kBarBottom * height)));
    };
    place(p.particleBar, kParticleBarHeight);
    place(p.forceBar, kForceBarHeight);
    const QImage caption = captionPicture(pixelsPerPoint, width);
    const int top = static_cast<int>(std::lround(kCaptionTop * height));
    p.caption.show(caption, static_cast<int>(std::lround(kCaptionLeft * width)), top - caption.height());
}

double FrameScene::overlayPixelsPerPoint() const
{
    const auto& p = *props_;
    auto* window = p.renderer->GetRenderWindow();
    // Text keeps its size on the screen when the view renders fewer pixels (SceneView lowers the DPI).
    const double dpi = window != nullptr ? static_cast<double>(window->GetDPI()) : double{kVtkDefaultDpi};
    return p.options.textScale * dpi / kVtkDefaultDpi;
}

QImage FrameScene::captionPicture(double pixelsPerPoint, int viewWidth)
{
    auto& p = *props_;
    const int captionPixels = std::max(1, static_cast<int>(std::lround(kCaptionPoints * pixelsPerPoint)));
    // Lines broken between fields where the view is too narrow for one (a projector's text size); the breaks of
    // before kept while they fit, made afresh for a new width or text size.
    const int captionWidth = std::max(1, static_cast<int>(std::lround((1.0 - 2.0 * kCaptionLeft) * viewWidth)));
    const bool resized = captionPixels != p.drawnCaptionPixels || captionWidth != p.drawnCaptionWidth;
    if (resized) {
        p.captionFields.clear();
    }
    if (resized || p.drawnCaptionImage.isNull() || p.captionText != p.drawnCaption) {
        const QStringList lines =
            captionLines(p.captionText, QFontMetrics(overlayFont(captionPixels)), captionWidth, p.captionFields);
        p.captionFields = fieldsPerLine(lines);
        p.drawnCaptionImage = captionImage(lines, captionPixels);
        p.drawnCaption = p.captionText;
        p.drawnCaptionPixels = captionPixels;
        p.drawnCaptionWidth = captionWidth;
    }
    return p.drawnCaptionImage;
}

OverlayArrangement FrameScene::overlayArrangement() const
{
    const auto& p = *props_;
    return {static_cast<int>(p.captionFields.size()), p.forceBarRoom && p.options.showForceChains};
}

void FrameScene::restartForceBarRoom()
{
    auto& p = *props_;
    p.forceBarRoom = p.forceBar.content.visible;
}

OverlayPlaces FrameScene::overlayPlaces(bool forceBarRoom)
{
    auto& p = *props_;
    const int* size = p.renderer->GetSize();
    const int width = size[0];
    const int height = size[1];
    OverlayPlaces places;
    places.view = {0.0, static_cast<double>(width), 0.0, static_cast<double>(height)};
    if (width < 2 || height < 2) {
        return places;
    }
    const double pixelsPerPoint = overlayPixelsPerPoint();
    const double bottom = std::round(kBarBottom * height);
    // A bar's picture from `left`: its title across the top, its column (ramp and labels) at its outer side below.
    const auto bar = [&](ColourBar& colourBar, double heightShare, PixelBox& column, PixelBox& title, bool evenHidden) {
        const QImage picture = barPicture(colourBar, heightShare, width, height, pixelsPerPoint, evenHidden);
        if (picture.isNull()) {
            return;
        }
        const ColourBarLayout& layout = colourBar.layout;
        const double left = barLeft(colourBar, picture, width);
        const double top = bottom + picture.height();
        title = {left, left + picture.width(), top - layout.titleHeight, top};
        column = colourBar.labelsLeft ? PixelBox{left + picture.width() - layout.columnWidth, left + picture.width(),
                                                 bottom, top - layout.titleHeight}
                                      : PixelBox{left, left + layout.columnWidth, bottom, top - layout.titleHeight};
    };
    bar(p.forceBar, kForceBarHeight, places.leftColumn, places.leftTitle,
        forceBarRoom && overlayArrangement().forceBarRoom);
    bar(p.particleBar, kParticleBarHeight, places.rightColumn, places.rightTitle, false);
    const QImage caption = captionPicture(pixelsPerPoint, width);
    if (!caption.isNull()) {
        const double top = std::round(kCaptionTop * height);
        const double left = std::round(kCaptionLeft * width);
        places.caption = {left, left + caption.width(), top - caption.height(), top};
    }
    return places;
}

PixelBox FrameScene::drawnExtent() const
{
    const auto& p = *props_;
    PixelBox box{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                 std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    if (p.extent.isEmpty()) {
        return {};
    }
    for (int corner = 0; corner < 8; ++corner) {
        const Vec3 point = p.extent.corner(static_cast<Eigen::AlignedBox3d::CornerType>(corner));
        p.renderer->SetWorldPoint(point.x(), point.y(), point.z(), 1.0);
        p.renderer->WorldToDisplay();
        const double* display = p.renderer->GetDisplayPoint();
        box.left = std::min(box.left, display[0]);
        box.right = std::max(box.right, display[0]);
        box.bottom = std::min(box.bottom, display[1]);
        box.top = std::max(box.top, display[1]);
    }
    return box;
}

QString FrameScene::caption() const
{
    return props_->captionText;
}

long long FrameScene::drawnSticks() const
{
    const auto& p = *props_;
    if (p.strongest.actor->GetVisibility() != 0) {
        return p.strongest.count();
    }
    return p.sticks.actor->GetVisibility() != 0 ? p.sticks.count() : 0;
}

void FrameScene::setHighlighted(int index)
{
    auto& p = *props_;
    p.highlighted = index;
    if (!p.frame || index < 0 || static_cast<std::size_t>(index) >= p.frame->position.size()) {
        p.highlightActor->VisibilityOff();
        return;
    }
    const auto k = static_cast<std::size_t>(index);
    const Vec3 centre = p.frame->position[k].cast<double>();
    const double r = 1.25 * std::clamp(p.options.particleScale, 0.05, 1.0) * static_cast<double>(p.frame->radius[k]);
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> lines;
    if (p.frame->dimension == 2) {
        vtkio::addCircle(*points.Get(), *lines.Get(), centre + Vec3(0.0, 0.0, r), Vec3::UnitX(), Vec3::UnitY(), r);
    } else {
        vtkio::addCircle(*points.Get(), *lines.Get(), centre, Vec3::UnitX(), Vec3::UnitY(), r);
        vtkio::addCircle(*points.Get(), *lines.Get(), centre, Vec3::UnitY(), Vec3::UnitZ(), r);
        vtkio::addCircle(*points.Get(), *lines.Get(), centre, Vec3::UnitZ(), Vec3::UnitX(), r);
    }
    vtkNew<vtkPolyData> rings;
    rings->SetPoints(points);
    rings->SetLines(lines);
    p.highlightMapper->SetInputData(rings);
    p.highlightActor->VisibilityOn();
}

int FrameScene::pick(double x, double y) const
{
    const auto& p = *props_;
    if (!p.frame) {
        return -1;
    }
    auto& renderer = *p.renderer;
    const auto worldAt = [&renderer, x, y](double depth) {
        renderer.SetDisplayPoint(x, y, depth);
        renderer.DisplayToWorld();
        std::array<double, 4> w{};
        renderer.GetWorldPoint(w.data());
        return Vec3(w[0] / w[3], w[1] / w[3], w[2] / w[3]);
    };
    const Vec3 near = worldAt(0.0);
    const Vec3 direction = (worldAt(1.0) - near).normalized();
    const double scale = std::clamp(p.options.particleScale, 0.05, 1.0);
    const Frame& frame = *p.frame;
    int best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    // Particle i drawn at `centre`: |near + s direction - centre| = r, the nearer root s of s^2 + 2 b s + c = 0.
    const auto consider = [&](std::size_t i, const Vec3& centre) {
        const Vec3 offset = near - centre;
        const double r = scale * static_cast<double>(frame.radius[i]);
        const double b = offset.dot(direction);
        const double c = offset.squaredNorm() - r * r;
        const double discriminant = b * b - c;
        if (discriminant < 0.0) {
            return;
        }
        const double s = -b - std::sqrt(discriminant);
        if (s >= 0.0 && s < bestDistance) {
            bestDistance = s;
            best = static_cast<int>(i);
        }
    };
    for (std::size_t i = 0; i < frame.position.size(); ++i) {
        consider(i, frame.position[i].cast<double>());
    }
    if (frame.periodic && p.options.periodicImages) {
        // The dimmed images around a periodic cell are the same grains: a click on one picks its grain.
        for (const auto& [i, shift] :
             periodicImages(frame, frame.position.size(), [&frame](std::size_t k) { return frame.position[k]; })) {
            consider(i, (frame.position[i] + shift).cast<double>());
        }
    }
    return best;
}

void FrameScene::resetCamera()
{
    auto& p = *props_;
    auto* camera = p.renderer->GetActiveCamera();
    if (p.extent.isEmpty()) {
        p.renderer->ResetCamera();
        return;
    }
    const Vec3 centre = p.extent.center();
    const Vec3 offset = p.dimension == 2 ? Vec3::UnitZ() : obliqueViewDirection;
    camera->SetFocalPoint(centre.data());
    camera->SetPosition(Vec3(centre + offset).data());
    camera->SetViewUp(0.0, 1.0, 0.0);
    camera->SetParallelProjection(p.dimension == 2 ? 1 : 0);
    camera->SetWindowCenter(0.0, 0.0);
    std::array<double, 6> bounds{p.extent.min().x(), p.extent.max().x(), p.extent.min().y(),
                                 p.extent.max().y(), p.extent.min().z(), p.extent.max().z()};
    p.renderer->ResetCamera(bounds.data());
    // Beside the colour bars and below the caption: at a projector's 1280 x 800 in presentation mode, VTK's framing
    // of the whole view put the bars' labels over piston2d's walls. Zoomed out as far as that needs, then moved into
    // the free part's middle (the focal point stays in the container's centre, so the camera still turns about it).
    const int* size = p.renderer->GetSize();
    // The force bar's room kept once it has been shown, also while it is hidden (no jump between impacts).
    const OverlayPlaces places = overlayPlaces(true);
    const PixelBox picture = drawnExtent();
    const PixelBox free = roomiestArea(picture, freeAreas(places, kFramingGapPoints * overlayPixelsPerPoint()));
    if (size[0] >= 2 && size[1] >= 2 && free.width() >= kLeastFreeShare * size[0] &&
        free.height() >= kLeastFreeShare * size[1]) {
        const double zoom = fittingZoom(picture, free);
        if (zoom < 1.0) {
            camera->Zoom(zoom);
        }
        // The picture as the zoom left it.
        const std::array<double, 2> windowCentre = windowCentreInto(drawnExtent(), free, size[0], size[1]);
        camera->SetWindowCenter(windowCentre[0], windowCentre[1]);
    }
    p.renderer->ResetCameraClippingRange();
}

}  // namespace granular::ui
