// The RANMAR family (ranmar24, ranmar48, ranmar48x; the variant is in the generator's row): its
// row of the family table and its answers, its seeds IJ,KL or IJKL, their series, the seeding of
// its instances and its reference stream. The engine, its seeding and step are ranmar.hpp's; its
// jump-ahead jump.hpp's (shared with the kernels' jump-parallel form).
#include "engines.hpp"
#include "error.hpp"
#include "family_common.hpp"
#include "jump.hpp"
#include "ranmar.hpp"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace rngvet {
namespace {

struct RanmarEngine {
    RanmarState state;
    std::uint64_t next() { return ranmar_next(state); }
    void fill(std::uint64_t* out, std::size_t n) { ranmar_fill(state, out, n); }
    void jump(std::uint64_t n) { ranmar_jump(state, n); }
};

// Seeds of instance i for RANMAR under each seeding scheme. James's kl wraps in 0..30081.
void ranmar_instance_seed(const Configuration& c, int i, int& ij, int& kl)
{
    const std::uint64_t kl_range = ranmar_kl_max + 1;
    ij = static_cast<int>(c.seed[0]);
    kl = static_cast<int>(c.seed[1]);
    const std::uint64_t n = static_cast<std::uint64_t>(i);
    switch (c.seeding.kind) {
    case SeedingKind::same:
    case SeedingKind::split: // the base seed, jumped by i * S numbers (ranmar_instance_state)
        break;
    case SeedingKind::increment:
        kl = static_cast<int>((kl + n) % kl_range);
        break;
    case SeedingKind::stride:
        kl = static_cast<int>((kl + (c.seeding.stride % kl_range) * (n % kl_range)) % kl_range);
        break;
    case SeedingKind::hash: {
        const std::uint64_t base = static_cast<std::uint64_t>(ij) * kl_range + kl;
        const std::uint64_t h = splitmix64((base << 32) ^ n);
        ij = static_cast<int>((h & 0xFFFFFFFFull) % (ranmar_ij_max + 1));
        kl = static_cast<int>((h >> 32) % kl_range);
        break;
    }
    }
}

// RANMAR's seeds: IJ,KL, or the one number IJKL (IJ = IJKL / 30082, KL = IJKL mod 30082);
// a series steps IJ,KL by (1553, 2671) modulo (31329, 30082) (docs/findings.md).
std::vector<std::int64_t> ranmar_series(const std::vector<std::int64_t>& first, std::int64_t k)
{
    if (first.size() == 1 && first[0] <= ranmar_ijkl_max) {
        const RanmarSeedPair pair = ranmar_seed_of_ijkl(first[0]);
        return ranmar_series({ pair.ij, pair.kl }, k);
    }
    if (first.size() == 2)
        return { (first[0] + 1553 * k) % (ranmar_ij_max + 1),
            (first[1] + 2671 * k) % (ranmar_kl_max + 1) };
    if (first.size() != 1)
        throw InputError("the seed " + seed_string(first)
            + " is a list of several numbers, which no series of seeds continues; give one "
              "number or IJ,KL");
    return { first[0] + k };
}

std::vector<std::int64_t> ranmar_seed_of_number(const std::string& generator, std::int64_t n)
{
    if (n > ranmar_ijkl_max)
        throw InputError(generator + " seed IJKL = " + std::to_string(n)
            + " is out of range 0..900000000 (or give --seed IJ,KL)");
    const RanmarSeedPair pair = ranmar_seed_of_ijkl(n);
    return { pair.ij, pair.kl };
}

std::int64_t ranmar_number_of_seed(const std::vector<std::int64_t>& seed)
{
    return seed.size() == 2 ? seed[0] * ranmar_ijkl_divisor + seed[1] : -1;
}

void check_ranmar(const Configuration& c)
{
    const std::string name = to_string(c.generator);
    if (c.seed.size() != 2)
        throw InputError(name
            + " takes --seed IJ,KL (0 <= IJ <= 31328, 0 <= KL <= 30081) or --seed IJKL "
              "(0..900000000, IJ = IJKL / 30082, KL = IJKL mod 30082)");
    if (c.seed[0] < 0 || c.seed[0] > ranmar_ij_max)
        throw InputError(
            name + " seed IJ = " + std::to_string(c.seed[0]) + " is out of range 0..31328");
    if (c.seed[1] < 0 || c.seed[1] > ranmar_kl_max)
        throw InputError(
            name + " seed KL = " + std::to_string(c.seed[1]) + " is out of range 0..30081");
}

std::unique_ptr<Stream> make_ranmar_reference(const Configuration& c)
{
    std::vector<RanmarEngine> engines(static_cast<std::size_t>(c.instances));
    for (int i = 0; i < c.instances; ++i)
        engines[static_cast<std::size_t>(i)].state = ranmar_instance_state(c, i);
    return std::make_unique<CombinedStream<RanmarEngine>>(
        std::move(engines), c.layout, traits(c.generator).bits, canonical_name(c));
}

void ranmar_instance_configuration(const Configuration& c, int i, Configuration& one)
{
    int ij = 0, kl = 0;
    ranmar_instance_seed(c, i, ij, kl);
    one.seed = { ij, kl };
}

// The variant a generator of the family seeds.
RanmarVariant ranmar_variant(GeneratorKind kind)
{
    if (kind == kinds::ranmar24) return RanmarVariant::r24;
    return kind == kinds::ranmar48x ? RanmarVariant::r48x : RanmarVariant::r48;
}

} // namespace

