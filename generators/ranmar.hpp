// RANMAR: Marsaglia, Zaman & Tsang (1990) in the two-seed form of F. James (1990), in three
// variants, all in exact integer arithmetic (values scaled by 2^bits):
//
//   ranmar24   James's RANMAR: 24-bit table fill, 24-bit arithmetic sequence.
//   ranmar48   CERNLIB RM48 / CORSIKA RMMARD: 48-bit table fill, the 24-bit arithmetic sequence
//              constants (c, cd, cm times 2^24), so only the top 24 output bits are whitened.
//   ranmar48x  rngvet's extension: 48-bit fill and a 48-bit arithmetic sequence with
//              c0 = 362436*2^24 + 362436, cd = 7654321*2^24 + 7654321, cm = 2^48 - 59
//              (the largest prime below 2^48). These constants are this project's definition.
//
// Formulas: Marsaglia, Zaman & Tsang, Stat. Prob. Lett. 9 (1990) 35-39; F. James, Comput. Phys.
// Commun. 60 (1990) 329-344; CERNLIB V113 (RM48). Known answers: validators/known_answers.txt.
// LOCKED: the seeding, step and output functions define the streams that known answers pin
// down. A change that alters output needs a new generator name and new known-answer rows.
#pragma once

#include "generator_id.hpp"
#include "portable.hpp" // RNGVET_HD
#include "ranmar_step.hpp"

#include <cstddef>
#include <cstdint>

