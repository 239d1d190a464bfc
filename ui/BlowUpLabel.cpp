#include "BlowUpLabel.h"

#include "LabelColours.h"

#include <QEvent>

#include <algorithm>

namespace granular::ui {

namespace {

/// px, the least width the label may have, whatever the window's.
constexpr int kLeastWidth = 160;

}  // namespace

BlowUpLabel::BlowUpLabel(QWidget* parent) : ElidedLabel(parent)
{
    setObjectName(QStringLiteral("blowUp"));
    setContentsMargins(10, 0, 10, 0);
    setLabelColours(*this, Qt::white, QColor(0xb0, 0x00, 0x20));
    hide();
    window()->installEventFilter(this);  // the window's width: the label's widest is half of it
    limitWidth();
}

void BlowUpLabel::showMessage(const QString& message)
{
    message_ = message;
    setToolTip(message);
    setWholeText(tr("Blow-up (paused): %1").arg(message));
    show();
}

void BlowUpLabel::forget()
{
    message_.clear();
    setToolTip(QString());
    setWholeText(QString());
    hide();
}

bool BlowUpLabel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == window() && event->type() == QEvent::Resize) {
        limitWidth();
    }
    return ElidedLabel::eventFilter(watched, event);
}

void BlowUpLabel::limitWidth()
{
    setMaximumWidth(std::max(window()->width() / 2, kLeastWidth));
}

}  // namespace granular::ui
