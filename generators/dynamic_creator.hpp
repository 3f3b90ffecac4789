// The Dynamic Creator (DC) of Matsumoto & Nishimura ("Dynamic Creation of Pseudorandom Number
// Generators", MCQMC 1998), written from the mathematics: it finds Mersenne Twister parameter
// sets with primitive characteristic polynomials (period 2^p - 1), one per id, and tunes their
// tempering masks for equidistribution; dc_verify checks any set of such parameters.
//
// Terms. The MT recurrence is a linear map B on p = nn*32 - rr state bits; its characteristic
// polynomial phi(t) has degree p. The generator has period 2^p - 1 iff phi is primitive. Its
// output is equidistributed in k dimensions to v bits when every kv-bit pattern of the top v
// bits of k consecutive outputs occurs equally often over the period (the all-zero pattern
// once less); k(v) is the largest such k, at most floor(p/v); d(v) = floor(p/v) - k(v) is the
// defect (MT paper, section 1.2).
#pragma once

#include "gf2poly.hpp"
#include "mt.hpp"
#include "mt_params.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rngvet {

// The characteristic polynomial of the recurrence, found by Berlekamp-Massey on 2p output
// bits. The result is the minimal polynomial of that bit sequence, which divides phi; it has
// degree p and equals phi whenever phi is irreducible (see dynamic_creator.cpp). A degree
// below p therefore proves phi reducible.
Gf2Poly mt_characteristic_polynomial(const MtParams& prm);

struct MtPrimitivity {
    bool primitive = false;
    Gf2Poly charpoly; // phi when primitive; else the minimal polynomial found
    std::string reason; // why not primitive
};
MtPrimitivity mt_primitivity(const MtParams& prm);

// Largest p for which k(v) is computed (memory and time grow as p^2 and p^3).
inline constexpr int mt_kv_max_p = 4423;

struct MtEquidistribution {
    int p = 0;
    int k[33] = {}; // k[v] for v = 1..32; k[0] unused; -1 where not computed
    int bound(int v) const { return p / v; }
    int defect(int v) const { return bound(v) - k[v]; }
    int defect_sum() const; // over v = 1..32
};

// k(v) for v = v_lo..v_hi (1 <= v_lo <= v_hi <= 32); other entries are -1. Throws
// std::invalid_argument for p > mt_kv_max_p or w != 32.
MtEquidistribution mt_equidistribution(const MtParams& prm, int v_lo = 1, int v_hi = 32);

// Called after each finished set with (sets done, sets wanted).
using DcProgress = std::function<void(int, int)>;

// Creates `count` parameter sets for Mersenne exponent p (521 <= p <= mt_kv_max_p) with ids
// 0..count-1 (count <= 65536). Set i is searched with its own MT19937 seeded by
// init_by_array({seed, i}), so a set depends only on (p, seed, id), not on count or threads.
// Candidates: aaa = 1 (bit 31) | random bits 16..30 | id (bits 0..15), kept when phi is
// primitive; then maskB and maskC are chosen bit by bit (see dynamic_creator.cpp).
// `threads` <= 0 uses the hardware concurrency.
MtParamSet dc_create(
    int p, int count, std::uint32_t seed, int threads = 0, const DcProgress& progress = {});

// Chooses maskB / maskC for prm (its other fields fixed), DC-style, bit by bit.
void dc_tune_tempering(MtParams& prm);

struct DcVerifyOptions {
    int threads = 0; // <= 0: hardware concurrency
    bool equidistribution = true; // compute k(v) (skipped for p > mt_kv_max_p)
    int max_defect_sum = -1; // >= 0: a set whose defect sum exceeds it fails
};

struct DcSetReport {
    std::size_t index = 0;
    std::uint32_t id = 0;
    bool layout_ok = false; // nn, mm, rr, masks, shifts are DC's layout for p
    bool primitive = false;
    std::string reason; // why not primitive
    Gf2Poly charpoly;
    bool kv_computed = false;
    MtEquidistribution kv;
};

struct DcVerifyReport {
    std::string source;
    std::string sha256;
    int p = 0;
    std::vector<DcSetReport> sets;
    std::vector<std::pair<std::size_t, std::size_t>> duplicate_ids; // pairs of set indices
    std::vector<std::pair<std::size_t, std::size_t>> equal_charpolys; // pairs of set indices
    bool kv_computed = false;
    int max_defect_sum = -1;
    double seconds = 0;

    // One line per failed check, naming the set (index and id) and the check.
    std::vector<std::string> failures() const;
    bool passed() const { return failures().empty(); }
};

// Checks every set: layout, primitivity of phi, ids distinct, characteristic polynomials
// pairwise distinct (for irreducible polynomials distinct means coprime), and k(v).
DcVerifyReport dc_verify(const MtParamSet& set, const DcVerifyOptions& options = {});

} // namespace rngvet
