#include "FrameScene.h"

#include "sim/Frame.h"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkOpenGLSphereMapper.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace granular::ui {

namespace {

using Vec3 = Eigen::Vector3d;
using Rgb = std::array<double, 3>;

/// Low to high, close to matplotlib's "plasma": every entry is saturated and none is as dark
/// as the background, so particles stand out at any height.
constexpr std::array<Rgb, 5> heightColourStops{{
    {0.05, 0.03, 0.53},
    {0.49, 0.01, 0.66},
    {0.80, 0.28, 0.47},
    {0.97, 0.59, 0.25},
    {0.94, 0.98, 0.13},
}};

constexpr Rgb backgroundBottom{0.09, 0.10, 0.13};
constexpr Rgb backgroundTop{0.22, 0.25, 0.31};
constexpr Rgb wallColour{0.66, 0.75, 0.90};
constexpr Rgb outlineColour{0.55, 0.60, 0.70};
constexpr Rgb labelColour{0.88, 0.90, 0.94};

/// Camera offset from the focal point in 3D: in front of the box (+z), to the right (+x) and
/// above (+y, which is up), so floor, side walls and the heap's surface are all in sight.
const Vec3 obliqueViewDirection(0.55, 0.50, 1.0);

void fillHeightColours(vtkLookupTable& table)
{
    constexpr int entries = 256;
    table.SetNumberOfTableValues(entries);
    constexpr auto segments = static_cast<double>(heightColourStops.size() - 1);
    for (int i = 0; i < entries; ++i) {
        const double s = segments * i / (entries - 1);
        const auto k = std::min(static_cast<std::size_t>(s), heightColourStops.size() - 2);
        const double f = s - static_cast<double>(k);
        const Rgb& a = heightColourStops[k];
        const Rgb& b = heightColourStops[k + 1];
        table.SetTableValue(i, a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2]), 1.0);
    }
}

/// Where the plane through `point` with `normal` cuts the box: the corners of that polygon in
/// order around it (a segment when the box is flat, as in 2D); empty when the plane misses.
/// Works for any orientation, although the scenarios' walls are all axis-aligned.
std::vector<Vec3> boxSection(const Eigen::AlignedBox3d& box, const Vec3& point, const Vec3& normal)
{
    const double tolerance = 1e-9 * std::max(box.diagonal().norm(), 1e-12);
    const auto distance = [&](const Vec3& x) { return normal.dot(x - point); };
    std::array<Vec3, 8> corners;
    for (int i = 0; i < 8; ++i) {
        corners[static_cast<std::size_t>(i)] = box.corner(static_cast<Eigen::AlignedBox3d::CornerType>(i));
    }
    std::vector<Vec3> section;
    const auto addUnique = [&](const Vec3& x) {
        const bool seen =
            std::any_of(section.begin(), section.end(), [&](const Vec3& y) { return (x - y).norm() <= tolerance; });
        if (!seen) {
            section.push_back(x);
        }
    };
    for (const auto& corner : corners) {
        if (std::abs(distance(corner)) <= tolerance) {
            addUnique(corner);
        }
    }
    // Corner i has bit 0/1/2 set when it sits at the box's maximum x/y/z: edges join corners one bit apart.
    for (std::size_t i = 0; i < 8; ++i) {
        for (std::size_t bit : {1U, 2U, 4U}) {
            if ((i & bit) != 0) {
                continue;
            }
            const Vec3& a = corners[i];
            const Vec3& b = corners[i | bit];
            const double da = distance(a);
            const double db = distance(b);
            if ((da > tolerance && db < -tolerance) || (da < -tolerance && db > tolerance)) {
                addUnique(a + (b - a) * (da / (da - db)));
            }
        }
    }
    if (section.size() > 2) {
        Vec3 centre = Vec3::Zero();
        for (const auto& x : section) {
            centre += x;
        }
        centre /= static_cast<double>(section.size());
        const Vec3 u = normal.unitOrthogonal();
        const Vec3 v = normal.normalized().cross(u);
        const auto angle = [&](const Vec3& x) { return std::atan2((x - centre).dot(v), (x - centre).dot(u)); };
        std::sort(section.begin(), section.end(), [&](const Vec3& x, const Vec3& y) { return angle(x) < angle(y); });
    }
    return section;
}

vtkIdType addPoint(vtkPoints& points, const Vec3& x)
{
    return points.InsertNextPoint(x.x(), x.y(), x.z());
}

