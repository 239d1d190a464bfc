#pragma once

#include "scenario/Lesson.h"

#include <QString>
#include <QWidget>

class QLabel;
class QPushButton;

namespace granular::ui {

/// The scenario's guided lesson, one step at a time: the step's text, Back / Next, and a button that applies
/// the step's suggestion (its parameter changes, then its action) through applyRequested(). The studio shows it
/// in the side dock whenever the scenario carries a lesson. Lives on the GUI thread.
class LessonPanel final : public QWidget {
    Q_OBJECT

public:
    explicit LessonPanel(QWidget* parent = nullptr);

    /// Shows `lesson` of the scenario loaded from `origin`, from its first step; the same lesson of the same
    /// origin again (a reset, a method switch) keeps the step on show. Returns true when another lesson (or none)
    /// replaced the one on show.
    bool setLesson(const Lesson& lesson, const QString& origin);
    [[nodiscard]] const Lesson& lesson() const { return lesson_; }
    /// The step on show, from 0; -1 without a lesson.
    [[nodiscard]] int step() const { return lesson_.empty() ? -1 : step_; }
    void showStep(int step);
    void next() { showStep(step_ + 1); }
    void back() { showStep(step_ - 1); }
    /// Applies the step on show (as its button does).
    void applyStep();

    /// What the step's button does, in words ("Set solver.iterations = 80, then Reset"); empty when the step
    /// suggests nothing.
    [[nodiscard]] static QString suggestion(const LessonStep& step);

signals:
    /// The user asked for the step's changes and action.
    void applyRequested(const granular::LessonStep& step);

private:
    Lesson lesson_;
    QString origin_;
    int step_ = 0;
    QLabel* counter_;
    QLabel* text_;
    QPushButton* apply_;
    QPushButton* back_;
    QPushButton* next_;
};

}  // namespace granular::ui
