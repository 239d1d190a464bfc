#pragma once

#include <QObject>
#include <QString>

#include <vector>

class QLabel;
class QStatusBar;

namespace granular::ui {

/// The status bar's readouts (time, contacts, residual, ...) shown whole or not at all: where the bar is too narrow
/// for all of them (a projector's 1280 pixels in presentation mode), the least important are hidden rather than every
/// field cut mid-number; their texts go into the bar's tooltip. A field keeps the widest width its text has had since
/// the last font change, so that a number growing by a digit does not make the fields come and go from one step to
/// the next (until the next run or font change). The bar's other widgets (advice, a blow-up's message, recording) and a
/// transient message keep their room: the fields are fitted again whenever the bar's layout or message changes.
class StatusFields : public QObject {
    Q_OBJECT

public:
    /// `byImportance`: permanent widgets of `bar`, the most important first (they stay where they were added).
    StatusFields(QStatusBar* bar, const std::vector<QLabel*>& byImportance);

    /// Whether a field has something to show at all (the piston's force only where there is a piston): a field not
    /// wanted is hidden whatever the room.
    void setWanted(QLabel* label, bool wanted);
    /// Shows the most important wanted fields that fit and updates the tooltip (lays out again only where a field
    /// grew or something changed). A resize, a font change or a change of the bar's layout (a shown label's text, a
    /// widget shown or hidden) refits by itself, after the event: a text change needs no call.
    void fit();

    /// Forgets the fields' widest widths (a new run: the last one's long numbers no longer count) and refits.
    void forgetWidths();

    /// The fields hidden for lack of room, in order of importance (wanted ones only).
    [[nodiscard]] std::vector<QLabel*> hiddenForRoom() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Field {
        QLabel* label = nullptr;
        bool wanted = true;
        int widest = 0;  ///< px, the widest text since the last font change
    };

    void refitLater();
    void layOut();
    void showTip();

    QStatusBar* bar_;
    std::vector<Field> fields_;
    bool dirty_ = true;     ///< the room or the wanted fields changed since the last layout
    bool pending_ = false;  ///< a refit is queued
};

}  // namespace granular::ui
