#include "ForceNetwork.h"

#include "sim/Frame.h"

#include <algorithm>
#include <cmath>

namespace granular::ui {

ForceNetwork selectForceNetwork(const Frame& frame, double threshold, ForceNetworkPart part)
{
    ForceNetwork network;
    double sum = 0.0;
    std::size_t count = 0;
    for (const auto& c : frame.contacts) {
        if (c.normalForce > 0.0F) {
            sum += static_cast<double>(c.normalForce);
            ++count;
        }
    }
    if (count == 0) {
        return network;
    }
    network.meanForce = sum / static_cast<double>(count);
    for (const auto& c : frame.contacts) {
        if (!(c.normalForce > 0.0F)) {
            continue;
        }
        const double relative = static_cast<double>(c.normalForce) / network.meanForce;
        network.maxRelativeForce = std::max(network.maxRelativeForce, relative);
        const bool strong = relative >= threshold;
        if (strong != (part == ForceNetworkPart::Strong)) {
            continue;
        }
        const auto i = static_cast<std::size_t>(c.first);
        const auto j = static_cast<std::size_t>(c.second);
        if (i >= frame.position.size() || j >= frame.position.size()) {
            continue;
        }
        const Eigen::Vector3f& from = frame.position[i];
        Eigen::Vector3f d = frame.position[j] - from;
        if (frame.periodic) {
            d = frame.cell.minimumImage(d.cast<double>()).cast<float>();
        }
        network.sticks.push_back({from, from + d, static_cast<float>(relative), c.createdByDeformation});
    }
    return network;
}

}  // namespace granular::ui
