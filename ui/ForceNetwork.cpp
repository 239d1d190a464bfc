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
        const auto ends = frame.contactEnds(c);
        if (!ends) {
            continue;
        }
        network.sticks.push_back({ends->first, ends->second, static_cast<float>(relative), c.createdByDeformation});
    }
    return network;
}

}  // namespace granular::ui
