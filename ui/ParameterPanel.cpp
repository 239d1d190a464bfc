#include "ParameterPanel.h"

#include "BuiltinScenarios.h"
#include "LabelColours.h"
#include "ValueText.h"
#include "scenario/Schema.h"
#include "settings/ParameterUse.h"
#include "settings/SettingsBinding.h"

#include <QApplication>
#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFont>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <exception>

namespace granular::ui {

namespace {

/// Keys that name and describe a scenario: shown as its title, not edited.
bool isDescriptive(const std::string& key)
{
    return key == "name" || key == "description";
}

/// The group a key belongs to: the part before its first dot, "general" for plain keys.
std::string groupOf(const std::string& key)
{
    const auto dot = key.find('.');
    return dot == std::string::npos ? std::string("general") : key.substr(0, dot);
}

QString tooltipFor(const Parameter& p)
{
    QString tip = QStringLiteral("<b>%1</b><br>%2<br>accepted: %3")
                      .arg(QString::fromStdString(p.key), QString::fromStdString(p.description).toHtmlEscaped(),
                           QString::fromStdString(p.acceptedDescription()).toHtmlEscaped());
    tip += p.mutability == Mutability::Live ? QStringLiteral("<br>changes the running simulation at once")
                                            : QStringLiteral("<br>applies when the simulation is reset");
    return tip;
}

const QString kOpenFileItem = QStringLiteral("Open file...");
/// The picker items' role that marks a saved state's file (bool).
constexpr int kSavedStateRole = Qt::UserRole + 1;
/// A refused field's background and text.
const QColor kRefusedBackground(0xfd, 0xec, 0xea);
const QColor kRefusedText(0xb7, 0x1c, 0x1c);

/// Colours a label's text through its palette, and makes it bold or italic through a font that sets only that: a
/// style sheet would keep the window's font from reaching the label (in presentation mode the description, the
/// hints and the "on reset" marks stayed at the usual size).
void styleText(QLabel& label, const QColor& colour, bool bold = false, bool italic = false)
{
    setLabelColours(label, colour);
    QFont font;
    font.setBold(bold);
    font.setItalic(italic);
    label.setFont(font);
}

/// The text colour of keys the run does not use and of their reasons.
QColor unusedColour()
{
    return QApplication::palette().color(QPalette::Mid);
}

/// A choice box that the mouse wheel changes only while it has the keyboard focus (a click or Tab gives it): scrolling
/// the panel over a box changed the box under the pointer instead (solver.sweep and solver.criterion of a playing run,
/// applied at once; the scenario picker would load another scenario). The wheel then scrolls the panel.
class ChoiceBox final : public QComboBox {
public:
    explicit ChoiceBox(QWidget* parent) : QComboBox(parent) { setFocusPolicy(Qt::StrongFocus); }

protected:
    void wheelEvent(QWheelEvent* event) override
    {
        if (!hasFocus()) {
            event->ignore();  // to the scroll area
            return;
        }
        QComboBox::wheelEvent(event);
    }
};

}  // namespace

struct ParameterPanel::Row {
    const Parameter* parameter = nullptr;
    QLineEdit* line = nullptr;
    QCheckBox* check = nullptr;
    QComboBox* combo = nullptr;
    QLabel* mutability = nullptr;
    QLabel* label = nullptr;   ///< the key's name left of the field
    QWidget* field = nullptr;  ///< editor, unit, mutability and the reason under them
    QLabel* reason = nullptr;  ///< why the key is unused; hidden while it is used
    QString value;             ///< the value the simulation holds, as displayed
    QString sent;              ///< the text last sent from the field, until the simulation answers
    QString refused;           ///< the text the last refusal was of (a text field's), until it is withdrawn
};

ParameterPanel::ParameterPanel(QWidget* parent)
    : QWidget(parent), scenarioPicker_(new ChoiceBox(this)), description_(new QLabel(this)), error_(new QLabel(this))
{
    scenarioPicker_->setObjectName(QStringLiteral("scenarioPicker"));
    scenarioPicker_->setToolTip(tr("Built-in scenarios, or a scenario JSON file"));
    for (const auto& builtin : builtinScenarios()) {
        scenarioPicker_->addItem(QString::fromStdString(builtin.name), QString::fromStdString(builtin.name));
        scenarioPicker_->setItemData(scenarioPicker_->count() - 1, QString::fromStdString(builtin.description),
                                     Qt::ToolTipRole);
    }
    scenarioPicker_->insertSeparator(scenarioPicker_->count());
    scenarioPicker_->addItem(kOpenFileItem);
    connect(scenarioPicker_, &QComboBox::activated, this, &ParameterPanel::chooseScenario);

    description_->setWordWrap(true);
    styleText(*description_, QApplication::palette().color(QPalette::Dark));
    error_->setWordWrap(true);
    error_->setObjectName(QStringLiteral("parameterError"));
    styleText(*error_, QColor(0xc6, 0x28, 0x28));
    error_->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* picker = new QFormLayout;
    picker->addRow(tr("Scenario"), scenarioPicker_);
    layout->addLayout(picker);
    layout->addWidget(description_);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* form = new QWidget(scroll);
    form->setLayout(new QVBoxLayout);
    form->layout()->setContentsMargins(0, 0, 0, 0);
    scroll->setWidget(form);
    layout->addWidget(scroll, 1);
    layout->addWidget(error_);
    buildForm();
}

ParameterPanel::~ParameterPanel() = default;

void ParameterPanel::buildForm()
{
    auto* scroll = findChild<QScrollArea*>();
    auto* formLayout = qobject_cast<QVBoxLayout*>(scroll->widget()->layout());
    usedGroups_ = new QVBoxLayout;
    usedGroups_->setContentsMargins(0, 0, 0, 0);
    formLayout->addLayout(usedGroups_);
    unusedToggle_ = new QToolButton(scroll->widget());
    unusedToggle_->setObjectName(QStringLiteral("unusedGroups"));
    unusedToggle_->setCheckable(true);
    unusedToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    unusedToggle_->setArrowType(Qt::RightArrow);
    unusedToggle_->setAutoRaise(true);
    unusedToggle_->setToolTip(tr("Groups of keys that this run's setup and method do not read"));
    formLayout->addWidget(unusedToggle_);
    unusedBox_ = new QWidget(scroll->widget());
    unusedGroups_ = new QVBoxLayout(unusedBox_);
    unusedGroups_->setContentsMargins(0, 0, 0, 0);
    unusedBox_->hide();
    formLayout->addWidget(unusedBox_);
    connect(unusedToggle_, &QToolButton::toggled, this, [this](bool open) {
        unusedBox_->setVisible(open);
        unusedToggle_->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });

    std::map<std::string, QFormLayout*, std::less<>> layouts;
    for (const Parameter& p : Schema::instance().parameters()) {
        if (isDescriptive(p.key)) {
            continue;
        }
        const std::string group = groupOf(p.key);
        if (!layouts.contains(group)) {
            auto* box = new QGroupBox(QString::fromStdString(group), scroll->widget());
            auto* layout = new QFormLayout(box);
            layout->setContentsMargins(6, 4, 6, 4);
            layout->setVerticalSpacing(3);
            layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
            layouts[group] = layout;
            groups_[group] = box;
            groupNames_.push_back(group);
            usedGroups_->addWidget(box);
        }
        groupKeys_[group].push_back(p.key);
        Row& row = rows_[p.key];
        row.parameter = &p;
        row.field = new QWidget(scroll->widget());
        auto* column = new QVBoxLayout(row.field);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(1);
        auto* fieldLayout = new QHBoxLayout;
        fieldLayout->setSpacing(4);
        fieldLayout->addWidget(makeEditor(p, row), 1);
        if (!p.unit.empty() && p.unit != "1") {
            fieldLayout->addWidget(new QLabel(QString::fromStdString(p.unit), row.field));
        }
        row.mutability = new QLabel(row.field);
        row.mutability->setObjectName(QStringLiteral("mutability"));
        fieldLayout->addWidget(row.mutability);
        column->addLayout(fieldLayout);
        row.reason = new QLabel(row.field);
        row.reason->setObjectName(QStringLiteral("unusedReason"));
        row.reason->setWordWrap(true);
        styleText(*row.reason, unusedColour(), false, true);
        row.reason->hide();
        column->addWidget(row.reason);
        const std::string name = p.key.substr(p.key.find('.') == std::string::npos ? 0 : p.key.find('.') + 1);
        row.label = new QLabel(QString::fromStdString(name), row.field);
        row.label->setToolTip(tooltipFor(p));
        row.field->setToolTip(tooltipFor(p));
        layouts[group]->addRow(row.label, row.field);
        setRowValue(row, displayText(p.defaultValue));
        showMutability(row, false);
    }
    formLayout->addStretch(1);
}

QWidget* ParameterPanel::makeEditor(const Parameter& p, Row& row)
{
    const std::string key = p.key;
    switch (p.kind) {
    case ParameterKind::Boolean:
        row.check = new QCheckBox(this);
        connect(row.check, &QCheckBox::clicked, this,
                [this, key](bool on) { commit(key, on ? QStringLiteral("true") : QStringLiteral("false")); });
        return row.check;
    case ParameterKind::Choice:
        row.combo = new ChoiceBox(this);
        row.combo->setObjectName(QString::fromStdString(key));
        for (const auto& choice : p.choices) {
            row.combo->addItem(QString::fromStdString(choice));
        }
        // As narrow as the dock needs (the popup shows every choice whole): sized to its longest choice
        // ("fully_implicit") at a projector's text size, a box pushed the units and marks past the dock's edge.
        row.combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        row.combo->setMinimumContentsLength(6);
        connect(row.combo, &QComboBox::activated, this,
                [this, key, combo = row.combo](int index) { commit(key, combo->itemText(index)); });
        return row.combo;
    case ParameterKind::Real:
    case ParameterKind::Integer:
    case ParameterKind::Text:
        row.line = new QLineEdit(this);
        row.line->setObjectName(QString::fromStdString(key));
        // editingFinished also fires when focus leaves an untouched field.
        connect(row.line, &QLineEdit::editingFinished, this, [this, key] { commitTyped(key, rows_.at(key)); });
        // A refused text is sent again only once the user edits the field (not at every focus change or Reset).
        connect(row.line, &QLineEdit::textEdited, this, [this, key] { rows_.at(key).sent.clear(); });
        return row.line;
    }
    return nullptr;
}

void ParameterPanel::commitTyped()
{
    for (auto& [key, row] : rows_) {
        if (row.line != nullptr) {
            commitTyped(key, row);
        }
    }
}

void ParameterPanel::commitTyped(const std::string& key, Row& row)
{
    const QString text = row.line->text().trimmed();
    if (text == row.value) {
        // Back to the value in force: nothing to send, and a refusal of another text no longer stands (one of the
        // value itself, e.g. by a reset, does).
        row.sent.clear();
        if (row.refused != row.value) {
            clearError(key, row);
        }
        return;
    }
    if (text != row.sent) {  // once: Enter, then the focus leaving, send it one time
        row.sent = text;
        commit(key, text);
    }
}

void ParameterPanel::clearError(const std::string& key, Row& row)
{
    row.refused.clear();
    setRowError(row, false);
    if (error_->property("key").toString().toStdString() == key) {
        error_->clear();
        error_->hide();
    }
}

void ParameterPanel::commit(const std::string& key, const QString& text)
{
    emit parameterEdited(QString::fromStdString(key), text);
}

void ParameterPanel::setRowValue(Row& row, const QString& text)
{
    row.value = text;
    row.sent.clear();
    if (row.line != nullptr) {
        row.line->setText(text);
        row.line->setCursorPosition(0);
    } else if (row.check != nullptr) {
        row.check->setChecked(text == QStringLiteral("true"));
    } else if (row.combo != nullptr) {
        row.combo->setCurrentText(text);
    }
}

void ParameterPanel::showMutability(Row& row, bool pending)
{
    if (row.parameter->mutability == Mutability::Live) {
        row.mutability->setText(tr("live"));
        styleText(*row.mutability, QColor(0x2e, 0x7d, 0x32));
    } else if (pending) {
        row.mutability->setText(tr("pending reset"));
        styleText(*row.mutability, QColor(0xe6, 0x51, 0x00), true);
    } else {
        // Short: "applies on reset" pushed the fields past a projector-sized dock's edge (the tooltip says more).
        row.mutability->setText(tr("on reset"));
        styleText(*row.mutability, QApplication::palette().color(QPalette::Dark));
    }
}

void ParameterPanel::setRowError(Row& row, bool error)
{
    QWidget* editor = row.line != nullptr    ? static_cast<QWidget*>(row.line)
                      : row.check != nullptr ? static_cast<QWidget*>(row.check)
                                             : static_cast<QWidget*>(row.combo);
    // Through the palette, not a style sheet, which kept the field at the usual text size in presentation mode; the
    // "refused" property says it to tests and scripts.
    editor->setProperty("refused", error);
    if (error) {
        QPalette palette = editor->palette();
        for (const auto role : {QPalette::Base, QPalette::Button}) {
            palette.setColor(role, kRefusedBackground);
        }
        for (const auto role : {QPalette::Text, QPalette::ButtonText}) {
            palette.setColor(role, kRefusedText);
        }
        editor->setPalette(palette);
    } else {
        editor->setPalette(QPalette());  // the window's again
    }
}

void ParameterPanel::setScenario(const Scenario& scenario, const Settings& settings, const QString& origin,
                                 const std::vector<std::string>& waiting, bool savedState)
{
    const std::string errorKey = error_->property("key").toString().toStdString();
    bool errorStands = false;
    for (auto& [key, row] : rows_) {
        const QString value = displayText(scenario.get(key));
        const QString typed = row.line != nullptr ? row.line->text().trimmed() : QString();
        // The user's text stays where the new run would overwrite it: a text whose refusal stands (typed, then Reset:
        // the refusal came just before the rebuilt run, which wiped the field and its message), and one being typed
        // and not sent yet (a run that arrives while the user types, e.g. after a slow reset).
        const bool refused = row.line != nullptr && !row.refused.isEmpty() && typed == row.refused && typed != value;
        const bool typing = row.line != nullptr && row.line->hasFocus() && row.line->isModified() &&
                            typed != row.sent && typed != row.value && typed != value;
        if (refused || typing) {
            row.value = value;  // in force; the field keeps the text
            errorStands = errorStands || (refused && key == errorKey);
        } else {
            setRowValue(row, value);
            setRowError(row, false);
        }
        showMutability(row, std::find(waiting.begin(), waiting.end(), key) != waiting.end());
    }
    if (!errorStands) {
        error_->clear();
        error_->hide();
    }
    scenario_ = scenario;
    showUse();
    description_->setText(QStringLiteral("<b>%1</b>: %2")
                              .arg(QString::fromStdString(settings.name).toHtmlEscaped(),
                                   QString::fromStdString(settings.description).toHtmlEscaped()));
    origin_ = origin;
    int index = scenarioPicker_->findData(origin);
    if (index < 0) {
        // A file: listed by its name, with the full path as data and tooltip (a saved state marked as one: picking it
        // opens the state again, where it was loaded as a scenario's JSON and refused).
        index = scenarioPicker_->count() - 2;  // before the separator
        const QString name = QFileInfo(origin).fileName();
        scenarioPicker_->insertItem(index, savedState ? tr("state: %1").arg(name) : name, origin);
        scenarioPicker_->setItemData(index, origin, Qt::ToolTipRole);
        scenarioPicker_->setItemData(index, savedState, kSavedStateRole);
    }
    scenarioPicker_->setCurrentIndex(index);
}

void ParameterPanel::showUse()
{
    Settings settings;
    try {
        settings = parseSettings(scenario_);
    } catch (const std::exception&) {
        return;  // a combination the next reset refuses: the last use shown stays
    }
    int folded = 0;
    for (const auto& group : groupNames_) {
        auto* box = groups_.at(group);
        auto* layout = qobject_cast<QFormLayout*>(box->layout());
        while (layout->rowCount() > 0) {
            const QFormLayout::TakeRowResult taken = layout->takeRow(0);
            delete taken.labelItem;  // the layout's items; the widgets stay
            delete taken.fieldItem;
        }
        std::vector<Row*> used;
        std::vector<Row*> unused;
        for (const auto& key : groupKeys_.at(group)) {
            Row& row = rows_.at(key);
            const QString reason = QString::fromStdString(unusedReason(key, settings));
            row.reason->setText(reason.isEmpty() ? QString() : tr("not used: %1").arg(reason));
            row.reason->setVisible(!reason.isEmpty());
            QPalette palette = QApplication::palette();
            if (!reason.isEmpty()) {
                palette.setColor(QPalette::WindowText, unusedColour());
            }
            row.label->setPalette(palette);
            (reason.isEmpty() ? used : unused).push_back(&row);
        }
        for (auto* list : {&used, &unused}) {
            for (Row* row : *list) {
                layout->addRow(row->label, row->field);
                row->label->show();
                row->field->show();
            }
        }
        usedGroups_->removeWidget(box);
        unusedGroups_->removeWidget(box);
        if (used.empty()) {
            unusedGroups_->addWidget(box);
            ++folded;
        } else {
            usedGroups_->addWidget(box);
        }
    }
    // Short: at a projector's text size "Not used by this run: 5 group(s)" was the widest line of the panel and
    // pushed every field's unit and mark past the dock's edge.
    unusedToggle_->setText(folded == 1 ? tr("Not used: 1 group") : tr("Not used: %1 groups").arg(folded));
    unusedToggle_->setVisible(folded > 0);
}

void ParameterPanel::markAccepted(const QString& key, const QString& value, bool live)
{
    const auto it = rows_.find(key.toStdString());
    if (it == rows_.end()) {
        return;
    }
    Row& row = it->second;
    setRowValue(row, value);
    showMutability(row, !live);  // a key applied on reset: pending while its edit waits
    try {
        scenario_.setFromText(key.toStdString(), value.toStdString());
        showUse();
    } catch (const std::exception&) {
        // The simulation holds the value; only the use shown may lag behind it.
    }
    clearError(key.toStdString(), row);
}

void ParameterPanel::markRejected(const QString& key, const QString& message)
{
    const auto it = rows_.find(key.toStdString());
    if (it != rows_.end()) {
        setRowError(it->second, true);
        // Choices and booleans cannot hold a refused value: show the one in force again.
        if (it->second.line == nullptr) {
            setRowValue(it->second, it->second.value);
        } else {
            it->second.refused = it->second.line->text().trimmed();
        }
    }
    error_->setProperty("key", key);
    error_->setText(message);
    error_->show();
}

QString ParameterPanel::editorText(const QString& key) const
{
    const auto it = rows_.find(key.toStdString());
    if (it == rows_.end()) {
        return {};
    }
    const Row& row = it->second;
    if (row.line != nullptr) {
        return row.line->text();
    }
    if (row.check != nullptr) {
        return row.check->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
    }
    return row.combo->currentText();
}

QString ParameterPanel::mutabilityText(const QString& key) const
{
    const auto it = rows_.find(key.toStdString());
    return it == rows_.end() ? QString() : it->second.mutability->text();
}

QString ParameterPanel::errorText() const
{
    return error_->text();
}

QString ParameterPanel::unusedText(const QString& key) const
{
    const auto it = rows_.find(key.toStdString());
    return it == rows_.end() ? QString() : it->second.reason->text();
}

bool ParameterPanel::rowShown(const QString& key) const
{
    const auto it = rows_.find(key.toStdString());
    return it != rows_.end() && it->second.field->isVisibleTo(this);
}

QStringList ParameterPanel::groupOrder(const QString& group) const
{
    QStringList keys;
    const auto it = groups_.find(group.toStdString());
    if (it == groups_.end()) {
        return keys;
    }
    const auto* layout = qobject_cast<QFormLayout*>(it->second->layout());
    for (int r = 0; r < layout->rowCount(); ++r) {
        auto* item = layout->itemAt(r, QFormLayout::FieldRole);
        for (const auto& [key, row] : rows_) {
            if (item != nullptr && item->widget() == row.field) {
                keys << QString::fromStdString(key);
            }
        }
    }
    return keys;
}

void ParameterPanel::chooseScenario(int index)
{
    if (scenarioPicker_->itemText(index) == kOpenFileItem) {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(),
                                                          tr("Scenario files (*.json);;All files (*)"));
        // Until the controller has loaded it, the picker keeps showing the scenario in force.
        scenarioPicker_->setCurrentIndex(scenarioPicker_->findData(origin_));
        if (!path.isEmpty()) {
            emit scenarioChosen(path);
        }
        return;
    }
    const QString nameOrPath = scenarioPicker_->itemData(index).toString();
    // As for a new file: the scenario in force until the controller has loaded the chosen one (a file that no longer
    // loads leaves the picker on the scenario that runs).
    scenarioPicker_->setCurrentIndex(scenarioPicker_->findData(origin_));
    if (!nameOrPath.isEmpty() && nameOrPath != origin_) {
        if (scenarioPicker_->itemData(index, kSavedStateRole).toBool()) {
            emit stateChosen(nameOrPath);
        } else {
            emit scenarioChosen(nameOrPath);
        }
    }
}

}  // namespace granular::ui