namespace rngvet {

// The family's words (generator_id.hpp): the family and its generators, whose variant is the
// kind's (ranmar24 RanmarVariant::r24, ranmar48 r48, ranmar48x r48x).
namespace families {
inline constexpr GeneratorFamily ranmar{ "ranmar" };
}
namespace kinds {
inline constexpr GeneratorKind ranmar24{ "ranmar24" };
inline constexpr GeneratorKind ranmar48{ "ranmar48" };
inline constexpr GeneratorKind ranmar48x{ "ranmar48x" };
} // namespace kinds

enum class RanmarVariant : int { r24 = 0, r48 = 1, r48x = 2 };

// What an exact zero output becomes. `keep` is the original algorithm; `smallest` is the
// CERNLIB V113 / CORSIKA convention (0 is replaced by 2^-bits).
enum class ZeroPolicy : int { keep = 0, smallest = 1 };

inline constexpr int ranmar_lags = RNGVET_RANMAR_LAGS;
inline constexpr int ranmar_short_lag = RNGVET_RANMAR_SHORT_LAG;

// James's seed ranges.
inline constexpr int ranmar_ij_max = 31328;
inline constexpr int ranmar_kl_max = 30081;

// CERNLIB's one-number seed IJKL (RMMAQD/RM48IN, CORSIKA's seed lines), 0..900000000, split
// into James's two as CERNLIB splits it: IJ = IJKL / 30082, KL = IJKL mod 30082.
inline constexpr std::int64_t ranmar_ijkl_max = 900000000;
inline constexpr std::int64_t ranmar_ijkl_divisor = ranmar_kl_max + 1;
struct RanmarSeedPair {
    std::int64_t ij, kl;
};
constexpr RanmarSeedPair ranmar_seed_of_ijkl(std::int64_t ijkl)
{
    return { ijkl / ranmar_ijkl_divisor, ijkl % ranmar_ijkl_divisor };
}

struct RanmarState {
    std::uint64_t u[ranmar_lags]; // lagged Fibonacci table, u[0..96] = James's U(1..97)
    std::uint64_t c; // arithmetic sequence, scaled by 2^bits
    std::uint64_t cd;
    std::uint64_t cm;
    int i97; // 0-based position of James's I97
    int j97; // 0-based position of James's J97
    int bits; // 24 or 48
    int zero_policy;
};

RNGVET_HD int ranmar_bits(RanmarVariant v)
{
    return v == RanmarVariant::r24 ? 24 : 48;
}

// Seeds the state from James's (ij, kl); the caller checks 0 <= ij <= 31328, 0 <= kl <= 30081.
RNGVET_HD void ranmar_seed(
    RanmarState& s, RanmarVariant variant, int ij, int kl, ZeroPolicy zero = ZeroPolicy::keep)
{
    int i = (ij / 177) % 177 + 2;
    int j = ij % 177 + 2;
    int k = (kl / 169) % 178 + 1;
    int l = kl % 169;
    const int bits = ranmar_bits(variant);
    for (int word = 0; word < ranmar_lags; ++word) {
        std::uint64_t acc = 0;
        for (int b = 0; b < bits; ++b) {
            const int m = ((i * j) % 179) * k % 179;
            i = j;
            j = k;
            k = m;
            l = (53 * l + 1) % 169;
            acc = (acc << 1) | (((l * m) % 64 >= 32) ? 1u : 0u);
        }
        s.u[word] = acc;
    }
    s.i97 = ranmar_lags - 1;
    s.j97 = ranmar_short_lag - 1;
    s.bits = bits;
    s.zero_policy = static_cast<int>(zero);
    if (variant == RanmarVariant::r48x) {
        s.c = (362436ull << 24) + 362436ull;
        s.cd = (7654321ull << 24) + 7654321ull;
        s.cm = (1ull << 48) - 59ull;
    } else {
        const int shift = bits - 24;
        s.c = 362436ull << shift;
        s.cd = 7654321ull << shift;
        s.cm = 16777213ull << shift;
    }
}

// Advances the lagged Fibonacci table and the arithmetic sequence by one number and returns
// the output scaled by 2^bits (0 <= x < 2^bits; x >= 1 under ZeroPolicy::smallest). The
// arithmetic is ranmar_step.hpp's; u[i97] holds X_{k-97} and u[j97] X_{k-33}.
RNGVET_HD std::uint64_t ranmar_next(RanmarState& s)
{
    const std::uint64_t mask = (1ull << s.bits) - 1;
    const std::uint64_t x = ranmar_lag_step(s.u[s.i97], s.u[s.j97], mask);
    s.u[s.i97] = x;
    s.i97 = s.i97 == 0 ? ranmar_lags - 1 : s.i97 - 1;
    s.j97 = s.j97 == 0 ? ranmar_lags - 1 : s.j97 - 1;
    s.c = ranmar_c_back(s.c, s.cd, s.cm);
    return ranmar_output(
        x, s.c, mask, s.zero_policy == static_cast<int>(ZeroPolicy::smallest) ? 1 : 0);
}

// The table as a straight window after k numbers: window[m] = X_{k-97+m} = u[(i97 - m) mod 97],
// m < 97 (the order the jump and the block fill work in). Host only.
void ranmar_window(const RanmarState& s, std::uint64_t* window);
// The table and its indices n numbers on, from the window there (c is the caller's). Host only.
void ranmar_set_window(RanmarState& s, const std::uint64_t* window, std::uint64_t n);

// n numbers of ranmar_next at once into out[0, n): the same outputs and the same final state,
// twice as fast on the host (family_ranmar.cpp). Host only.
void ranmar_fill(RanmarState& s, std::uint64_t* out, std::size_t n);

// The constants of ranmar_step.hpp's functions for one generator.
struct RanmarArithmetic {
    std::uint64_t mask; // 2^bits - 1
    std::uint64_t cd, cm;
    std::uint64_t zero_smallest; // 1 under ZeroPolicy::smallest
};
// ranmar_fill on a straight window: window[m] = X_{k-97+m} (m < 97) and c_last = c_{k-1} before,
// the outputs k .. k+n-1 into out[0, n), window and c_last moved on by n after. Host only.
void ranmar_fill_window(std::uint64_t* window, std::uint64_t& c_last, const RanmarArithmetic& a,
    std::uint64_t* out, std::size_t n);

struct Configuration;

// The seeded state of RANMAR instance `instance` (0 <= instance < instances) of a validated
// ranmar configuration: the per-instance seeding make_stream uses, for backends that seed on
// the host (kernels/; family_ranmar.cpp).
RanmarState ranmar_instance_state(const Configuration& config, int instance);

} // namespace rngvet
