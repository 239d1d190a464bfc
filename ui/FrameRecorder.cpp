#include "FrameRecorder.h"

#include "ThreadPriority.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>

#include <png.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace granular::ui {

namespace {

/// The least and the most frames per second of the MP4 (the recording's own rate, rounded, in between).
constexpr double kSlowestVideo = 1.0;
constexpr double kFastestVideo = 60.0;
/// ms an MP4 encoding still running when the recorder is destroyed (the studio closes) may take to finish.
constexpr int kLongestEncodingOnClose = 300000;

QString frameName(qint64 number)
{
    return QStringLiteral("frame_%1.png").arg(number, 6, 10, QLatin1Char('0'));
}

/// Writes `image` as an 8-bit RGB PNG at `path` with libpng's fast mode: no row filters and a fast deflate level,
/// 2-3x less CPU than QImageWriter (a 1280 x 800 frame: ~20 ms against ~45 ms here) for files ~5 % larger. libpng
/// removes a file it failed to finish. Returns an error message, empty on success.
QString writePng(const QImage& image, const QString& path)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
    png_image header{};
    header.version = PNG_IMAGE_VERSION;
    header.width = static_cast<png_uint_32>(rgb.width());
    header.height = static_cast<png_uint_32>(rgb.height());
    header.format = PNG_FORMAT_RGB;
    header.flags = PNG_IMAGE_FLAG_FAST;
    // The row stride counts components, which for 8-bit samples are bytes.
    const auto stride = static_cast<png_int_32>(rgb.bytesPerLine());
    const QByteArray file = QFile::encodeName(path);
    if (png_image_write_to_file(&header, file.constData(), 0, rgb.constBits(), stride, nullptr) == 0) {
        QString error = QString::fromLocal8Bit(static_cast<const char*>(header.message));
        png_image_free(&header);
        return error;
    }
    return {};
}

}  // namespace

FrameRecorder::FrameRecorder(QObject* parent) : QObject(parent)
{
    clock_.start();
}

FrameRecorder::~FrameRecorder()
{
    if (recording_) {
        (void)stop();
    }
    // An encoding still running when the studio closes would be killed with its QProcess: let it finish, so that
    // a recording stopped just before closing (or by closing) still gets its MP4.
    for (auto* encoder : findChildren<QProcess*>()) {
        encoder->disconnect(this);
        (void)encoder->waitForFinished(kLongestEncodingOnClose);
    }
}

QString FrameRecorder::ffmpeg()
{
    return QStandardPaths::findExecutable(QStringLiteral("ffmpeg"));
}

QString FrameRecorder::start(const QString& folder)
{
    if (recording_) {
        return tr("already recording into %1").arg(QDir::toNativeSeparators(folder_));
    }
    QDir dir(folder);
    if (!dir.mkpath(QStringLiteral("."))) {
        return tr("cannot create the folder %1").arg(QDir::toNativeSeparators(folder));
    }
    if (!dir.entryList({QStringLiteral("frame_*.png")}, QDir::Files).isEmpty()) {
        return tr("%1 already holds a recording (frame_*.png); choose an empty folder")
            .arg(QDir::toNativeSeparators(folder));
    }
    folder_ = dir.absolutePath();
    recorded_ = 0;
    skipped_ = 0;
    {
        const std::scoped_lock lock(mutex_);
        waiting_.clear();
        closing_ = false;
        written_ = 0;
        error_.clear();
    }
    pace_ = RecordingPace{};
    writer_ = std::thread([this] { writeFrames(); });
    recording_ = true;
    return {};
}

void FrameRecorder::addFrame(const QImage& image)
{
    if (!recording_ || image.isNull()) {
        return;
    }
    pace_.arrived(clock_.elapsed());
    {
        const std::scoped_lock lock(mutex_);
        if (static_cast<int>(waiting_.size()) >= kMostWaiting) {
            ++skipped_;
            return;
        }
        ++recorded_;
        waiting_.emplace_back(recorded_, image);
    }
    wake_.notify_one();
}

