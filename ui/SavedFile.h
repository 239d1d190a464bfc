#pragma once

#include <QString>

#include <functional>

class QIODevice;
class QImage;

namespace granular::ui {

/// Writes `path` whole or not at all (QSaveFile: a temporary file beside it, renamed over it once written): an export
/// that fails (a full disk, a folder that cannot be written) leaves the file that was there as it was, never one cut
/// short. `write` fills the device and returns false where it could not. Returns an empty string, or one line naming
/// the file and the reason.
[[nodiscard]] QString saveWhole(const QString& path, const std::function<bool(QIODevice&)>& write);

/// saveWhole for a PNG image.
[[nodiscard]] QString savePngWhole(const QImage& image, const QString& path);

}  // namespace granular::ui
