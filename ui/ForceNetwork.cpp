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
    // Reduced coordinates s = H^-1 d pick the nearest image (the cell's z edge is unused in 2D).
    Eigen::Matrix3d edges = frame.cellEdges;
    if (frame.dimension == 2) {
        edges.row(2).setZero();
        edges.col(2).setZero();
        edges(2, 2) = 1.0;
    }
    const Eigen::Matrix3d inverseEdges = frame.periodic ? Eigen::Matrix3d(edges.inverse()) : Eigen::Matrix3d::Zero();
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
            const Eigen::Vector3d s = inverseEdges * d.cast<double>();
            for (int a = 0; a < frame.dimension; ++a) {
                d -= static_cast<float>(std::round(s[a])) * edges.col(a).cast<float>();
            }
        }
        network.sticks.push_back({from, from + d, static_cast<float>(relative)});
    }
    return network;
}

}  // namespace granular::ui
