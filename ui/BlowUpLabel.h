#pragma once

#include <QLabel>
#include <QString>

class QEvent;

namespace granular::ui {

/// The status bar's red label of a blow-up: "Blow-up (paused): " and the blow-up guard's message, cut short ("...") to
/// half its window's width (the guard's message runs to 200 letters: whole, it would push the readouts and any
/// transient message out of the bar), the whole message in its tooltip. Meant as a permanent widget of the bar, which a
/// transient message (a Play refused on the broken world, a state saved) does not hide. Hidden while there is no
/// message.
class BlowUpLabel : public QLabel {
    Q_OBJECT

public:
    /// `parent`: a widget of the window whose width the text is fitted to.
    explicit BlowUpLabel(QWidget* parent);

    /// Shows the guard's `message`.
    void showMessage(const QString& message);
    /// Hides the label and forgets its message (another run started).
    void forget();
    /// The guard's message while shown; empty otherwise.
    [[nodiscard]] const QString& message() const { return message_; }

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The text for the window's present width, in the label's present font.
    void fit();

    QString message_;
};

}  // namespace granular::ui
