#include "md/LoadAssembly.h"

#include "model/World.h"
#include "util/Parallel.h"

namespace granular::md {

bool LoadAssembly::runsInParallel(std::size_t contacts)
{
    return solverThreads() > 1 && static_cast<std::ptrdiff_t>(contacts) >= kSmallestParallelLoop;
}

void LoadAssembly::index(const World& world)
{
    grains_ = world.particles.size();
    contacts_ = world.contacts.size();
    offsets_.assign(grains_ + 1, 0);
    piston_.clear();
    for (std::size_t k = 0; k < contacts_; ++k) {
        const Contact& c = world.contacts[k];
        ++offsets_[static_cast<std::size_t>(c.particle) + 1];
        if (c.kind == ContactKind::Particle) {
            ++offsets_[static_cast<std::size_t>(c.partner) + 1];
        } else if (c.kind == ContactKind::Piston) {
            piston_.push_back(static_cast<std::uint32_t>(k));
        }
    }
    for (std::size_t i = 0; i < grains_; ++i) {
        offsets_[i + 1] += offsets_[i];
    }
    incident_.resize(offsets_[grains_]);
    std::vector<std::uint32_t> next(offsets_.begin(), offsets_.end() - 1);
    // In ascending contact index, so that each grain's entries are in that order.
    for (std::size_t k = 0; k < contacts_; ++k) {
        const Contact& c = world.contacts[k];
        incident_[next[static_cast<std::size_t>(c.particle)]++] = 2 * static_cast<std::uint64_t>(k) + 1;
        if (c.kind == ContactKind::Particle) {
            incident_[next[static_cast<std::size_t>(c.partner)]++] = 2 * static_cast<std::uint64_t>(k);
        }
    }
}

bool LoadAssembly::indexes(const World& world) const
{
    return contacts_ == world.contacts.size() && grains_ == world.particles.size() && offsets_.size() == grains_ + 1;
}

std::vector<ContactLoad>& LoadAssembly::contactLoads(std::size_t contacts)
{
    contactLoads_.resize(contacts);
    return contactLoads_;
}

void LoadAssembly::gatherStepLoads(BodyLoads& loads) const
{
    parallelFor(grains_, [&](std::size_t i) {
        Vec3 force = Vec3::Zero();
        Vec3 impulse = Vec3::Zero();
        Vec3 torque = Vec3::Zero();
        for (std::uint32_t e = offsets_[i]; e < offsets_[i + 1]; ++e) {
            const ContactLoad& load = contactLoads_[incident_[e] / 2];
            if (!load.active) {
                continue;
            }
            if ((incident_[e] & 1U) != 0U) {
                force += load.force;
                impulse += load.impulse;
                torque += load.torque1;
            } else {
                force -= load.force;
                impulse -= load.impulse;
                torque -= load.torque0;
            }
        }
        loads.force[i] = force;
        loads.impulse[i] = impulse;
        loads.torque[i] = torque;
    });
    for (const std::uint32_t k : piston_) {
        const ContactLoad& load = contactLoads_[k];
        if (load.active) {
            loads.pistonForce -= load.forceAlong;
            loads.pistonImpulse -= load.impulseAlong;
        }
    }
}

void LoadAssembly::gatherDamping(BodyLoads& loads) const
{
    parallelFor(grains_, [&](std::size_t i) {
        Vec3 damping = Vec3::Zero();
        for (std::uint32_t e = offsets_[i]; e < offsets_[i + 1]; ++e) {
            const ContactLoad& load = contactLoads_[incident_[e] / 2];
            if (!load.active) {
                continue;
            }
            if ((incident_[e] & 1U) != 0U) {
                damping += load.force;
            } else {
                damping -= load.force;
            }
        }
        loads.damping[i] = damping;
    });
    for (const std::uint32_t k : piston_) {
        const ContactLoad& load = contactLoads_[k];
        if (load.active) {
            loads.pistonDamping -= load.forceAlong;
        }
    }
}

}  // namespace granular::md
