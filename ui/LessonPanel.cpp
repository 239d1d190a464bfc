#include "LessonPanel.h"

#include "ValueText.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStringList>
#include <QVBoxLayout>

#include <algorithm>

namespace granular::ui {

namespace {

QString actionText(LessonAction action)
{
    switch (action) {
    case LessonAction::Play:
        return LessonPanel::tr("Play");
    case LessonAction::Pause:
        return LessonPanel::tr("Pause");
    case LessonAction::Reset:
        return LessonPanel::tr("Reset");
    case LessonAction::LoadStep:
        return LessonPanel::tr("Load step");
    case LessonAction::None:
        break;
    }
    return {};
}

}  // namespace

LessonPanel::LessonPanel(QWidget* parent)
    : QWidget(parent), counter_(new QLabel(this)), text_(new QLabel(this)), apply_(new QPushButton(this)),
      back_(new QPushButton(tr("< Back"), this)), next_(new QPushButton(tr("Next >"), this))
{
    counter_->setObjectName(QStringLiteral("lessonCounter"));
    text_->setObjectName(QStringLiteral("lessonText"));
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::PlainText);
    text_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    apply_->setObjectName(QStringLiteral("lessonApply"));
    back_->setObjectName(QStringLiteral("lessonBack"));
    next_->setObjectName(QStringLiteral("lessonNext"));
    connect(apply_, &QPushButton::clicked, this, &LessonPanel::applyStep);
    connect(back_, &QPushButton::clicked, this, &LessonPanel::back);
    connect(next_, &QPushButton::clicked, this, &LessonPanel::next);

    auto* navigation = new QHBoxLayout;
    navigation->addWidget(back_);
    navigation->addStretch(1);
    navigation->addWidget(next_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(counter_);
    layout->addWidget(text_, 1);
    layout->addWidget(apply_);
    layout->addLayout(navigation);
    showStep(0);
}

bool LessonPanel::setLesson(const Lesson& lesson, const QString& origin)
{
    const bool same = origin == origin_ && lesson == lesson_;
    lesson_ = lesson;
    origin_ = origin;
    showStep(same ? step_ : 0);
    return !same;
}

void LessonPanel::showStep(int step)
{
    const int count = static_cast<int>(lesson_.size());
    step_ = std::clamp(step, 0, std::max(0, count - 1));
    if (lesson_.empty()) {
        counter_->setText(tr("This scenario has no lesson."));
        text_->clear();
        apply_->hide();
        back_->setEnabled(false);
        next_->setEnabled(false);
        return;
    }
    const LessonStep& current = lesson_[static_cast<std::size_t>(step_)];
    counter_->setText(tr("Step %1 of %2").arg(step_ + 1).arg(count));
    text_->setText(QString::fromStdString(current.text));
    const QString what = suggestion(current);
    // The action on a line of its own: on one line, "Set pressure.external = 4 Pa, then Play" widened the dock in
    // presentation mode (and the view and plots shrank) at the step that showed it.
    QString label = what;
    label.replace(QStringLiteral(", then "), QStringLiteral(",\nthen "));
    apply_->setText(label);
    apply_->setToolTip(what);
    apply_->setVisible(!what.isEmpty());
    back_->setEnabled(step_ > 0);
    next_->setEnabled(step_ + 1 < count);
}

void LessonPanel::applyStep()
{
    if (!lesson_.empty()) {
        emit applyRequested(lesson_[static_cast<std::size_t>(step_)]);
    }
}

QString LessonPanel::suggestion(const LessonStep& step)
{
    QStringList changes;
    for (const auto& change : step.changes) {
        const QString key = QString::fromStdString(change.key);
        changes << tr("%1 = %2").arg(key, withUnit(key, displayText(change.value)));
    }
    QString action = actionText(step.action);
    if (changes.isEmpty()) {
        return action;
    }
    const QString set = tr("Set %1").arg(changes.join(QStringLiteral(", ")));
    return action.isEmpty() ? set : tr("%1, then %2").arg(set, action);
}

}  // namespace granular::ui
