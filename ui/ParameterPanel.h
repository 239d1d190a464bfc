#pragma once

#include "scenario/Scenario.h"
#include "settings/Settings.h"

#include <QString>
#include <QWidget>

#include <map>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QToolButton;
class QVBoxLayout;

namespace granular {
struct Parameter;
}

namespace granular::ui {

/// The scenario's parameters as a form generated from the schema (core/scenario/Schema.cpp):
/// one row per key with its unit, accepted range and description (tooltip), grouped by the key's
/// first part. The keys that act on this run come first: within a group the unused keys follow the used
/// ones, greyed, with the reason under them (settings/ParameterUse, from the values in force and pending);
/// groups without a used key are folded away under "Not used: N groups". Live keys apply as soon as
/// they are edited; the others say "on reset" and, once changed, "pending reset". A value the
/// simulation rejects is marked and the schema's message shown.
/// On top: the scenario picker (built-ins and "Open file...").
/// Lives on the GUI thread; it only emits edits, the controller decides.
class ParameterPanel final : public QWidget {
    Q_OBJECT

public:
    explicit ParameterPanel(QWidget* parent = nullptr);
    ~ParameterPanel() override;
    Q_DISABLE_COPY_MOVE(ParameterPanel)

    /// A new run: every value from the scenario, the `waiting` keys marked pending reset, `origin` selected in the
    /// picker.
    /// `savedState`: `origin` is a saved state's file, listed in the picker as "state: NAME" (picking it opens that
    /// state again, stateChosen), not as a scenario.
    void setScenario(const Scenario& scenario, const Settings& settings, const QString& origin,
                     const std::vector<std::string>& waiting = {}, bool savedState = false);
    /// The simulation took this value (formatted as in a scenario file); `live` false: its edit waits for a reset.
    void markAccepted(const QString& key, const QString& value, bool live);
    /// The simulation refused the value: the field is marked and the message shown.
    void markRejected(const QString& key, const QString& message);
    /// Sends the values typed into fields but not yet confirmed (no Enter, the focus still in the field), as Enter
    /// would: a Reset from the toolbar or Ctrl+R takes them instead of rebuilding without them (the field then showed
    /// the old value again, with no message).
    void commitTyped();

    /// The text a key's editor shows now (tests).
    [[nodiscard]] QString editorText(const QString& key) const;
    /// "live", "on reset" or "pending reset" (tests).
    [[nodiscard]] QString mutabilityText(const QString& key) const;
    /// The last rejection shown, empty when none.
    [[nodiscard]] QString errorText() const;
    /// Why the key does not act on this run as shown under it, empty when it does (tests).
    [[nodiscard]] QString unusedText(const QString& key) const;
    /// Whether the key's row is on show: false while its group is folded away (tests).
    [[nodiscard]] bool rowShown(const QString& key) const;
    /// The keys of a group in the order shown (tests).
    [[nodiscard]] QStringList groupOrder(const QString& group) const;

signals:
    /// The user changed a value: `text` as typed (or the chosen item).
    void parameterEdited(const QString& key, const QString& text);
    /// The user picked a built-in (its name) or a scenario file (its path).
    void scenarioChosen(const QString& nameOrPath);
    /// The user picked a saved state listed in the picker (its file).
    void stateChosen(const QString& path);

private:
    struct Row;

    void buildForm();
    QWidget* makeEditor(const Parameter& parameter, Row& row);
    static void setRowValue(Row& row, const QString& text);
    static void setRowError(Row& row, bool error);
    /// The row's refusal withdrawn: its field unmarked, and the message hidden where it is the row's.
    void clearError(const std::string& key, Row& row);
    static void showMutability(Row& row, bool pending);
    void commit(const std::string& key, const QString& text);
    /// Sends a field's text when it differs from the value in force and was not just sent.
    void commitTyped(const std::string& key, Row& row);
    void chooseScenario(int index);
    void showUse();

    std::map<std::string, Row, std::less<>> rows_;
    std::map<std::string, QWidget*, std::less<>> groups_;
    std::vector<std::string> groupNames_;                                     ///< in schema order
    std::map<std::string, std::vector<std::string>, std::less<>> groupKeys_;  ///< in schema order
    Scenario scenario_;  ///< the values in force and pending, whose settings decide what is used
    QVBoxLayout* usedGroups_ = nullptr;
    QVBoxLayout* unusedGroups_ = nullptr;
    QToolButton* unusedToggle_ = nullptr;
    QWidget* unusedBox_ = nullptr;
    QComboBox* scenarioPicker_;
    QLabel* description_;
    QLabel* error_;
    QString origin_;
};

}  // namespace granular::ui
