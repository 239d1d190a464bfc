#pragma once

#include <QLabel>
#include <QSize>
#include <QString>

class QEvent;
class QResizeEvent;

namespace granular::ui {

/// A one-line label that shows as much of its text as its width allows, cut with "...": a plain QLabel widens to its
/// whole text, so a long advice or blow-up message in the status bar pushed the readouts beside it out of the bar, or
/// ran past the window's edge cut mid-number. Its size hint asks for the whole text (up to the maximum width set); it
/// takes any width down to a few letters. The tooltip is the caller's (e.g. the whole text).
class ElidedLabel : public QLabel {
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget* parent);

    /// The text to show, cut to the label's width.
    void setWholeText(const QString& text);
    [[nodiscard]] const QString& wholeText() const { return whole_; }

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    /// px the label adds around its text (its margins and frame).
    [[nodiscard]] int overhead() const;
    /// Cuts the whole text to the present width.
    void fit();

    QString whole_;
};

}  // namespace granular::ui
