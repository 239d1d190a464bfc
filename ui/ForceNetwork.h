#pragma once

#include <Eigen/Core>

#include <vector>

namespace granular {
struct Frame;
}

namespace granular::ui {

/// Which part of the contact network to draw, relative to the threshold x <f_n>.
enum class ForceNetworkPart {
    Strong,  ///< f_n >= x <f_n>: the force chains (x = 1 gives the strong network)
    Weak,    ///< f_n < x <f_n>: the weak network that props the chains up
};

/// One contact drawn as a stick from centre to centre.
struct ForceStick {
    Eigen::Vector3f from;               ///< m, centre of the first particle
    Eigen::Vector3f to;                 ///< m, centre of the second (its nearest image in a periodic cell)
    float relativeForce = 0;            ///< f_n / <f_n>
    bool createdByDeformation = false;  ///< only the grains' bulges make them touch (mcdem)
};

struct ForceNetwork {
    double meanForce = 0.0;         ///< N, <f_n> over every contact of the frame with f_n > 0
    double maxRelativeForce = 0.0;  ///< max f_n / <f_n>
    std::vector<ForceStick> sticks;
};

/// The contacts of the frame in the chosen part of the network at threshold `threshold` x <f_n>.
/// In a periodic cell a contact across the boundary is drawn to the partner's nearest image.
[[nodiscard]] ForceNetwork selectForceNetwork(const Frame& frame, double threshold, ForceNetworkPart part);

}  // namespace granular::ui
