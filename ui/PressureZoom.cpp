#include "PressureZoom.h"

#include <QCheckBox>
#include <QLabel>
#include <QVBoxLayout>

namespace granular::ui {

std::optional<double> zoomedPressureTop(double highest, double external)
{
    const double top = kPressureZoomReach * external;
    if (!(external > 0.0) || !(highest > top)) {
        return std::nullopt;
    }
    return top;
}

PressureZoom::PressureZoom(QWidget* parent)
    : QWidget(parent), zoomBox_(new QCheckBox(tr("Zoom onto P_ext"), this)), peakLabel_(new QLabel(this))
{
    zoomBox_->setObjectName(QStringLiteral("zoomToExternalPressure"));
    zoomBox_->setChecked(true);
    zoomBox_->setToolTip(tr("Show the inner pressure up to %1 times P_ext, where it settles; untick to see its whole "
                            "range, the spike when the packing jams included")
                             .arg(kPressureZoomReach));
    connect(zoomBox_, &QCheckBox::toggled, this, &PressureZoom::zoomToggled);
    peakLabel_->setObjectName(QStringLiteral("pressurePeak"));
    peakLabel_->setWordWrap(true);
    peakLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(zoomBox_, 0, Qt::AlignLeft);
    layout->addWidget(peakLabel_);
    peakLabel_->hide();
}

bool PressureZoom::zoomed() const
{
    return zoomBox_->isChecked();
}

void PressureZoom::showCutPeak(std::optional<double> peak, double time, const QString& unit)
{
    peakLabel_->setVisible(peak.has_value());
    if (!peak) {
        peakLabel_->clear();
        return;
    }
    peakLabel_->setText(tr("Above the axis: P_in peaks at %1 %2 (t = %3 s)")
                            .arg(QString::number(*peak, 'g', 3), unit, QString::number(time, 'g', 4)));
}

}  // namespace granular::ui
