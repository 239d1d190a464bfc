#pragma once

#include <cstdint>
#include <vector>

namespace granular {
struct World;
class StateWriter;
class StateReader;
}  // namespace granular

namespace granular::analysis {

/// The state of a compressed packing at one compression level of one stroke (Brodu et al. 2015,
/// "Microscopic Variable Scaling"): the plate's force, the packing's density and coordination and the
/// distribution of the grain-grain normal contact forces.
struct CompressionLevel {
    std::int64_t stroke = 0;         ///< 1: first down-stroke, 2: first up-stroke, ...
    int level = 0;                   ///< 0 .. levels: compression level / levels of the stroke's amplitude
    double time = 0.0;               ///< s
    double compression = 0.0;        ///< m, top_start minus the plate's height
    double topForce = 0.0;           ///< N, the grains' push on the plate
    double volumeFraction = 0.0;     ///< 1, grain volume over the box below the plate
    double coordination = 0.0;       ///< Z, force-carrying contacts per grain (walls and plate included)
    double coordinationAbove = 0.0;  ///< Z_tau, the same without contacts below the force threshold
    double meanForce = 0.0;          ///< N, <f> over the grain-grain contacts that carry force
    std::vector<double> forces;      ///< N, every grain-grain normal contact force > 0
};

/// Takes a snapshot each time the driven plate reaches one of `levels` + 1 evenly spaced compressions of a
/// stroke (0 and the full amplitude included; an up-stroke meets them from the bottom up). Call observe()
/// after every step of a world with a driven piston.
class CompressionRecorder {
public:
    CompressionRecorder(int levels, double forceThreshold) : levels_(levels), forceThreshold_(forceThreshold) {}

    void observe(const World& world);
    /// The plate's program is over (the run stopped by its stopping rule, within half a step of the program's end):
    /// records the levels the last stroke has not recorded yet, as a stroke's end does.
    void finish(const World& world);
    [[nodiscard]] const std::vector<CompressionLevel>& snapshots() const { return snapshots_; }

    /// The snapshots so far and where the recorder is, for a checkpoint.
    void saveState(StateWriter& out) const;
    void loadState(StateReader& in);

private:
    /// Records the levels of `stroke` that the plate has reached, from next_ on; all that are left where the stroke is
    /// `over`.
    void recordReached(const World& world, std::int64_t stroke, bool over);

    int levels_;
    double forceThreshold_;  ///< N
    std::int64_t stroke_ = 0;
    int next_ = 0;  ///< the next level of the stroke to record, in the order the stroke meets them
    std::vector<CompressionLevel> snapshots_;
};

/// The snapshot of a world as it is now (stroke and level as given).
[[nodiscard]] CompressionLevel compressionLevel(const World& world, std::int64_t stroke, int level,
                                                double forceThreshold);

}  // namespace granular::analysis