QString FrameRecorder::stop()
{
    if (!recording_) {
        return {};
    }
    recording_ = false;
    {
        const std::scoped_lock lock(mutex_);
        closing_ = true;
    }
    wake_.notify_one();
    writer_.join();
    const QString error = writeError();
    QString summary = tr("Recorded %1 frames to %2").arg(recorded_).arg(QDir::toNativeSeparators(folder_));
    if (skipped_ > 0) {
        summary += tr(" (%1 skipped while the writer was behind)").arg(skipped_);
    }
    if (!error.isEmpty()) {
        return summary + tr("; writing failed: %1").arg(error);
    }
    if (recorded_ > 0 && !ffmpeg().isEmpty()) {
        const double rate = pace_.framesPerSecond(recorded_);
        encodeVideo(rate > 0.0 ? rate : kSlowestVideo);
        summary += tr("; encoding recording.mp4");
    } else if (recorded_ > 0) {
        summary += tr("; no ffmpeg found, so no MP4");
    }
    return summary;
}

qint64 FrameRecorder::writtenFrames() const
{
    const std::scoped_lock lock(mutex_);
    return written_;
}

QString FrameRecorder::writeError() const
{
    const std::scoped_lock lock(mutex_);
    return error_;
}

void FrameRecorder::writeFrames()
{
    runOnIdleCoresOnly();
    const QDir dir(folder_);
    for (;;) {
        std::pair<qint64, QImage> next;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return closing_ || !waiting_.empty(); });
            if (waiting_.empty()) {
                return;  // closing, and every frame written
            }
            next = std::move(waiting_.front());
            waiting_.pop_front();
        }
        const QString path = dir.filePath(frameName(next.first));
        const QString failure = writePng(next.second, path);
        const std::scoped_lock lock(mutex_);
        if (failure.isEmpty()) {
            ++written_;
        } else if (error_.isEmpty()) {
            error_ = tr("%1: %2").arg(QDir::toNativeSeparators(path), failure);
        }
    }
}

void FrameRecorder::encodeVideo(double framesPerSecond)
{
    const double rate = std::clamp(std::round(framesPerSecond), kSlowestVideo, kFastestVideo);
    const QString video = QDir(folder_).filePath(QStringLiteral("recording.mp4"));
    auto* process = new QProcess(this);
    process->setProgram(ffmpeg());
    // H.264 needs even sizes: the pad adds a row or column of background where the view's size is odd. The names
    // relative to the folder: ffmpeg reads a % in the input's path as part of its pattern (a folder "rec 5%d" gave no
    // video).
    process->setWorkingDirectory(folder_);
    process->setArguments({QStringLiteral("-y"), QStringLiteral("-loglevel"), QStringLiteral("error"),
                           QStringLiteral("-framerate"), QString::number(rate), QStringLiteral("-i"),
                           QStringLiteral("frame_%06d.png"), QStringLiteral("-vf"),
                           QStringLiteral("pad=ceil(iw/2)*2:ceil(ih/2)*2"), QStringLiteral("-pix_fmt"),
                           QStringLiteral("yuv420p"), QStringLiteral("./recording.mp4")});
    process->setChildProcessModifier([] {
        const sched_param none{};
        if (sched_setscheduler(0, SCHED_IDLE, &none) != 0) {
            (void)nice(19);
        }
    });
    connect(process, &QProcess::finished, this, [this, process, video](int exitCode, QProcess::ExitStatus status) {
        const QString output = QString::fromLocal8Bit(process->readAllStandardError()).trimmed();
        process->deleteLater();
        if (status == QProcess::NormalExit && exitCode == 0) {
            emit videoEncoded(video, {});
        } else {
            emit videoEncoded({}, tr("ffmpeg failed (exit code %1): %2").arg(exitCode).arg(output.section('\n', 0, 0)));
        }
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            process->deleteLater();
            emit videoEncoded({}, tr("ffmpeg could not be started"));
        }
    });
    process->start();
}

}  // namespace granular::ui
