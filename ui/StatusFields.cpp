#include "StatusFields.h"

#include <QEvent>
#include <QLabel>
#include <QLayout>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>

#include <algorithm>

namespace granular::ui {
namespace {

/// px between the widgets of the bar's row (the first row in `layout`, or `layout` itself).
int rowSpacing(QLayout* layout, const QWidget* bar)
{
    for (int i = 0; i < layout->count(); ++i) {
        if (QLayout* inner = layout->itemAt(i)->layout()) {
            return rowSpacing(inner, bar);
        }
    }
    const int spacing = layout->spacing();
    return spacing >= 0 ? spacing : bar->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing, nullptr, bar);
}

}  // namespace

StatusFields::StatusFields(QStatusBar* bar, const std::vector<QLabel*>& byImportance) : QObject(bar), bar_(bar)
{
    for (QLabel* label : byImportance) {
        fields_.push_back({label, true, 0});
    }
    // The bar's own minimum width would otherwise be the sum of its fields' and hold the window wider than the
    // screen; the fields are fitted to the width it gets instead.
    bar_->setMinimumWidth(1);
    bar_->installEventFilter(this);
    connect(bar_, &QStatusBar::messageChanged, this, [this] { refitLater(); });
}

void StatusFields::setWanted(QLabel* label, bool wanted)
{
    for (Field& field : fields_) {
        if (field.label == label && field.wanted != wanted) {
            field.wanted = wanted;
            dirty_ = true;
        }
    }
    fit();
}

void StatusFields::fit()
{
    for (Field& field : fields_) {
        if (!field.wanted) {
            continue;
        }
        const int width = field.label->sizeHint().width();
        if (width > field.widest) {
            field.widest = width;
            dirty_ = true;
        }
    }
    if (dirty_) {
        layOut();
    }
    showTip();
}

void StatusFields::layOut()
{
    dirty_ = false;
    for (Field& field : fields_) {
        field.label->setMinimumWidth(field.wanted ? field.widest : 0);
    }
    // The row's least width as the fields stand, less the fields shown: what the rest of the bar needs. Worked out,
    // not tried by showing and hiding, which would post layout requests to no end.
    QLayout* layout = bar_->layout();
    int rest = 0;
    int spacing = 0;
    if (layout != nullptr) {
        // Brings the layout's sizes up to date where something changed since it was last laid out (it posts no
        // event: an invalidate() here would post a layout request, and its refit another, for as long as the studio
        // runs).
        layout->activate();
        rest = layout->minimumSize().width();
        spacing = std::max(rowSpacing(layout, bar_), 0);
    }
    for (const Field& field : fields_) {
        if (field.label->isVisibleTo(bar_)) {
            // What the layout counted: the minimum width set, or the text's where none is (a field no longer wanted).
            const int counted =
                field.label->minimumWidth() > 0 ? field.label->minimumWidth() : field.label->minimumSizeHint().width();
            rest -= counted + spacing;
        }
    }
    // A transient message (a file saved, the run paused by the guard) answers what the user just did: it keeps its
    // room until it goes, the readouts give way to it.
    const QString message = bar_->currentMessage();
    if (!message.isEmpty()) {
        rest += bar_->fontMetrics().horizontalAdvance(message) + 2 * spacing;
    }
    // The most important wanted fields while they fit.
    int used = rest;
    bool room = true;
    for (const Field& field : fields_) {
        if (field.wanted) {
            used += field.widest + spacing;
            room = room && used <= bar_->width();
        }
        const bool visible = field.wanted && room;
        if (field.label->isVisibleTo(bar_) != visible) {
            field.label->setVisible(visible);
        }
    }
}

std::vector<QLabel*> StatusFields::hiddenForRoom() const
{
    std::vector<QLabel*> hidden;
    for (const Field& field : fields_) {
        if (field.wanted && !field.label->isVisibleTo(bar_)) {
            hidden.push_back(field.label);
        }
    }
    return hidden;
}

void StatusFields::showTip()
{
    QStringList texts;
    for (QLabel* label : hiddenForRoom()) {
        texts << label->text();
    }
    const QString tip = texts.isEmpty() ? QString() : tr("Not shown for lack of room:\n%1").arg(texts.join('\n'));
    if (bar_->toolTip() != tip) {
        bar_->setToolTip(tip);
    }
}

void StatusFields::forgetWidths()
{
    for (Field& field : fields_) {
        field.widest = 0;
        field.label->setMinimumWidth(0);
    }
    refitLater();
}

bool StatusFields::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == bar_) {
        if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
            forgetWidths();  // the texts' widths in the new font
        } else if (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest) {
            refitLater();
        }
    }
    return QObject::eventFilter(watched, event);
}

void StatusFields::refitLater()
{
    dirty_ = true;
    if (pending_) {
        return;
    }
    pending_ = true;
    // After the event: the bar's layout is not to be changed from within its own resize.
    QTimer::singleShot(0, this, [this] {
        pending_ = false;
        fit();
    });
}

}  // namespace granular::ui
