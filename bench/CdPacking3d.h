#pragma once
// The contact-dynamics packing of the benches: ~20,000 spheres of radius 0.9-1 m on a jittered lattice with
// 0.02 m gaps in a 41 x 110 x 41 m box under g = 1 m/s^2, friction 0.3, dt = 0.01 s, 20 Gauss-Seidel sweeps a step.
#include "scenario/Scenario.h"

namespace granular::bench {

inline Scenario cdPacking3d()
{
    Scenario s;
    s.setFromText("name", "packing3d");
    s.setFromText("world.dimension", "3");
    s.setFromText("solver.method", "cd");
    s.setFromText("solver.iterations", "20");
    s.setFromText("solver.dt", "0.01");
    s.setFromText("gravity.y", "-1");
    s.setFromText("contact.friction", "0.3");
    s.setFromText("particles.count", "20000");
    s.setFromText("particles.radius_min", "0.9");
    s.setFromText("particles.radius_max", "1");
    s.setFromText("particles.density", "1");
    s.setFromText("particles.gap", "0.02");
    s.setFromText("particles.jitter", "0.5");
    s.setFromText("box.width", "41");
    s.setFromText("box.depth", "41");
    s.setFromText("box.height", "110");
    return s;
}

}  // namespace granular::bench
