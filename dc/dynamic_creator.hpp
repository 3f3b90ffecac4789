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

#include "generators/gf2poly.hpp"
#include "generators/mt.hpp"
#include "generators/mt_charpoly.hpp"
#include "generators/mt_params.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rngvet {

struct MtPrimitivity {
    bool primitive = false;
    Gf2Poly charpoly; // phi when primitive; else the minimal polynomial found
    std::string reason; // why not primitive
};
MtPrimitivity mt_primitivity(const MtParams& prm);

// The characteristic polynomial of DC's layout for p (nn = p/32 + 1, mm = nn/2, rr = 32nn - p)
// as a function of aaa. From the MT paper (Matsumoto & Nishimura 1998, section 3.1), with
// T = t^nn + t^mm and S = t^(nn-1) + t^(mm-1) and a_k bit k of aaa:
//   phi(t) = T^(32-rr) S^rr + sum_{k<rr} a_k T^(32-rr) S^(rr-1-k) + sum_{k>=rr} a_k T^(31-k)
// so phi is the XOR of precomputed polynomials, one per set bit of aaa. The prescreen keeps
// the remainders of those polynomials modulo the 127 irreducible polynomials of degree <= 9,
// so "phi has a factor of degree <= 9" costs 127 XOR chains of 32 small words (dcmt does the
// same, and so draws the same candidates through its prescreen).
// From this p on, MtCharpoly::primitive tests by decimation (O(p^2)) before t^(2^p) mod phi
// (O(p^3) with a small constant); measured per candidate, the second is faster up to p = 9689
// and the first from 19937 on (docs/dynamic_creator.md).
inline constexpr int decimation_min_p = 19937;

class MtCharpoly {
public:
    explicit MtCharpoly(int p); // p a Mersenne exponent >= 521 (throws std::invalid_argument)
    int p() const { return p_; }
    Gf2Poly of(std::uint32_t aaa) const;
    // False when phi(aaa) is divisible by an irreducible polynomial of degree <= 9.
    bool prescreen(std::uint32_t aaa) const;
    // Exact: phi(aaa) is primitive (prescreen, then t^(2^p) = t mod phi, as in
    // primitivity_mersenne). When *stop becomes true during the test, it returns false
    // early; the answer is then meaningless (the caller asked to drop it).
    bool primitive(std::uint32_t aaa, const std::atomic<bool>* stop = nullptr) const;
    // The decimation test of the MT paper (dynamic_creator.cpp): false proves phi(aaa)
    // reducible; true for every irreducible phi, and for a reducible one only when a fixed
    // start state lies in a small subspace. For p >= decimation_min_p, primitive() runs it
    // first and confirms a pass with t^(2^p) = t. About 20p^2 scalar operations.
    bool passes_decimation(std::uint32_t aaa, const std::atomic<bool>* stop = nullptr) const;

private:
    int p_;
    std::vector<Gf2Poly> term_; // term_[k]: the polynomial of bit k of aaa; term_[32]: the rest
    std::vector<std::array<std::uint16_t, 33>> residues_; // [small irreducible][k]
};

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

// Called with (work done, work total) as creation proceeds.
using DcProgress = std::function<void(int, int)>;

// How dc_create draws candidates and chooses tempering.
enum class DcCreator {
    // rngvet: set i is searched with its own MT19937 seeded by init_by_array({seed, id}), so a
    // set depends only on (p, seed, id); the first two primitive aaa of that stream get dcmt's
    // tempering search, the one with the lower k(v) defect sum is kept (the first on a tie)
    // and one sweep of dc_tune_tempering's bit flips follows (docs/dynamic_creator.md).
    rngvet,
    // dcmt 0.6.1 (and 0.6.2, whose library code is the same): get_mt_parameters_st(32, p,
    // start_id, start_id + count - 1, seed), equal to init_dc(seed) then
    // get_mt_parameters(32, p, count - 1) when start_id = 0, and to get_mt_parameter_id_st for
    // one id. One MT19937 (init_genrand(seed)) feeds every id in turn: a candidate is
    // aaa = (draw & 0xFFFF0000) | 0x80000000 | id; one that passes the prescreen costs nn more
    // draws (the start state of dcmt's period check) and is then tested exactly; dcmt gives up
    // on an id after 10000 candidates. Tempering by dc_tune_tempering_dcmt.
    dcmt_061,
};

const char* dc_creator_name(DcCreator c); // "rngvet", "dcmt-0.6.1"

struct DcCreateOptions {
    int p = 521; // Mersenne exponent, 521..44497
    int count = 1; // sets wanted, ids start_id .. start_id + count - 1 (<= 65535)
    std::uint32_t seed = 0;
    int start_id = 0;
    DcCreator creator = DcCreator::rngvet;
    int threads = 0; // <= 0: hardware concurrency
    DcProgress progress;
    // Draws per id before giving up (<= 0: dcmt's 10000 in dcmt mode, 2^20 in rngvet mode);
    // other values are for tests of that path.
    int max_draws = 0;
};

// Creates parameter sets; throws std::invalid_argument for bad options, and std::runtime_error
// when no primitive aaa turns up (dcmt mode: within dcmt's 10000 candidates for an id).
// Every mode runs on `threads` threads, which test later candidates of a stream before
// earlier ones finish but keep the first primitive ones in stream order (dcmt mode: dcmt's
// single candidate stream), and temper settled sets as they come; the result does not depend
// on the thread count.
MtParamSet dc_create(const DcCreateOptions& options);

// The former signature: rngvet mode, ids 0..count-1.
MtParamSet dc_create(
    int p, int count, std::uint32_t seed, int threads = 0, const DcProgress& progress = {});

// dcmt 0.6.1's tempering search (its _get_tempering_parameter_hard_dc), same decisions and
// ties: for v = 1..15 every mask pair reachable by setting bit v of maskC and maskB (and bit
// v + 15 of maskB) is kept when it attains the best k(v) among all candidates of that level,
// then v = 16..32 greedily; k(v) by mt_kv_lattice.
void dc_tune_tempering_dcmt(MtParams& prm);

// rngvet's tempering search: dcmt's search, then single-bit flips of maskB and maskC, top bit
// first, kept while they lower the k(v) defect sum over v = 1..32, sweeps repeated until one
// changes nothing. Never worse than dcmt's search for the same aaa.
void dc_tune_tempering(MtParams& prm);

// k(v) defect sums (over v = 1..32) of dcmt 0.6.1's sets for one p, measured by this project on
// the sets stored in tests/data/dcmt_0.6.1_sets.txt (the test suite recomputes them), so that
// reports can set a file's sets beside dcmt's. Known for p = 521, 607, 1279, 2203.
struct DcmtReference {
    int p;
    int sets;
    const char* call;
    int min;
    double median;
    int max;
};
const DcmtReference* dcmt_reference(int p); // nullptr when not stored

struct DcVerifyOptions {
    int threads = 0; // <= 0: hardware concurrency
    bool equidistribution = true; // compute k(v)
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
    std::string creator; // from the file's header ("" when not stated)
    std::string dc_seed;
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
