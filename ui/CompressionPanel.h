#pragma once

#include "SimulationUpdate.h"

#include <QString>
#include <QTimer>
#include <QWidget>

#include <cstddef>
#include <memory>
#include <vector>

class QChart;
class QLabel;
class QLineSeries;
class QValueAxis;
class QChartView;

namespace granular::ui {

/// The compression experiment (setup compression, Brodu et al. 2015) as it runs: the top force against the
/// compression, loading strokes and unloading strokes in two colours, with a reference run's curves (e.g.
/// independent contacts, gamma = 0) dashed beside them; and the distribution of the grain-grain normal contact
/// forces of the newest frame.
class CompressionPanel final : public QWidget {
    Q_OBJECT

public:
    explicit CompressionPanel(QWidget* parent = nullptr);
    ~CompressionPanel() override;
    Q_DISABLE_COPY_MOVE(CompressionPanel)

    /// A new run: its columns say where compression, stroke and top_force are.
    void startRun(const RunInfo& run);
    void appendRows(const std::vector<SeriesRow>& rows);
    /// The histogram of the frame's normal forces (redrawn at most a few times a second).
    void showFrame(const std::shared_ptr<const Frame>& frame);
    /// Draws the top-force curves of an output directory of `granular run` (its series.csv) beside the run's.
    /// Returns an error message, empty on success.
    QString loadReference(const QString& directory);
    /// Presentation mode: chart text `fontScale` and curves `lineScale` times their usual size (1, 1: usual).
    void setScale(double fontScale, double lineScale);

    /// Points drawn so far: loading, unloading (for tests).
    [[nodiscard]] std::size_t loadingPoints() const;
    [[nodiscard]] std::size_t unloadingPoints() const;
    [[nodiscard]] std::size_t referencePoints() const;
    /// Contacts in the histogram now.
    [[nodiscard]] std::size_t histogramContacts() const { return histogramContacts_; }

public slots:  // NOLINT(readability-redundant-access-specifiers): moc needs the slots section
    /// Asks for a reference run's directory.
    void chooseReference();

private:
    struct Curves;
    struct BaseFonts;
    void clearCurves();
    /// The curves' axes from 0 to a little beyond the largest compression and force drawn.
    void fitCurveAxes();

    std::unique_ptr<Curves> curves_;
    std::unique_ptr<BaseFonts> baseFonts_;
    double lineScale_ = 1.0;
    QChart* forceChart_;
    QChart* histogramChart_;
    QLineSeries* histogram_;
    QValueAxis* histogramForce_;
    QValueAxis* histogramShare_;
    QLabel* referenceLabel_;
    QString reference_;  ///< the directory of the reference run drawn; empty: none
    std::ptrdiff_t compressionColumn_ = -1;
    std::ptrdiff_t strokeColumn_ = -1;
    std::ptrdiff_t topForceColumn_ = -1;
    std::size_t histogramContacts_ = 0;
    qint64 lastHistogram_ = 0;                   ///< ms since the epoch of the last histogram drawn
    std::shared_ptr<const Frame> pendingFrame_;  ///< the newest frame that came too soon, drawn by pendingTimer_
    QTimer* pendingTimer_;
};

}  // namespace granular::ui