/// Walls as filled polygons (3D) or segments (2D), clipped to the container.
vtkNew<vtkPolyData> wallGeometry(const Frame& frame)
{
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> cells;
    if (!frame.bounds.isEmpty()) {
        for (const auto& wall : frame.walls) {
            const auto section = boxSection(frame.bounds, wall.point, wall.normal);
            const std::size_t needed = frame.dimension == 2 ? 2 : 3;
            if (section.size() < needed) {
                continue;
            }
            cells->InsertNextCell(static_cast<int>(section.size()));
            for (const auto& x : section) {
                cells->InsertCellPoint(addPoint(*points.Get(), x));
            }
        }
    }
    vtkNew<vtkPolyData> geometry;
    geometry->SetPoints(points);
    if (frame.dimension == 2) {
        geometry->SetLines(cells);
    } else {
        geometry->SetPolys(cells);
    }
    return geometry;
}

/// The container's edges; in 2D only the rectangle in the z = 0 plane.
vtkNew<vtkPolyData> outlineGeometry(const Frame& frame)
{
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> lines;
    if (!frame.bounds.isEmpty()) {
        for (std::size_t i = 0; i < 8; ++i) {
            for (std::size_t bit : {1U, 2U, 4U}) {
                const std::size_t j = i | bit;
                if ((i & bit) != 0 || (frame.dimension == 2 && (j & 4U) != 0)) {
                    continue;
                }
                lines->InsertNextCell(2);
                lines->InsertCellPoint(
                    addPoint(*points.Get(), frame.bounds.corner(static_cast<Eigen::AlignedBox3d::CornerType>(i))));
                lines->InsertCellPoint(
                    addPoint(*points.Get(), frame.bounds.corner(static_cast<Eigen::AlignedBox3d::CornerType>(j))));
            }
        }
    }
    vtkNew<vtkPolyData> geometry;
    geometry->SetPoints(points);
    geometry->SetLines(lines);
    return geometry;
}

/// The container together with every particle (particles may leave an open box).
Eigen::AlignedBox3d sceneExtent(const Frame& frame)
{
    Eigen::AlignedBox3d extent = frame.bounds;
    for (std::size_t i = 0; i < frame.position.size(); ++i) {
        const Vec3 centre = frame.position[i].cast<double>();
        const Vec3 reach = Vec3::Constant(static_cast<double>(frame.radius[i]));
        extent.extend(centre - reach);
        extent.extend(centre + reach);
    }
    return extent;
}

void styleText(vtkTextProperty& text, int points)
{
    text.SetFontSize(points);
    text.SetColor(labelColour.data());
    text.SetFontFamilyToArial();
    text.BoldOff();
    text.ItalicOff();
    text.ShadowOff();
}

}  // namespace

struct FrameScene::Props {
    vtkNew<vtkRenderer> renderer;

    vtkNew<vtkPoints> centres;      ///< m
    vtkNew<vtkFloatArray> radii;    ///< m, read by the sphere mapper as each imposter's radius
    vtkNew<vtkFloatArray> heights;  ///< m, the coloured scalar
    /// One poly-vertex over all particles: the sphere mapper draws points only, but VTK 9.1's
    /// polydata mapper skips inputs without cells.
    vtkNew<vtkCellArray> vertices;
    vtkNew<vtkPolyData> particles;
    vtkNew<vtkOpenGLSphereMapper> particleMapper;
    vtkNew<vtkActor> particleActor;
    vtkNew<vtkLookupTable> heightColours;
    vtkNew<vtkScalarBarActor> colourBar;

    vtkNew<vtkPolyDataMapper> wallMapper;
    vtkNew<vtkActor> wallActor;
    vtkNew<vtkPolyDataMapper> outlineMapper;
    vtkNew<vtkActor> outlineActor;

    Eigen::AlignedBox3d extent;  ///< m, container and particles of the last frame
    int dimension = 3;
};

