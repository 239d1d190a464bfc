#include "ElidedLabel.h"

#include <QEvent>
#include <QFontMetrics>
#include <QMargins>
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
    // From the margins and the frame alone, not from the text shown: a hint that moved by a pixel with the cut text
    // could change the width the layout gives, hence the cut, hence the hint, without end.
    const QMargins margins = contentsMargins();
    return margins.left() + margins.right() + 2 * (margin() + frameWidth());
}

QSize ElidedLabel::sizeHint() const
{
    QSize hint = QLabel::sizeHint();
    // +1: the advance rounds, the drawn text may reach a pixel further.
    hint.setWidth(std::min(overhead() + fontMetrics().horizontalAdvance(whole_) + 1, maximumWidth()));
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
    const int room = std::max(contentsRect().width() - 2 * margin(), 0);
    const QString shown = fontMetrics().elidedText(whole_, Qt::ElideRight, room);
    if (shown != text()) {
        setText(shown);
    }
}

}  // namespace granular::ui
