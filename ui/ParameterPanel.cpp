#include "ParameterPanel.h"

#include "BuiltinScenarios.h"
#include "ValueText.h"
#include "scenario/Schema.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>

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

/// The groups that only one setup uses, and that setup.
const std::map<std::string, std::string, std::less<>>& setupGroups()
{
    static const std::map<std::string, std::string, std::less<>> groups{
        {"piston", "piston"},     {"chain", "chain"},   {"drum", "drum"},
        {"pressure", "periodic"}, {"cell", "periodic"}, {"compression", "compression"}};
    return groups;
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
const QString kErrorStyle = QStringLiteral("border: 1px solid #c62828; background: #fdecea;");

}  // namespace

struct ParameterPanel::Row {
    const Parameter* parameter = nullptr;
    QLineEdit* line = nullptr;
    QCheckBox* check = nullptr;
    QComboBox* combo = nullptr;
    QLabel* mutability = nullptr;
    QString value;  ///< the value the simulation holds, as displayed
};

ParameterPanel::ParameterPanel(QWidget* parent)
    : QWidget(parent), scenarioPicker_(new QComboBox(this)), description_(new QLabel(this)), error_(new QLabel(this))
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
    description_->setStyleSheet(QStringLiteral("color: palette(dark);"));
    error_->setWordWrap(true);
    error_->setObjectName(QStringLiteral("parameterError"));
    error_->setStyleSheet(QStringLiteral("color: #c62828;"));
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
    std::map<std::string, QFormLayout*, std::less<>> layouts;
    std::vector<std::string> order;
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
            order.push_back(group);
        }
        Row& row = rows_[p.key];
        row.parameter = &p;
        auto* field = new QWidget(scroll->widget());
        auto* fieldLayout = new QHBoxLayout(field);
        fieldLayout->setContentsMargins(0, 0, 0, 0);
        fieldLayout->setSpacing(4);
        fieldLayout->addWidget(makeEditor(p, row), 1);
        if (!p.unit.empty() && p.unit != "1") {
            fieldLayout->addWidget(new QLabel(QString::fromStdString(p.unit), field));
        }
        row.mutability = new QLabel(field);
        row.mutability->setObjectName(QStringLiteral("mutability"));
        fieldLayout->addWidget(row.mutability);
        const std::string name = p.key.substr(p.key.find('.') == std::string::npos ? 0 : p.key.find('.') + 1);
        auto* label = new QLabel(QString::fromStdString(name), field);
        label->setToolTip(tooltipFor(p));
        field->setToolTip(tooltipFor(p));
        layouts[group]->addRow(label, field);
        setRowValue(row, displayText(p.defaultValue));
        showMutability(row, false);
    }
    for (const auto& group : order) {
        formLayout->addWidget(groups_[group]);
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
        row.combo = new QComboBox(this);
        for (const auto& choice : p.choices) {
            row.combo->addItem(QString::fromStdString(choice));
        }
        connect(row.combo, &QComboBox::activated, this,
                [this, key, combo = row.combo](int index) { commit(key, combo->itemText(index)); });
        return row.combo;
    case ParameterKind::Real:
    case ParameterKind::Integer:
    case ParameterKind::Text:
        row.line = new QLineEdit(this);
        row.line->setObjectName(QString::fromStdString(key));
        connect(row.line, &QLineEdit::editingFinished, this, [this, key, line = row.line] {
            // editingFinished also fires when focus leaves an untouched field.
            if (line->text().trimmed() != rows_.at(key).value) {
                commit(key, line->text().trimmed());
            }
        });
        return row.line;
    }
    return nullptr;
}

void ParameterPanel::commit(const std::string& key, const QString& text)
{
    emit parameterEdited(QString::fromStdString(key), text);
}

void ParameterPanel::setRowValue(Row& row, const QString& text)
{
    row.value = text;
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
        row.mutability->setStyleSheet(QStringLiteral("color: #2e7d32;"));
    } else if (pending) {
        row.mutability->setText(tr("pending reset"));
        row.mutability->setStyleSheet(QStringLiteral("color: #e65100; font-weight: bold;"));
    } else {
        row.mutability->setText(tr("applies on reset"));
        row.mutability->setStyleSheet(QStringLiteral("color: palette(dark);"));
    }
}

void ParameterPanel::setRowError(Row& row, bool error)
{
    QWidget* editor = row.line != nullptr    ? static_cast<QWidget*>(row.line)
                      : row.check != nullptr ? static_cast<QWidget*>(row.check)
                                             : static_cast<QWidget*>(row.combo);
    editor->setStyleSheet(error ? kErrorStyle : QString());
}

void ParameterPanel::setScenario(const Scenario& scenario, const Settings& settings, const QString& origin)
{
    for (auto& [key, row] : rows_) {
        setRowValue(row, displayText(scenario.get(key)));
        setRowError(row, false);
        showMutability(row, false);
    }
    error_->clear();
    error_->hide();
    showGroupsFor(std::string(choiceName(settings.setup)));
    description_->setText(QStringLiteral("<b>%1</b>: %2")
                              .arg(QString::fromStdString(settings.name).toHtmlEscaped(),
                                   QString::fromStdString(settings.description).toHtmlEscaped()));
    origin_ = origin;
    int index = scenarioPicker_->findData(origin);
    if (index < 0) {
        // A file: listed by its name, with the full path as data and tooltip.
        index = scenarioPicker_->count() - 2;  // before the separator
        scenarioPicker_->insertItem(index, QFileInfo(origin).fileName(), origin);
        scenarioPicker_->setItemData(index, origin, Qt::ToolTipRole);
    }
    scenarioPicker_->setCurrentIndex(index);
}

void ParameterPanel::showGroupsFor(const std::string& setup)
{
    for (const auto& [group, box] : groups_) {
        const auto only = setupGroups().find(group);
        box->setVisible(only == setupGroups().end() || only->second == setup);
    }
}

void ParameterPanel::markAccepted(const QString& key, const QString& value, bool live)
{
    const auto it = rows_.find(key.toStdString());
    if (it == rows_.end()) {
        return;
    }
    Row& row = it->second;
    const bool changed = row.value != value;
    setRowValue(row, value);
    setRowError(row, false);
    if (!live && changed) {
        showMutability(row, true);
    }
    if (key == QStringLiteral("setup")) {
        showGroupsFor(value.toStdString());
    }
    if (error_->property("key").toString() == key) {
        error_->clear();
        error_->hide();
    }
}

void ParameterPanel::markRejected(const QString& key, const QString& message)
{
    const auto it = rows_.find(key.toStdString());
    if (it != rows_.end()) {
        setRowError(it->second, true);
        // Choices and booleans cannot hold a refused value: show the one in force again.
        if (it->second.line == nullptr) {
            setRowValue(it->second, it->second.value);
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
    if (!nameOrPath.isEmpty() && nameOrPath != origin_) {
        emit scenarioChosen(nameOrPath);
    }
}

}  // namespace granular::ui
