#include "BlowUpLabel.h"

#include <QEvent>
#include <QFontMetrics>

#include <algorithm>

namespace granular::ui {

namespace {

/// px, the least width the text is cut to, whatever the window's.
constexpr int kLeastWidth = 160;

}  // namespace

BlowUpLabel::BlowUpLabel(QWidget* parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("blowUp"));
    setTextFormat(Qt::PlainText);  // the guard's message is no markup
    setContentsMargins(6, 0, 6, 0);
    setStyleSheet(QStringLiteral("color: white; background: #b00020; padding: 0 4px;"));
    hide();
    window()->installEventFilter(this);  // the window's width: the text is refitted when it changes
}

void BlowUpLabel::showMessage(const QString& message)
{
    message_ = message;
    setToolTip(message);
    fit();
    show();
}

void BlowUpLabel::forget()
{
    message_.clear();
    setToolTip(QString());
    clear();
    hide();
}

void BlowUpLabel::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        fit();  // presentation mode's larger letters
    }
}

bool BlowUpLabel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == window() && event->type() == QEvent::Resize) {
        fit();
    }
    return QLabel::eventFilter(watched, event);
}

void BlowUpLabel::fit()
{
    if (message_.isEmpty()) {
        return;
    }
    const QString whole = tr("Blow-up (paused): %1").arg(message_);
    setText(fontMetrics().elidedText(whole, Qt::ElideRight, std::max(window()->width() / 2, kLeastWidth)));
}

}  // namespace granular::ui
