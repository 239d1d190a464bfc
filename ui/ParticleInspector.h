#pragma once

#include <QWidget>

class QLabel;

namespace granular {
struct Frame;
}

namespace granular::ui {

/// What is known about the particle picked in the view: id, radius, position, velocity,
/// coordination, largest overlap and the normal force of each contact with another particle.
/// Follows the particle from frame to frame. Lives on the GUI thread.
class ParticleInspector final : public QWidget {
    Q_OBJECT

public:
    explicit ParticleInspector(QWidget* parent = nullptr);

    /// Shows particle `index` of `frame` (-1 or a null frame: nothing picked); `meanForce` is
    /// <f_n> of the frame, N.
    void inspect(const Frame* frame, int index, double meanForce);
    [[nodiscard]] int particle() const { return index_; }
    /// The text shown (tests).
    [[nodiscard]] QString text() const;

private:
    QLabel* label_;
    int index_ = -1;
};

}  // namespace granular::ui
