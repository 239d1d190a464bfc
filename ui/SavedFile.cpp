#include "SavedFile.h"

#include <QDir>
#include <QImage>
#include <QSaveFile>

namespace granular::ui {

QString saveWhole(const QString& path, const std::function<bool(QIODevice&)>& write)
{
    const QString shown = QDir::toNativeSeparators(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return QObject::tr("cannot write %1 (%2)").arg(shown, file.errorString());
    }
    if (!write(file)) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return QObject::tr("could not write %1 (%2)").arg(shown, reason.isEmpty() ? QObject::tr("no data") : reason);
    }
    if (!file.commit()) {
        return QObject::tr("could not write %1 (%2)").arg(shown, file.errorString());
    }
    return {};
}

QString savePngWhole(const QImage& image, const QString& path)
{
    if (image.isNull()) {
        return QObject::tr("no image to write to %1").arg(QDir::toNativeSeparators(path));
    }
    return saveWhole(path, [&image](QIODevice& device) { return image.save(&device, "PNG"); });
}

}  // namespace granular::ui