FrameScene::FrameScene() : props_(std::make_unique<Props>())
{
    auto& p = *props_;
    p.renderer->GradientBackgroundOn();
    p.renderer->SetBackground(backgroundBottom.data());
    p.renderer->SetBackground2(backgroundTop.data());

    p.centres->SetDataTypeToFloat();
    p.radii->SetName("radius");
    p.heights->SetName("height");
    p.particles->SetPoints(p.centres);
    p.particles->SetVerts(p.vertices);
    p.particles->GetPointData()->AddArray(p.radii);
    p.particles->GetPointData()->SetScalars(p.heights);

    fillHeightColours(*p.heightColours.Get());
    p.particleMapper->SetInputData(p.particles);
    p.particleMapper->SetScaleArray("radius");
    p.particleMapper->SetLookupTable(p.heightColours);
    p.particleMapper->UseLookupTableScalarRangeOn();
    p.particleMapper->ScalarVisibilityOn();
    p.particleActor->SetMapper(p.particleMapper);
    auto* surface = p.particleActor->GetProperty();
    surface->SetAmbient(0.15);
    surface->SetDiffuse(0.85);
    surface->SetSpecular(0.35);
    surface->SetSpecularPower(40.0);

    p.colourBar->SetLookupTable(p.heightColours);
    p.colourBar->SetTitle("height (m)");
    p.colourBar->SetNumberOfLabels(5);
    p.colourBar->SetLabelFormat("%.3g");
    p.colourBar->SetMaximumWidthInPixels(120);
    p.colourBar->SetBarRatio(0.3);
    // Fixed point sizes: by default the text grows with the window and crowds the bar.
    p.colourBar->UnconstrainedFontSizeOn();
    p.colourBar->SetPosition(0.87, 0.12);
    p.colourBar->SetPosition2(0.10, 0.76);
    styleText(*p.colourBar->GetTitleTextProperty(), 16);
    styleText(*p.colourBar->GetLabelTextProperty(), 14);

    p.wallActor->SetMapper(p.wallMapper);
    p.wallActor->GetProperty()->SetColor(wallColour[0], wallColour[1], wallColour[2]);
    p.wallActor->GetProperty()->LightingOff();
    p.outlineActor->SetMapper(p.outlineMapper);
    p.outlineActor->GetProperty()->SetColor(outlineColour[0], outlineColour[1], outlineColour[2]);
    p.outlineActor->GetProperty()->LightingOff();

    p.renderer->AddActor(p.outlineActor);
    p.renderer->AddActor(p.wallActor);
    p.renderer->AddActor(p.particleActor);
    p.renderer->AddViewProp(p.colourBar);
}

FrameScene::~FrameScene() = default;

vtkRenderer* FrameScene::renderer() const
{
    return props_->renderer;
}

int FrameScene::dimension() const
{
    return props_->dimension;
}

void FrameScene::show(const Frame& frame)
{
    auto& p = *props_;
    p.dimension = frame.dimension;

    const auto count = static_cast<vtkIdType>(frame.position.size());
    p.centres->SetNumberOfPoints(count);
    p.radii->SetNumberOfValues(count);
    p.heights->SetNumberOfValues(count);
    for (vtkIdType i = 0; i < count; ++i) {
        const auto& x = frame.position[static_cast<std::size_t>(i)];
        p.centres->SetPoint(i, x.data());
        p.radii->SetValue(i, frame.radius[static_cast<std::size_t>(i)]);
        p.heights->SetValue(i, x.y());
    }
    if (p.vertices->GetNumberOfConnectivityIds() != count) {
        p.vertices->Reset();
        p.vertices->InsertNextCell(static_cast<int>(count));
        for (vtkIdType i = 0; i < count; ++i) {
            p.vertices->InsertCellPoint(i);
        }
    }
    p.centres->Modified();
    p.radii->Modified();
    p.heights->Modified();
    p.particles->Modified();

    p.extent = sceneExtent(frame);
    // Colours follow height within the container, so a grain keeps its colour scale as it falls.
    const Eigen::AlignedBox3d& span = frame.bounds.sizes().y() > 0.0 ? frame.bounds : p.extent;
    const double low = span.isEmpty() ? 0.0 : span.min().y();
    const double high = span.isEmpty() || !(span.max().y() > low) ? low + 1e-3 : span.max().y();
    p.heightColours->SetTableRange(low, high);

    p.wallMapper->SetInputData(wallGeometry(frame));
    p.outlineMapper->SetInputData(outlineGeometry(frame));
    if (frame.dimension == 2) {
        // Seen edge-on, 2D walls are lines: drawn opaque and thicker than the outline.
        p.wallActor->GetProperty()->SetOpacity(1.0);
        p.wallActor->GetProperty()->SetLineWidth(3.0F);
    } else {
        p.wallActor->GetProperty()->SetOpacity(0.08);
    }

    p.renderer->ResetCameraClippingRange();
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
    std::array<double, 6> bounds{p.extent.min().x(), p.extent.max().x(), p.extent.min().y(),
                                 p.extent.max().y(), p.extent.min().z(), p.extent.max().z()};
    p.renderer->ResetCamera(bounds.data());
    p.renderer->ResetCameraClippingRange();
}

}  // namespace granular::ui
