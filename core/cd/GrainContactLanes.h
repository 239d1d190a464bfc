#pragma once

#include "cd/ContactUpdate.h"
#include "cd/PredictedMotion.h"
#include "cd/SweepContact.h"

namespace granular {

// Two contact updates side by side. Two grain-grain contacts that share no grain do not see each other's update:
// neither reads what the other writes (the coloured sweep's colours hold only such contacts; the random sweep checks
// the two next in its order). So they can be computed at once, each in one lane of an SSE2 register, with the results
// of one after the other: the update is written once (ContactUpdate.h) for both number types, whose operations round
// alike, so each lane gives the scalar update's result bit for bit (tst_grain_contact_lanes checks it).

/// Whether this build computes two contact updates side by side.
inline constexpr bool kGrainContactLanes = kLanePairs;

#if defined(__SSE2__)

inline Vector3Of<LanePair> lanes(const Vector3Of<double>& first, const Vector3Of<double>& second)
{
    return {lanes(first.x, second.x), lanes(first.y, second.y), lanes(first.z, second.z)};
}
inline Vector2Of<LanePair> lanes(const Vector2Of<double>& first, const Vector2Of<double>& second)
{
    return {lanes(first.x, second.x), lanes(first.y, second.y)};
}
inline Vector3Of<double> firstLane(const Vector3Of<LanePair>& a)
{
    return {firstLane(a.x), firstLane(a.y), firstLane(a.z)};
}
inline Vector2Of<double> firstLane(const Vector2Of<LanePair>& a)
{
    return {firstLane(a.x), firstLane(a.y)};
}
inline Vector3Of<double> secondLane(const Vector3Of<LanePair>& a)
{
    return {secondLane(a.x), secondLane(a.y), secondLane(a.z)};
}
inline Vector2Of<double> secondLane(const Vector2Of<LanePair>& a)
{
    return {secondLane(a.x), secondLane(a.y)};
}
template <template <class> class Space>
BodyMotion<Space<LanePair>> lanes(const BodyMotion<Space<double>>& first, const BodyMotion<Space<double>>& second)
{
    return {lanes(first.velocity, second.velocity), lanes(first.angularVelocity, second.angularVelocity),
            lanes(first.linearResponse, second.linearResponse), lanes(first.angularResponse, second.angularResponse)};
}
template <template <class> class Space> ForceChangeOf<Space<double>> firstLane(const ForceChangeOf<Space<LanePair>>& d)
{
    return {firstLane(d.normal), firstLane(d.tangential), firstLane(d.vector), firstLane(d.turn)};
}
template <template <class> class Space> ForceChangeOf<Space<double>> secondLane(const ForceChangeOf<Space<LanePair>>& d)
{
    return {secondLane(d.normal), secondLane(d.tangential), secondLane(d.vector), secondLane(d.turn)};
}

/// The update of two grain-pair records that share no grain, at once, as the sweeps update them one after the other
/// (sweepUpdate with nothing added to the relative velocity, then the change applied to the grains) in the space
/// Space (Vector3Of, or Vector2Of for disks): each gets its new force, its change is applied to its grains' predicted
/// motion. `firstChange`, `secondChange` get the changes.
template <template <class> class Space>
[[gnu::always_inline]] inline void
updateGrainContacts(SweepContact& first, SweepContact& second, PredictedMotion& motion,
                    ForceChangeOf<Space<double>>& firstChange, ForceChangeOf<Space<double>>& secondChange)
{
    using Vec = Space<double>;
    const auto grain = [](std::int32_t index) { return static_cast<std::size_t>(index); };
    BodyMotion<Space<LanePair>> body0 =
        lanes<Space>(motion.motion<Vec>(grain(first.body0)), motion.motion<Vec>(grain(second.body0)));
    BodyMotion<Space<LanePair>> body1 =
        lanes<Space>(motion.motion<Vec>(grain(first.body1)), motion.motion<Vec>(grain(second.body1)));
    const Space<LanePair> n = lanes(normalOf<Vec>(first), normalOf<Vec>(second));
    const LanePair r0 = lanes(first.lever0, second.lever0);
    const LanePair r1 = lanes(first.lever1, second.lever1);
    const FrameForce<Vec> firstBefore = forceOf<Vec>(first);
    const FrameForce<Vec> secondBefore = forceOf<Vec>(second);
    const FrameForce<Space<LanePair>> before{lanes(firstBefore.normal, secondBefore.normal),
                                             lanes(firstBefore.tangential, secondBefore.tangential)};
    const ShockRates<LanePair> rates{lanes(first.normalRate, second.normalRate),
                                     lanes(first.tangentialRate, second.tangentialRate),
                                     lanes(first.gapRate, second.gapRate), lanes(first.friction, second.friction)};
    const Space<LanePair> V = relativePointVelocity(body0, r0, body1, r1, n);
    const FrameForce<Space<LanePair>> after = shockLawUpdate(V, n, before, rates);
    const ForceChangeOf<Space<LanePair>> d = changeOfForce(before, after, n);
    receive(body1, r1, d);
    react(body0, r0, d);
    motion.setMotion<Vec>(grain(first.body1), {firstLane(body1.velocity), firstLane(body1.angularVelocity),
                                               firstLane(body1.linearResponse), firstLane(body1.angularResponse)});
    motion.setMotion<Vec>(grain(second.body1), {secondLane(body1.velocity), secondLane(body1.angularVelocity),
                                                secondLane(body1.linearResponse), secondLane(body1.angularResponse)});
    motion.setMotion<Vec>(grain(first.body0), {firstLane(body0.velocity), firstLane(body0.angularVelocity),
                                               firstLane(body0.linearResponse), firstLane(body0.angularResponse)});
    motion.setMotion<Vec>(grain(second.body0), {secondLane(body0.velocity), secondLane(body0.angularVelocity),
                                                secondLane(body0.linearResponse), secondLane(body0.angularResponse)});
    setForce<Vec>(first, {firstLane(after.normal), firstLane(after.tangential)});
    setForce<Vec>(second, {secondLane(after.normal), secondLane(after.tangential)});
    firstChange = firstLane<Space>(d);
    secondChange = secondLane<Space>(d);
}

#endif

}  // namespace granular
