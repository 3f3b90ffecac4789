// The checkerboard Metropolis sweep of ising.hpp, stated once for the host chain (ising.cpp) and
// the device chain (ising_device_chain.hpp): the order in which a sweep visits the sites (and so
// takes its numbers) and the acceptance rule. Compiled by g++ and nvcc alike (RNGVET_HD).
#pragma once

#include "generators/portable.hpp" // RNGVET_HD

#include <cmath>
#include <cstdint>

namespace rngvet::lattice {

// The sites of colour c (0 black, (x + y) even; 1 white) on the periodic L x L lattice in the
// sweep's order: rows from y = 0, in each row the sites of that colour from left to right. A
// sweep visits every black site in this order, then every white one, so that its q-th site is
// site(0, q) for q < sites(0) and site(1, q - sites(0)) after.
struct Checkerboard {
    int L;

    // Sites of colour c: N/2 each for even L; for odd L the black ones are one more.
    RNGVET_HD int sites(int c) const { return (L * L + 1 - c) / 2; }
    // Column x and row y of the k-th site of colour c (0 <= k < sites(c)). Two consecutive rows
    // from an even y hold L sites of each colour, (L - c + 1) / 2 of them in the first.
    RNGVET_HD void place(int c, int k, int& x, int& y) const
    {
        const int pair = k / L, r = k % L;
        const int first = (L - c + 1) / 2;
        y = 2 * pair + (r < first ? 0 : 1);
        x = r < first ? c + 2 * r : (1 - c) + 2 * (r - first);
    }
    // Its row-major index y L + x.
    RNGVET_HD int site(int c, int k) const
    {
        int x = 0, y = 0;
        place(c, k, x, y);
        return y * L + x;
    }
};

// The acceptance table of K: exp(-2 K s h) for s h = 0 (1, always accepted), 2 and 4.
inline void metropolis_table(double K, double table[3])
{
    table[0] = 1.0;
    table[1] = std::exp(-4.0 * K);
    table[2] = std::exp(-8.0 * K);
}

// Whether the flip of a spin s with neighbour sum h, s h = sh, is accepted for the number u:
// u < min(1, exp(-2 K s h)), read from the table (s h <= 0 always accepts, its number still
// taken). The entry is picked by value (sh is -4, -2, 0, 2 or 4), not by a computed index, so
// that a device thread reads a table held in its kernel's parameters where it is, rather than
// through a copy in its local memory.
RNGVET_HD bool metropolis_accepts(double u, int sh, const double table[3])
{
    return u < (sh <= 0 ? table[0] : sh == 2 ? table[1] : table[2]);
}

} // namespace rngvet::lattice
