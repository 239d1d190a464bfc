#include "ElidedLabel.h"

#include <QEvent>
#include <QFontMetrics>
#include <QResizeEvent>

#include <algorithm>

namespace granular::ui {

namespace {

/// The fewest letters the label keeps room for, its "..." included.
const QString kLeastText = QStringLiteral("MMMMMM\u2026");

}  // namespace

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void ElidedLabel::setWholeText(const QString& text)
{
    if (text == whole_) {
        return;
    }
    whole_ = text;
    fit();
    updateGeometry();  // the size hint follows the whole text
}

int ElidedLabel::overhead() const
{
    return QLabel::sizeHint().width() - fontMetrics().horizontalAdvance(text());
}

QSize ElidedLabel::sizeHint() const
{
    QSize hint = QLabel::sizeHint();
    hint.setWidth(std::min(overhead() + fontMetrics().horizontalAdvance(whole_), maximumWidth()));
    return hint;
}

QSize ElidedLabel::minimumSizeHint() const
{
    QSize hint = QLabel::minimumSizeHint();
    const int least = fontMetrics().horizontalAdvance(whole_.isEmpty() ? QString() : kLeastText);
    hint.setWidth(std::min(overhead() + least, maximumWidth()));
    return hint;
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    fit();
}

void ElidedLabel::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        fit();  // presentation mode's larger letters, a style sheet's padding
        updateGeometry();
    }
}

void ElidedLabel::fit()
{
    const int room = std::max(width() - overhead(), 0);
    const QString shown = fontMetrics().elidedText(whole_, Qt::ElideRight, room);
    if (shown != text()) {
        setText(shown);
    }
}

}  // namespace granular::ui
