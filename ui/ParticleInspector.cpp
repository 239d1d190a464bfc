#include "ParticleInspector.h"

#include "sim/Frame.h"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace granular::ui {

namespace {

/// Rows of the contact table at most: a rattler has none, a grain of a dense 3D packing about 12.
constexpr std::size_t kMaximumContactRows = 24;

QString number(double x)
{
    return QString::number(x, 'g', 4);
}

QString vector(const Eigen::Vector3f& v, int dimension)
{
    return dimension == 2
               ? QStringLiteral("(%1, %2)").arg(number(static_cast<double>(v.x())), number(static_cast<double>(v.y())))
               : QStringLiteral("(%1, %2, %3)")
                     .arg(number(static_cast<double>(v.x())), number(static_cast<double>(v.y())),
                          number(static_cast<double>(v.z())));
}

}  // namespace

ParticleInspector::ParticleInspector(QWidget* parent) : QWidget(parent), label_(new QLabel(this))
{
    label_->setTextFormat(Qt::RichText);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    label_->setWordWrap(true);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(label_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(scroll);
    inspect(nullptr, -1, 0.0);
}

QString ParticleInspector::text() const
{
    return label_->text();
}

void ParticleInspector::inspect(const Frame* frame, int index, double meanForce)
{
    index_ = index;
    if (frame == nullptr || index < 0 || static_cast<std::size_t>(index) >= frame->position.size()) {
        label_->setText(tr("Click a particle in the view to see its radius, velocity, contacts and forces."));
        return;
    }
    const auto i = static_cast<std::size_t>(index);
    const Eigen::Vector3f v = i < frame->velocity.size() ? frame->velocity[i] : Eigen::Vector3f::Zero();
    struct Touch {
        std::int32_t partner;
        float force;
    };
    std::vector<Touch> touches;
    for (const auto& c : frame->contacts) {
        if (c.first == index) {
            touches.push_back({c.second, c.normalForce});
        } else if (c.second == index) {
            touches.push_back({c.first, c.normalForce});
        }
    }
    std::sort(touches.begin(), touches.end(), [](const Touch& a, const Touch& b) { return a.force > b.force; });
    const int coordination = i < frame->coordination.size() ? frame->coordination[i] : static_cast<int>(touches.size());
    const int others = std::max(0, coordination - static_cast<int>(touches.size()));
    const double overlap = i < frame->overlap.size() ? static_cast<double>(frame->overlap[i]) : 0.0;

    QString html = QStringLiteral("<h3>Particle %1</h3><table cellspacing=2>").arg(index);
    const auto row = [&html](const QString& name, const QString& value) {
        html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(name, value);
    };
    row(tr("radius"), number(static_cast<double>(frame->radius[i])) + QStringLiteral(" m"));
    row(tr("position"), vector(frame->position[i], frame->dimension) + QStringLiteral(" m"));
    row(tr("velocity"), vector(v, frame->dimension) + QStringLiteral(" m/s"));
    row(tr("speed"), number(static_cast<double>(v.norm())) + QStringLiteral(" m/s"));
    row(tr("contacts"),
        tr("%1 (%2 with particles, %3 with walls, piston or drum)").arg(coordination).arg(touches.size()).arg(others));
    row(tr("largest overlap"), number(overlap) + QStringLiteral(" m"));
    html += QStringLiteral("</table>");
    if (!touches.empty()) {
        html += tr("<p>Normal forces from particles (t = %1 s):</p>").arg(number(frame->time));
        html += QStringLiteral("<table cellspacing=2><tr><th align=left>partner</th><th align=right>f_n (N)</th>"
                               "<th align=right>f_n / &lt;f_n&gt;</th></tr>");
        for (std::size_t k = 0; k < touches.size() && k < kMaximumContactRows; ++k) {
            const auto f = static_cast<double>(touches[k].force);
            html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td></tr>")
                        .arg(touches[k].partner)
                        .arg(number(f), meanForce > 0.0 ? QString::number(f / meanForce, 'f', 2) : QStringLiteral("-"));
        }
        html += QStringLiteral("</table>");
    }
    label_->setText(html);
}

}  // namespace granular::ui
