#pragma once

#include "model/PeriodicCell.h"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace granular {

struct World;

/// An immutable snapshot of the world for viewers and exporters. Readers never see solver arrays.
struct Frame {
    struct Wall {
        std::string name;
        Eigen::Vector3d point;
        Eigen::Vector3d normal;
        bool piston = false;  ///< the world's piston (a pressing lid, or a driven plate), whatever its name
    };
    /// A contact as drawn: centre-to-centre stick carrying a normal force.
    struct Contact {
        std::int32_t first = 0;
        std::int32_t second = 0;
        float normalForce = 0.0F;  ///< N
        /// True when only the grains' bulges (mcdem) make them touch: their spheres do not overlap.
        bool createdByDeformation = false;
        float tangentialForce = 0.0F;  ///< N, magnitude of the force's part in the contact plane
    };

    int dimension = 3;
    double time = 0.0;  ///< s
    std::int64_t steps = 0;
    std::vector<Eigen::Vector3f> position;         ///< m
    std::vector<Eigen::Vector3f> velocity;         ///< m/s
    std::vector<Eigen::Vector3f> angularVelocity;  ///< rad/s
    /// Per particle: the sum of the contact forces acting on it (particles, walls, piston, drum), N.
    std::vector<Eigen::Vector3f> forceSum;
    std::vector<float> radius;  ///< m
    /// Per particle: contacts carrying a positive normal force (particles, walls, piston, drum).
    std::vector<std::uint16_t> coordination;
    /// Per particle: largest overlap of its force-carrying contacts at the frame's positions, m (0: none).
    std::vector<float> overlap;
    /// Per particle: how far it reaches beyond its sphere at its contacts from the others' forces (mcdem), the
    /// largest over its force-carrying contacts, m (0: rigid or independent contacts).
    std::vector<float> deformation;
    std::vector<Contact> contacts;
    std::vector<Wall> walls;
    Eigen::AlignedBox3d bounds;  ///< m
    /// The drum, when the world has one: axis along z through drumCentre.
    bool hasDrum = false;
    Eigen::Vector3d drumCentre = Eigen::Vector3d::Zero();  ///< m
    double drumRadius = 0.0;                               ///< m
    double drumAngle = 0.0;                                ///< rad, rotation since t = 0 (for drawing marks)
    /// True when the world is a periodic cell (no walls): viewers draw `cell` (`bounds` is the box around it)
    /// and contacts across its boundary to the nearest image.
    bool periodic = false;
    PeriodicCell cell;

    static std::shared_ptr<const Frame> capture(const World& world);

    /// The centres that a contact's stick joins, m: the first grain's centre and the second's, across a periodic
    /// boundary its nearest image. Empty when the contact names a grain this frame does not hold.
    [[nodiscard]] std::optional<std::pair<Eigen::Vector3f, Eigen::Vector3f>> contactEnds(const Contact& c) const;
};

}  // namespace granular
