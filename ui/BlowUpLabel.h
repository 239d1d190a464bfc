#pragma once

#include "ElidedLabel.h"

#include <QString>

class QEvent;

namespace granular::ui {

/// The status bar's red label of a blow-up: "Blow-up (paused): " and the blow-up guard's message, at most half its
/// window's width and cut short ("...") to the width it gets (the guard's message runs to 200 letters: whole, it would
/// push the readouts and any transient message out of the bar), the whole message in its tooltip. Meant as a permanent
/// widget of the bar, which a transient message (a Play refused on the broken world, a state saved) does not hide.
/// Hidden while there is no message.
class BlowUpLabel : public ElidedLabel {
    Q_OBJECT

public:
    /// `parent`: a widget of the window whose width limits the label's.
    explicit BlowUpLabel(QWidget* parent);

    /// Shows the guard's `message`.
    void showMessage(const QString& message);
    /// Hides the label and forgets its message (another run started).
    void forget();
    /// The guard's message while shown; empty otherwise.
    [[nodiscard]] const QString& message() const { return message_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// At most half the window's width (kLeastWidth at least).
    void limitWidth();

    QString message_;
};

}  // namespace granular::ui
