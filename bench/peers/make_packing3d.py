#!/usr/bin/env python3
"""Write the initial state of bench/bench_md.cpp (case md_packing3d) as a LAMMPS/LIGGGHTS data file.

Reproduces core/sim/WorldBuilder.cpp placeLattice() for that scenario exactly:
  * cubic lattice of spacing 2 * radius_max (particles.gap = 0), sites (i + 0.5) * 2 along x,
    (layer + 0.5) * 2 along y (up), (k + 0.5) * 2 along z; x fastest, then z, then layer;
    nx = floor(41 / 2) = 20, nz = 20, so 400 grains a layer and 50 layers for 20,000 grains;
  * radii from the project's RNG (core/util/Random.*: xoshiro256** seeded by SplitMix64 with
    scenario `seed` = 1). Each site draws 3 numbers for the jitter (zero here, but still drawn)
    then r = 0.9 + 0.1 * u, u = (next() >> 11) * 2^-53;
  * density 1 kg/m^3, so m = 4/3 pi r^3.
Format (atom_style sphere / granular): atom-ID atom-type diameter density x y z.
Type 2 exists only as the wall material of LIGGGHTS (no atom has it).
Usage: make_packing3d.py [OUTPUT] (default packing3d.data)
"""
import sys

MASK = (1 << 64) - 1


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK


class Random:
    def __init__(self, seed):
        self.s = []
        x = seed & MASK
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & MASK
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            self.s.append(z ^ (z >> 31))

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def uniform(self, low=0.0, high=1.0):
        return low + (high - low) * ((self.next() >> 11) * 2.0**-53)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "packing3d.data"
    count, r_min, r_max, density, seed = 20000, 0.9, 1.0, 1.0, 1
    width, height, depth = 41.0, 110.0, 41.0
    spacing = 2.0 * r_max
    nx, nz = int(width // spacing), int(depth // spacing)
    layers = int(height // spacing)
    assert count <= nx * nz * layers
    rng = Random(seed)
    lines = []
    for site in range(count):
        layer = site // (nx * nz)
        x = (site % nx + 0.5) * spacing
        y = (layer + 0.5) * spacing
        z = ((site // nx) % nz + 0.5) * spacing
        for _ in range(3):  # jitter: uniform(-0, 0), drawn all the same
            rng.uniform(-0.0, 0.0)
        r = rng.uniform(r_min, r_max)
        lines.append(f"{site + 1} 1 {2.0 * r:.17g} {density:g} {x:g} {y:g} {z:g}")
    with open(out, "w") as f:
        f.write("Granular Studio bench_md md_packing3d: 20000 spheres, r in [0.9, 1] m, density 1 kg/m^3\n\n")
        f.write(f"{count} atoms\n2 atom types\n\n")
        f.write(f"0 {width:g} xlo xhi\n0 {height:g} ylo yhi\n0 {depth:g} zlo zhi\n\nAtoms\n\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