// The numbers are made a block at a time in a straight window, w[m] = X_{k-97+m} for the block's
// first number k. X_k reads X_{k-97} and X_{k-33}, so 33 consecutive values never read each other
// and the block's loop runs them side by side. c runs as `lanes` chains, lane l holding every
// lanes-th value, each stepping back lanes * cd at once (ranmar_c_back takes any d < cm). GCC
// makes an AVX2 form of it beside the plain x86-64 one, picked when the program loads (the loops
// vectorize whole there; this file is built with GCC's dynamic vectorizer cost model,
// generators/CMakeLists.txt).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
void ranmar_fill_window(std::uint64_t* window, std::uint64_t& c_last, const RanmarArithmetic& a,
    std::uint64_t* out, std::size_t n)
{
    constexpr std::size_t lags = ranmar_lags;
    constexpr std::size_t lanes = 8;
    constexpr std::size_t block = 2048; // a multiple of lanes
    const std::uint64_t mask = a.mask, cd = a.cd, cm = a.cm, zero_smallest = a.zero_smallest;
    const std::uint64_t lanes_cd = lanes * cd % cm;
    alignas(64) std::uint64_t w[lags + block];
    alignas(64) std::uint64_t c[block];
    std::uint64_t chain[lanes];
    std::memcpy(w, window, lags * sizeof(std::uint64_t));
    for (std::size_t done = 0; done < n;) {
        const std::size_t b = n - done < block ? n - done : block;
        for (std::size_t j = 0; j < b; ++j)
            w[lags + j] = ranmar_lag_step(w[j], w[j + lags - ranmar_short_lag], mask);
        std::uint64_t now = c_last;
        for (std::size_t l = 0; l < lanes; ++l)
            chain[l] = now = ranmar_c_back(now, cd, cm);
        for (std::size_t g = 0; g < b; g += lanes)
            for (std::size_t l = 0; l < lanes; ++l) {
                c[g + l] = chain[l];
                chain[l] = ranmar_c_back(chain[l], lanes_cd, cm);
            }
        for (std::size_t j = 0; j < b; ++j)
            out[done + j] = ranmar_output(w[lags + j], c[j], mask, zero_smallest);
        c_last = c[b - 1];
        std::memmove(w, w + b, lags * sizeof(std::uint64_t));
        done += b;
    }
    std::memcpy(window, w, lags * sizeof(std::uint64_t));
}

void ranmar_window(const RanmarState& s, std::uint64_t* window)
{
    for (int m = 0; m < ranmar_lags; ++m)
        window[m] = s.u[(s.i97 - m + ranmar_lags) % ranmar_lags];
}

// James's indices move down by one a number; J97 stays 64 (97 - 33) below I97.
void ranmar_set_window(RanmarState& s, const std::uint64_t* window, std::uint64_t n)
{
    s.i97 = (s.i97 - static_cast<int>(n % ranmar_lags) + ranmar_lags) % ranmar_lags;
    s.j97 = (s.i97 - (ranmar_lags - ranmar_short_lag) + ranmar_lags) % ranmar_lags;
    for (int m = 0; m < ranmar_lags; ++m)
        s.u[(s.i97 - m + ranmar_lags) % ranmar_lags] = window[m];
}

void ranmar_fill(RanmarState& s, std::uint64_t* out, std::size_t n)
{
    std::uint64_t w[ranmar_lags];
    ranmar_window(s, w);
    const RanmarArithmetic a{ (1ull << s.bits) - 1, s.cd, s.cm,
        s.zero_policy == static_cast<int>(ZeroPolicy::smallest) ? 1ull : 0ull };
    ranmar_fill_window(w, s.c, a, out, n);
    ranmar_set_window(s, w, n);
}

RanmarState ranmar_instance_state(const Configuration& c, int instance)
{
    int ij = 0, kl = 0;
    ranmar_instance_seed(c, instance, ij, kl);
    RanmarState state{};
    ranmar_seed(state, ranmar_variant(c.generator.kind), ij, kl, c.zero);
    if (c.seeding.kind == SeedingKind::split)
        ranmar_jump(state, c.seeding.stride * static_cast<std::uint64_t>(instance));
    return state;
}

const FamilyTraits& ranmar_family()
{
    static const FamilyTraits row = { families::ranmar, "ranmar", true, true, false, 1024,
        { 1802, 9373 }, ranmar_series, ranmar_seed_of_number, ranmar_number_of_seed,
        describe_computed, false, true, check_ranmar, make_ranmar_reference, nullptr, nullptr,
        nullptr, ranmar_instance_configuration, nullptr, jumps_ahead_fixed<true>, nullptr, nullptr,
        nullptr, 10,
        {
            { kinds::ranmar24, "ranmar24", families::ranmar, 24, "IJ,KL or IJKL", false },
            { kinds::ranmar48, "ranmar48", families::ranmar, 48, "IJ,KL or IJKL", false },
            { kinds::ranmar48x, "ranmar48x", families::ranmar, 48, "IJ,KL or IJKL", false },
        },
        nullptr, nullptr, nullptr };
    return row;
}

} // namespace rngvet
