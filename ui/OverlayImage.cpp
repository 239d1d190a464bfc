#include "OverlayImage.h"

#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkTexture.h>
#include <vtkTexturedActor2D.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>

namespace granular::ui {

struct OverlayImage::Vtk {
    vtkNew<vtkImageData> pixels;
    vtkNew<vtkTexture> texture;
    vtkNew<vtkPoints> corners;  ///< viewport pixels
    vtkNew<vtkPolyData> quad;
    vtkNew<vtkPolyDataMapper2D> mapper;
    vtkNew<vtkTexturedActor2D> actor;
};

OverlayImage::OverlayImage() : vtk_(std::make_unique<Vtk>())
{
    auto& v = *vtk_;
    v.texture->SetInputData(v.pixels);
    v.texture->InterpolateOff();  // pixel for pixel
    v.texture->RepeatOff();
    v.texture->EdgeClampOn();
    v.corners->SetNumberOfPoints(4);
    vtkNew<vtkCellArray> polygons;
    const std::array<vtkIdType, 4> corners{0, 1, 2, 3};
    polygons->InsertNextCell(4, corners.data());
    // Texture coordinates of the corners (bottom left, bottom right, top right, top left). The image's first row,
    // its top, is the texture's first row (t = 0).
    vtkNew<vtkFloatArray> coordinates;
    coordinates->SetNumberOfComponents(2);
    for (const auto& [s, t] :
         {std::array{0.0F, 1.0F}, std::array{1.0F, 1.0F}, std::array{1.0F, 0.0F}, std::array{0.0F, 0.0F}}) {
        const std::array<float, 2> st{s, t};
        coordinates->InsertNextTypedTuple(st.data());
    }
    v.quad->SetPoints(v.corners);
    v.quad->SetPolys(polygons);
    v.quad->GetPointData()->SetTCoords(coordinates);
    v.mapper->SetInputData(v.quad);
    v.actor->SetMapper(v.mapper);
    v.actor->SetTexture(v.texture);
    v.actor->VisibilityOff();
}

OverlayImage::~OverlayImage() = default;

vtkProp* OverlayImage::prop() const
{
    return vtk_->actor;
}

void OverlayImage::show(const QImage& image, int x, int y)
{
    auto& v = *vtk_;
    if (image.isNull()) {
        image_ = QImage();
        v.actor->VisibilityOff();
        return;
    }
    const int w = image.width();
    const int h = image.height();
    const auto left = static_cast<double>(x);
    const auto bottom = static_cast<double>(y);
    const auto right = static_cast<double>(x + w);
    const auto top = static_cast<double>(y + h);
    const std::array<std::array<double, 2>, 4> corners{{{left, bottom}, {right, bottom}, {right, top}, {left, top}}};
    bool moved = false;
    for (vtkIdType k = 0; k < 4; ++k) {
        const auto& c = corners[static_cast<std::size_t>(k)];
        const double* now = v.corners->GetPoint(k);
        if (now[0] != c[0] || now[1] != c[1]) {
            v.corners->SetPoint(k, c[0], c[1], 0.0);
            moved = true;
        }
    }
    if (moved) {
        v.corners->Modified();
        v.quad->Modified();
    }
    v.actor->VisibilityOn();
    const QImage rgba = image.convertToFormat(QImage::Format_RGBA8888);
    if (rgba == image_) {
        return;  // the texture holds it already
    }
    image_ = rgba;
    v.pixels->SetDimensions(w, h, 1);
    v.pixels->AllocateScalars(VTK_UNSIGNED_CHAR, 4);
    auto* scalars = static_cast<unsigned char*>(v.pixels->GetScalarPointer());
    const auto rowBytes = static_cast<std::size_t>(w) * 4;
    for (int row = 0; row < h; ++row) {
        std::memcpy(scalars + static_cast<std::size_t>(row) * rowBytes, image_.constScanLine(row), rowBytes);
    }
    v.pixels->Modified();
}

}  // namespace granular::ui
