#pragma once

#include "RecordingPace.h"

#include <QElapsedTimer>
#include <QImage>
#include <QObject>
#include <QString>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace granular::ui {

/// Writes the frames of a recording as a numbered PNG sequence (frame_000001.png, ...) in a folder, on a writer
/// thread that runs only on otherwise idle cores (SCHED_IDLE), so that neither the GUI nor the simulation thread
/// waits for the encoder or loses its core to it; when stopped, encodes the sequence as recording.mp4 where ffmpeg
/// is installed (also SCHED_IDLE, in the background). A frame that arrives while kMostWaiting frames still wait is
/// skipped and counted: every recorded frame is written. Lives on the GUI thread.
class FrameRecorder final : public QObject {
    Q_OBJECT

public:
    explicit FrameRecorder(QObject* parent = nullptr);
    ~FrameRecorder() override;
    Q_DISABLE_COPY_MOVE(FrameRecorder)

    /// Frames that may wait for the writer.
    static constexpr int kMostWaiting = 16;

    /// Starts recording into `folder` (created if missing; it must not hold frame_*.png of an earlier recording).
    /// Returns an error message, empty on success.
    [[nodiscard]] QString start(const QString& folder);
    /// Queues a frame for the writer (ignored when not recording).
    void addFrame(const QImage& image);
    /// Stops taking frames, waits for the writer to finish the queued ones and starts the MP4 encoding (if
    /// ffmpeg is found). Returns the summary of the recording, for the status bar.
    QString stop();

    [[nodiscard]] bool isRecording() const { return recording_; }
    [[nodiscard]] QString folder() const { return folder_; }
    /// Frames taken into the recording (each is, or will be, a PNG) and frames skipped as the writer was behind.
    [[nodiscard]] qint64 recordedFrames() const { return recorded_; }
    [[nodiscard]] qint64 skippedFrames() const { return skipped_; }
    /// Frames the writer has written so far, and the first write error (empty if none).
    [[nodiscard]] qint64 writtenFrames() const;
    [[nodiscard]] QString writeError() const;
    /// The ffmpeg program, or empty when it is not installed.
    [[nodiscard]] static QString ffmpeg();

signals:
    /// The MP4 encoding of the recording in `folder` ended: `path` of the video, or empty with `error`.
    void videoEncoded(const QString& path, const QString& error);

private:
    void writeFrames();
    void encodeVideo(double framesPerSecond);

    bool recording_ = false;
    QString folder_;
    qint64 recorded_ = 0;
    qint64 skipped_ = 0;
    QElapsedTimer clock_;  ///< monotonic, for pace_
    RecordingPace pace_;   ///< when the frames arrived: the video's rate

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::pair<qint64, QImage>> waiting_;  ///< guarded by mutex_: frame number, image
    bool closing_ = false;                           ///< guarded by mutex_
    qint64 written_ = 0;                             ///< guarded by mutex_
    QString error_;                                  ///< guarded by mutex_
    std::thread writer_;
};

}  // namespace granular::ui
