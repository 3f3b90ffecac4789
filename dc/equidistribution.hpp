// Equidistribution of a Mersenne Twister's output: k(v), the dimension to which its top v bits
// are equidistributed, by Gaussian elimination and by lattice reduction.
#pragma once

#include "generators/mt_params.hpp"

namespace rngvet {

// Largest p for which mt_equidistribution uses Gaussian elimination (memory and time grow as
// p^2 and p^3); above it, every p up to 44497 goes to the lattice method (mt_kv_lattice).
inline constexpr int mt_kv_gauss_max_p = 4423;

struct MtEquidistribution {
    int p = 0;
    int k[33] = {}; // k[v] for v = 1..32; k[0] unused; -1 where not computed
    int bound(int v) const { return p / v; }
    int defect(int v) const { return bound(v) - k[v]; }
    int defect_sum() const; // over v = 1..32
};

// k(v) for v = v_lo..v_hi (1 <= v_lo <= v_hi <= 32); other entries are -1. Throws
// std::invalid_argument for w != 32.
MtEquidistribution mt_equidistribution(const MtParams& prm, int v_lo = 1, int v_hi = 32);

// k(v) of one accuracy v (1..32) by reduction of the F2[t]-lattice of the output (Couture &
// L'Ecuyer 2000) with the pivot reduction of dcmt 0.6 (after Harase's use of Mulders &
// Storjohann's algorithm): v unit rows and one row holding a state of the generator are
// reduced on the lowest set bit of their next output until the state row vanishes; k(v) is
// the least degree among the unit rows. About p * v * nn / 2 word operations; the same
// decisions as dcmt at every step, so it returns what dcmt's search sees.
int mt_kv_lattice(const MtParams& prm, int v);

} // namespace rngvet
