#pragma once

#include <QImage>

#include <memory>

class vtkProp;  // NOLINT(cppcoreguidelines-virtual-class-destructor): VTK's class, deleted by its own refcount

namespace granular::ui {

/// A picture over the scene at a fixed place in the view's pixels (a colour bar, the caption): a QImage that VTK
/// draws as one textured quad, blended by its alpha. The image goes to the renderer again only when it changes, so
/// an unchanged picture costs one draw a frame. (VTK's own text and colour bars draw every label as a quad of its
/// own each frame and lay out the caption's glyphs anew whenever it changes: on a software rasteriser that was a
/// quarter of piston2d's frame, bench_studio 2026-12-01.)
/// Owned by FrameScene, on the GUI thread.
class OverlayImage {
public:
    OverlayImage();
    ~OverlayImage();
    OverlayImage(const OverlayImage&) = delete;
    OverlayImage& operator=(const OverlayImage&) = delete;
    OverlayImage(OverlayImage&&) = delete;
    OverlayImage& operator=(OverlayImage&&) = delete;

    /// The prop to add to the renderer.
    [[nodiscard]] vtkProp* prop() const;

    /// Draws `image` (any format; transparent where its alpha is 0) with its bottom-left corner `x`, `y` pixels from
    /// the viewport's bottom left; a null image hides the picture.
    void show(const QImage& image, int x, int y);

    /// The picture drawn now (null while hidden).
    [[nodiscard]] const QImage& image() const { return image_; }

private:
    struct Vtk;
    std::unique_ptr<Vtk> vtk_;
    QImage image_;  ///< RGBA8888, not premultiplied: what the texture holds
};

}  // namespace granular::ui
