// GF(2) polynomials, characteristic polynomials, primitivity, k(v), dc_create and dc_verify
// (generators/gf2poly.hpp, generators/mt_charpoly.hpp, dc/dynamic_creator.hpp).
#include "dc/dynamic_creator.hpp"
#include "generators/gf2poly.hpp"
#include "generators/mt_params.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#ifndef RNGVET_DATA_DIR
#error "define RNGVET_DATA_DIR (the repository's generators/params folder)"
#endif

#ifndef RNGVET_DCMT_SETS
#error "define RNGVET_DCMT_SETS (tests/data/dcmt_0.6.1_sets.txt)"
#endif

namespace {

using namespace rngvet;

const std::string sdk_path = std::string(RNGVET_DATA_DIR) + "/MersenneTwister.dat";

Gf2Poly poly(std::initializer_list<int> exponents)
{
    Gf2Poly f;
    for (int e : exponents)
        f.set_coeff(e, !f.coeff(e));
    return f;
}

bool contains(const std::vector<std::string>& lines, const std::string& part)
{
    for (const auto& l : lines) {
        if (l.find(part) != std::string::npos) return true;
    }
    return false;
}

// k(v) by brute force, independent of the symbolic method of dc/equidistribution.cpp: run mt_next
// from each of the p unit states (window y_nn, y_nn+1, ...), collect the top v bits of each
// output as rows over those p states, and find the first output whose rows are dependent.
int brute_force_kv(const MtParams& prm, int v)
{
    const int p = mt_exponent(prm);
    const int k_max = p / v;
    const std::size_t words = static_cast<std::size_t>(p + 63) / 64;
    std::vector<std::vector<std::uint32_t>> outputs; // [unit state][time]
    static MtState s;
    for (int i = 0; i < prm.nn; ++i) {
        for (int b = 0; b < 32; ++b) {
            if (i == 0 && ((prm.umask >> b) & 1u) == 0) continue;
            for (int j = 0; j < prm.nn; ++j)
                s.st[j] = 0;
            s.st[i] = 1u << b;
            s.k = 0;
            std::vector<std::uint32_t> ys;
            for (int t = 0; t < k_max; ++t)
                ys.push_back(mt_next(s, prm));
            outputs.push_back(std::move(ys));
        }
    }
    std::vector<std::vector<std::uint64_t>> basis;
    std::vector<std::size_t> pivots;
    for (int t = 0; t < k_max; ++t) {
        for (int bit = 31; bit >= 32 - v; --bit) {
            std::vector<std::uint64_t> row(words, 0);
            for (std::size_t c = 0; c < outputs.size(); ++c) {
                if ((outputs[c][static_cast<std::size_t>(t)] >> bit) & 1u)
                    row[c / 64] |= 1ull << (c % 64);
            }
            for (std::size_t q = 0; q < basis.size(); ++q) {
                if ((row[pivots[q] / 64] >> (pivots[q] % 64)) & 1u) {
                    for (std::size_t w = 0; w < words; ++w)
                        row[w] ^= basis[q][w];
                }
            }
            std::size_t pivot = words * 64;
            for (std::size_t w = 0; w < words && pivot == words * 64; ++w) {
                if (row[w] != 0) pivot = 64 * w + static_cast<std::size_t>(__builtin_ctzll(row[w]));
            }
            if (pivot == words * 64) return t; // outputs 0..t-1 were fine
            for (std::size_t q = 0; q < basis.size(); ++q) {
                if ((basis[q][pivot / 64] >> (pivot % 64)) & 1u) {
                    for (std::size_t w = 0; w < words; ++w)
                        basis[q][w] ^= row[w];
                }
            }
            basis.push_back(row);
            pivots.push_back(pivot);
        }
    }
    return k_max;
}

TEST(Gf2Poly, Arithmetic)
{
    const Gf2Poly a = poly({ 0, 1, 4 }); // t^4 + t + 1
    const Gf2Poly b = poly({ 0, 2, 3, 70, 130 }); // spans several words
    const Gf2Poly ab = multiply(a, b);
    EXPECT_EQ(ab.degree(), 134);
    EXPECT_TRUE(remainder(ab, a).is_zero());
    EXPECT_TRUE(remainder(ab, b).is_zero());
    EXPECT_EQ(square(b), multiply(b, b));
    EXPECT_EQ(poly({ 0, 1 }).hex(), "3");
    EXPECT_EQ(a.hex(), "13");
    // (t+1)^2 = t^2 + 1 over GF(2)
    EXPECT_EQ(square(poly({ 0, 1 })), poly({ 0, 2 }));
    // gcd(a*c, b*c) = c when gcd(a, b) = 1; c = t^5 + t^2 + 1 is irreducible.
    const Gf2Poly c = poly({ 0, 2, 5 });
    EXPECT_EQ(gcd(a, c), Gf2Poly::monomial(0));
    EXPECT_EQ(gcd(multiply(a, c), multiply(poly({ 0, 1, 3 }), c)), c);
    const Gf2Poly r = remainder(b, a);
    EXPECT_LT(r.degree(), 4);
    EXPECT_TRUE(remainder(b + r, a).is_zero());
    const Gf2Modulus m(poly({ 0, 1, 4 }));
    EXPECT_EQ(m.t_pow_2k(4), poly({ 1 })); // t^16 = t mod a primitive quartic
}

// t_pow_2k reduces eight coefficients at a time with a table; square_mod clears one
// coefficient at a time with shifted copies of the modulus (the method t_pow_2k used before).
// Both must give the same polynomial, for degrees with and without a multiple of 8, spanning
// one or several words, and below 8 (where t_pow_2k falls back to square_mod).
TEST(Gf2Poly, FrobeniusByBytesMatchesBitwiseSquaring)
{
    std::uint64_t x = 88172645463325252ull;
    auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    for (int degree : { 1, 2, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 127, 128, 129, 200, 521, 607 }) {
        for (int trial = 0; trial < 3; ++trial) {
            Gf2Poly m = Gf2Poly::monomial(degree);
            for (int i = 0; i < degree; ++i)
                m.set_coeff(i, (next() >> 11) & 1u);
            m.set_coeff(0, true);
            const Gf2Modulus mod(m);
            Gf2Poly y = mod.reduce(Gf2Poly::monomial(1));
            for (int k = 1; k <= degree + 3; ++k) {
                y = mod.square_mod(y);
                if (k <= 3 || k % 7 == 0 || k >= degree) {
                    ASSERT_EQ(mod.t_pow_2k(k), y) << "degree " << degree << " k " << k;
                }
            }
        }
    }
}

TEST(Gf2Poly, SmallIrreducibleCounts)
{
    // Gauss's formula: 2, 1, 2, 3, 6, 9, 18, 30, 56 irreducible polynomials of degree 1..9.
    const auto irr = small_irreducibles(9);
    EXPECT_EQ(irr.size(), 127u);
    int by_degree[10] = {};
    for (auto g : irr)
        ++by_degree[31 - __builtin_clz(g)];
    const int expected[10] = { 0, 2, 1, 2, 3, 6, 9, 18, 30, 56 };
    for (int d = 1; d <= 9; ++d)
        EXPECT_EQ(by_degree[d], expected[d]) << "degree " << d;
}

TEST(Gf2Poly, BerlekampMasseyRecoversAnLfsr)
{
    // s_n = s_(n-3) + s_(n-31): characteristic polynomial t^31 + t^28 + 1.
    std::vector<std::uint8_t> s(200, 0);
    s[0] = 1;
    s[5] = 1;
    for (std::size_t n = 31; n < s.size(); ++n)
        s[n] = s[n - 3] ^ s[n - 31];
    EXPECT_EQ(berlekamp_massey(s), poly({ 0, 28, 31 }));
}

TEST(Gf2Poly, PrimitivityOfKnownTrinomials)
{
    // Primitive trinomials for Mersenne exponents (Zierler & Brillhart; used by GFSR
    // generators): t^521 + t^32 + 1, t^607 + t^105 + 1, t^127 + t + 1.
    EXPECT_TRUE(primitivity_mersenne(poly({ 0, 32, 521 })).primitive);
    EXPECT_TRUE(primitivity_mersenne(poly({ 0, 105, 607 })).primitive);
    EXPECT_TRUE(primitivity_mersenne(poly({ 0, 1, 127 })).primitive);
    // Reducible: a small factor, and a product of two large irreducibles.
    EXPECT_FALSE(primitivity_mersenne(multiply(poly({ 0, 1, 2 }), poly({ 0, 1, 519 }))).primitive);
    EXPECT_THROW(primitivity_mersenne(poly({ 0, 1, 254 })), std::invalid_argument);
    const auto prod = primitivity_mersenne(
        multiply(poly({ 0, 1, 127 }), multiply(poly({ 0, 1, 127 }), poly({ 0, 32, 267 }))));
    EXPECT_FALSE(prod.primitive); // degree 521, not irreducible
}

TEST(DynamicCreator, CharacteristicPolynomialDoesNotDependOnTheBitSequence)
{
    const MtParams prm = builtin_param_set("fixstars-mt521").sets[3];
    const Gf2Poly phi = mt_characteristic_polynomial(prm);
    EXPECT_EQ(phi.degree(), 521);
    // Another seed and another output bit (bit 31 of the raw words) give the same polynomial.
    static MtState s;
    mt_seed(s, prm, 12345u);
    std::vector<std::uint8_t> bits;
    for (int i = 0; i < 2 * 521; ++i) {
        mt_next(s, prm);
        bits.push_back(static_cast<std::uint8_t>(s.st[(s.k + prm.nn - 1) % prm.nn] >> 31));
    }
    EXPECT_EQ(berlekamp_massey(bits), phi);
    EXPECT_TRUE(primitivity_mersenne(phi).primitive);
}

TEST(DynamicCreator, EquidistributionMatchesBruteForce)
{
    const MtParamSet fix = builtin_param_set("fixstars-mt521");
    const MtParamSet sdk = load_param_file(sdk_path);
    MtParams untempered = fix.sets[0];
    untempered.maskB = 0;
    untempered.maskC = 0;
    for (const MtParams& prm : { fix.sets[0], fix.sets[17], sdk.sets[4095], untempered }) {
        SCOPED_TRACE(prm.aaa);
        const MtEquidistribution kv = mt_equidistribution(prm);
        for (int v = 1; v <= 32; ++v) {
            EXPECT_EQ(kv.k[v], brute_force_kv(prm, v)) << "v=" << v;
            EXPECT_LE(kv.k[v], kv.bound(v));
            if (v > 1) {
                EXPECT_LE(kv.k[v], kv.k[v - 1]) << "k(v) cannot grow with v";
            }
        }
        EXPECT_EQ(kv.k[32], prm.nn - 1);
    }
    // Tempering matters: the published masks are much better than none.
    EXPECT_LT(mt_equidistribution(fix.sets[0]).defect_sum(),
        mt_equidistribution(untempered).defect_sum() / 2);
}

TEST(DynamicCreator, VerifyPassesTheFixstarsTable)
{
    const DcVerifyReport rep = dc_verify(builtin_param_set("fixstars-mt521"));
    EXPECT_TRUE(rep.passed()) << (rep.failures().empty() ? "" : rep.failures().front());
    ASSERT_EQ(rep.sets.size(), 32u);
    EXPECT_TRUE(rep.kv_computed);
    for (const auto& s : rep.sets) {
        EXPECT_TRUE(s.primitive);
        EXPECT_EQ(s.charpoly.degree(), 521);
        EXPECT_GT(s.kv.defect_sum(), 0);
    }
    EXPECT_TRUE(rep.duplicate_ids.empty());
    EXPECT_TRUE(rep.equal_charpolys.empty());
}

// All 4096 SDK sets: primitivity, ids and distinct polynomials (k(v) for all of them takes
// about 10 s on 2 cores and is left to `rngvet dc verify`; here k(v) for the first 64).
TEST(DynamicCreator, VerifyPassesTheNvidiaSdkFile)
{
    const MtParamSet sdk = load_param_file(sdk_path);
    const DcVerifyReport rep = dc_verify(sdk, DcVerifyOptions{ 0, false, -1 });
    EXPECT_TRUE(rep.passed()) << (rep.failures().empty() ? "" : rep.failures().front());
    ASSERT_EQ(rep.sets.size(), 4096u);
    EXPECT_FALSE(rep.kv_computed);
    MtParamSet sample = sdk;
    sample.sets.resize(64);
    sample.ids.resize(64);
    const DcVerifyReport rep64 = dc_verify(sample);
    EXPECT_TRUE(rep64.passed());
    EXPECT_TRUE(rep64.kv_computed);
    EXPECT_EQ(rep64.sets[0].kv.k[1], 607);
}

TEST(DynamicCreator, VerifyFailsAlteredSets)
{
    MtParamSet set = builtin_param_set("fixstars-mt521");
    set.sets[5].aaa ^= 1u << 20; // one bit of the twist matrix
    DcVerifyReport rep = dc_verify(set);
    EXPECT_FALSE(rep.passed());
    EXPECT_FALSE(rep.sets[5].primitive);
    EXPECT_TRUE(contains(rep.failures(), "set 5 (id 5): primitive"));
    EXPECT_EQ(rep.failures().size(), 1u);

    set = builtin_param_set("fixstars-mt521");
    set.ids[9] = 3;
    rep = dc_verify(set, DcVerifyOptions{ 0, false, -1 });
    EXPECT_TRUE(contains(rep.failures(), "ids distinct"));

    set = builtin_param_set("fixstars-mt521");
    set.sets[7].maskB ^= 0x100u; // same recurrence as set 7, so the same polynomial
    set.sets.push_back(set.sets[7]);
    set.ids.push_back(99);
    set.sets.back().maskB ^= 0x100u;
    rep = dc_verify(set, DcVerifyOptions{ 0, false, -1 });
    EXPECT_TRUE(contains(rep.failures(), "distinct characteristic polynomials"));

    set = builtin_param_set("fixstars-mt521");
    set.sets[2].mm = 5;
    rep = dc_verify(set, DcVerifyOptions{ 0, false, -1 });
    EXPECT_TRUE(contains(rep.failures(), "set 2 (id 2): layout"));

    rep = dc_verify(builtin_param_set("fixstars-mt521"), DcVerifyOptions{ 0, true, 110 });
    EXPECT_TRUE(contains(rep.failures(), "equidistribution: defect sum"));
}

TEST(DynamicCreator, CreatedSetsPassVerify)
{
    const std::uint32_t seed = 20240607u;
    const MtParamSet made = dc_create(521, 4, seed);
    ASSERT_EQ(made.sets.size(), 4u);
    EXPECT_EQ(made.p, 521);
    for (std::size_t i = 0; i < made.sets.size(); ++i) {
        EXPECT_EQ(made.ids[i], i);
        EXPECT_EQ(made.sets[i].aaa & 0xFFFFu, i) << "id in the low 16 bits";
        EXPECT_NE(made.sets[i].aaa & 0x80000000u, 0u) << "top bit forced";
        EXPECT_EQ(made.sets[i].maskB & 0x7Fu, 0u);
        EXPECT_EQ(made.sets[i].maskC & 0x7FFFu, 0u);
    }
    const DcVerifyReport rep = dc_verify(made);
    EXPECT_TRUE(rep.passed()) << (rep.failures().empty() ? "" : rep.failures().front());
    for (const auto& s : rep.sets)
        EXPECT_LT(s.kv.defect_sum(), 200) << "id " << s.id;

    // A set depends on (p, seed, id) only.
    const MtParamSet one = dc_create(521, 1, seed, 1);
    EXPECT_EQ(one.sets[0].aaa, made.sets[0].aaa);
    EXPECT_EQ(one.sets[0].maskB, made.sets[0].maskB);
    EXPECT_EQ(one.sets[0].maskC, made.sets[0].maskC);

    // Written and read back through the text format.
    const MtParamSet back = parse_param_text(format_param_text(made, { "t" }), "made");
    EXPECT_TRUE(dc_verify(back, DcVerifyOptions{ 0, false, -1 }).passed());
}

// ---------------------------------------------------------------------------------------------
// dcmt 0.6.1 compatibility and the methods it rests on
// ---------------------------------------------------------------------------------------------

struct DcmtRow {
    std::uint32_t id, aaa, mask_b, mask_c;
};
using DcmtCall = std::tuple<int, std::uint32_t, int>; // p, seed, start_id

// The stored output of dcmt 0.6.1: one block of rows per get_mt_parameters_st call.
std::map<DcmtCall, std::vector<DcmtRow>> dcmt_blocks()
{
    std::ifstream in(RNGVET_DCMT_SETS);
    EXPECT_TRUE(in) << RNGVET_DCMT_SETS;
    std::map<DcmtCall, std::vector<DcmtRow>> out;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream f(line);
        int p = 0, start = 0;
        std::uint32_t seed = 0;
        DcmtRow r{};
        f >> p >> seed >> start >> r.id >> std::hex >> r.aaa >> r.mask_b >> r.mask_c;
        EXPECT_TRUE(f) << line;
        out[{ p, seed, start }].push_back(r);
    }
    return out;
}

void expect_dcmt_sets(int p, std::uint32_t seed, int start, const std::vector<DcmtRow>& rows,
    std::size_t count, int threads)
{
    SCOPED_TRACE("p=" + std::to_string(p) + " seed=" + std::to_string(seed)
        + " start_id=" + std::to_string(start) + " threads=" + std::to_string(threads));
    ASSERT_LE(count, rows.size());
    DcCreateOptions o;
    o.p = p;
    o.seed = seed;
    o.start_id = start;
    o.count = static_cast<int>(count);
    o.creator = DcCreator::dcmt_061;
    o.threads = threads;
    const MtParamSet made = dc_create(o);
    ASSERT_EQ(made.sets.size(), count);
    EXPECT_EQ(made.creator, "dcmt-0.6.1");
    for (std::size_t i = 0; i < count; ++i) {
        EXPECT_EQ(made.ids[i], rows[i].id);
        EXPECT_EQ(made.sets[i].aaa, rows[i].aaa) << "id " << rows[i].id;
        EXPECT_EQ(made.sets[i].maskB, rows[i].mask_b) << "id " << rows[i].id;
        EXPECT_EQ(made.sets[i].maskC, rows[i].mask_c) << "id " << rows[i].id;
    }
}

// Bit for bit: every aaa, maskB and maskC of the stored dcmt calls, taken in part to keep each
// test within seconds (scripts/dc_bench.sh compares the whole calls).
void expect_dcmt_blocks(const std::map<DcmtCall, std::size_t>& prefix)
{
    const auto blocks = dcmt_blocks();
    ASSERT_EQ(blocks.size(), 8u);
    for (const auto& [call, count] : prefix) {
        const auto it = blocks.find(call);
        ASSERT_NE(it, blocks.end());
        expect_dcmt_sets(
            std::get<0>(call), std::get<1>(call), std::get<2>(call), it->second, count, 0);
    }
}

TEST(DcmtCompat, ReproducesStoredDcmtOutputP521P607)
{
    expect_dcmt_blocks({ { { 521, 4172u, 0 }, 16 }, { { 607, 4172u, 0 }, 4 },
        { { 607, 4172u, 100 }, 8 }, { { 521, 4294967295u, 65530 }, 6 } });
}

TEST(DcmtCompat, ReproducesStoredDcmtOutputP1279)
{
    expect_dcmt_blocks({ { { 1279, 4172u, 0 }, 1 }, { { 1279, 1u, 0 }, 2 } });
}

TEST(DcmtCompat, ReproducesStoredDcmtOutputP2203)
{
    expect_dcmt_blocks({ { { 2203, 12345u, 5 }, 1 } });
}

// The candidate stream is one sequence: the result must not depend on the threads that test it.
TEST(DcmtCompat, SameSetsOnOneThread)
{
    const auto blocks = dcmt_blocks();
    expect_dcmt_sets(607, 4172u, 100, blocks.at({ 607, 4172u, 100 }), 4, 1);
}

// The stored reference figures of dcmt_reference are the defect sums of the stored sets.
TEST(DcmtCompat, ReferenceDefectSumsMatchTheStoredSets)
{
    for (const auto& [call, rows] : dcmt_blocks()) {
        const int p = std::get<0>(call);
        if (std::get<1>(call) != 4172u || std::get<2>(call) != 0) continue;
        const DcmtReference* ref = dcmt_reference(p);
        ASSERT_NE(ref, nullptr) << p;
        ASSERT_EQ(rows.size(), static_cast<std::size_t>(ref->sets));
        std::vector<int> sums;
        for (const auto& r : rows)
            sums.push_back(
                mt_equidistribution(mt_params_for(p, r.aaa, r.mask_b, r.mask_c)).defect_sum());
        std::sort(sums.begin(), sums.end());
        EXPECT_EQ(sums.front(), ref->min) << p;
        EXPECT_EQ((sums[15] + sums[16]) / 2.0, ref->median) << p;
        EXPECT_EQ(sums.back(), ref->max) << p;
    }
}

// The closed formula of phi agrees with Berlekamp-Massey on primitive sets, and its prescreen
// and exact test agree with the generic ones on arbitrary candidates.
TEST(DcmtCompat, CharacteristicPolynomialFormula)
{
    const MtCharpoly phi521(521);
    for (const MtParams& prm : builtin_param_set("fixstars-mt521").sets) {
        EXPECT_EQ(phi521.of(prm.aaa), mt_characteristic_polynomial(prm)) << prm.aaa;
        EXPECT_TRUE(phi521.primitive(prm.aaa)) << prm.aaa;
    }
    static const std::vector<std::uint32_t> small = small_irreducibles(9);
    for (int p : { 521, 607, 1279, 19937 }) {
        const MtCharpoly phi(p);
        std::uint32_t x = 2463534242u;
        for (int i = 0; i < (p < 2000 ? 300 : 20); ++i) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            const std::uint32_t aaa = x | 0x80000000u;
            const Gf2Poly f = phi.of(aaa);
            ASSERT_EQ(f.degree(), p);
            const bool small_factor = std::any_of(
                small.begin(), small.end(), [&](std::uint32_t g) { return divides_small(g, f); });
            EXPECT_EQ(phi.prescreen(aaa), !small_factor) << std::hex << aaa;
            if (p < 2000 && phi.prescreen(aaa)) {
                EXPECT_EQ(
                    phi.primitive(aaa), mt_primitivity(mt_params_for(p, aaa, 0, 0)).primitive);
            }
        }
    }
}

// The exact test of MtCharpoly::primitive (t^(2^p) mod phi by byte-table reduction) against
// the former method (p squarings reduced one coefficient at a time), on every primitive aaa of
// the stored dcmt calls and on many prescreened candidates, almost all of them reducible:
// t^(2^p) mod phi must agree bit for bit, and so must the verdicts, and those of the
// decimation test (which primitive() runs first from p = 19937 on).
TEST(DcmtCompat, ExactPrimitivityTestAgreesWithBitwiseSquaring)
{
    std::map<int, std::vector<std::uint32_t>> known; // p -> primitive aaa (dcmt's output)
    for (const auto& [call, rows] : dcmt_blocks()) {
        for (const auto& r : rows)
            known[std::get<0>(call)].push_back(r.aaa);
    }
    std::uint32_t x = 2463534242u;
    for (int p : { 521, 607, 1279 }) {
        SCOPED_TRACE("p=" + std::to_string(p));
        const MtCharpoly phi(p);
        std::vector<std::uint32_t> cands = known[p];
        ASSERT_GE(cands.size(), 8u);
        if (p == 1279) cands.resize(8);
        const std::size_t n_known = cands.size();
        const int wanted = p < 1000 ? 120 : 25; // prescreened random candidates
        for (int found = 0; found < wanted;) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            const std::uint32_t aaa = x | 0x80000000u;
            if (!phi.prescreen(aaa)) continue;
            cands.push_back(aaa);
            ++found;
        }
        int primitive = 0;
        for (std::size_t i = 0; i < cands.size(); ++i) {
            const std::uint32_t aaa = cands[i];
            const Gf2Modulus mod(phi.of(aaa));
            const Gf2Poly t = mod.reduce(Gf2Poly::monomial(1));
            Gf2Poly y = t;
            for (int k = 0; k < p; ++k)
                y = mod.square_mod(y);
            ASSERT_EQ(mod.t_pow_2k(p), y) << std::hex << aaa;
            EXPECT_EQ(phi.primitive(aaa), y == t) << std::hex << aaa;
            EXPECT_EQ(phi.passes_decimation(aaa), y == t) << "decimation " << std::hex << aaa;
            if (i < n_known) {
                EXPECT_TRUE(phi.primitive(aaa)) << "dcmt's " << std::hex << aaa;
            }
            primitive += y == t ? 1 : 0;
        }
        EXPECT_GE(primitive, static_cast<int>(n_known));
        EXPECT_LE(primitive, static_cast<int>(n_known) + wanted / 4) << "most are reducible";
    }
}

// The lattice method gives the k(v) of Gaussian elimination (itself checked against brute
// force above), and MT19937's known dimension defect sum 6750 (Panneton, L'Ecuyer & Matsumoto,
// "Improved long-period generators based on linear recurrences modulo 2", ACM TOMS 32(1) 2006,
// table of Delta_1 for MT19937).
TEST(DcmtCompat, LatticeKvMatchesGaussianElimination)
{
    const MtParamSet fix = builtin_param_set("fixstars-mt521");
    MtParams untempered = fix.sets[0];
    untempered.maskB = 0;
    untempered.maskC = 0;
    const auto blocks = dcmt_blocks();
    const DcmtRow r1279 = blocks.at({ 1279, 1u, 0 })[0];
    const DcmtRow r2203 = blocks.at({ 2203, 12345u, 5 })[0];
    for (const MtParams& prm : { fix.sets[0], fix.sets[17], untempered,
             mt_params_for(1279, r1279.aaa, r1279.mask_b, r1279.mask_c),
             mt_params_for(2203, r2203.aaa, r2203.mask_b, r2203.mask_c) }) {
        const MtEquidistribution kv = mt_equidistribution(prm);
        for (int v = 1; v <= 32; ++v)
            EXPECT_EQ(mt_kv_lattice(prm, v), kv.k[v]) << "aaa " << prm.aaa << " v=" << v;
    }
    const MtParams mt = mt19937_params();
    int sum = 0;
    for (int v = 1; v <= 32; ++v)
        sum += 19937 / v - mt_kv_lattice(mt, v);
    EXPECT_EQ(sum, 6750);
    EXPECT_EQ(mt_kv_lattice(mt, 1), 19937);
    EXPECT_EQ(mt_kv_lattice(mt, 32), 623);
}

// rngvet mode: each set's aaa is one of the first two primitive aaa of its id's own stream
// (MT19937 seeded by init_by_array({seed, id})), and its defect sum is at most that of dcmt's
// tempering search on the first of them (the set keeps the better of the two and only then
// flips bits).
TEST(DynamicCreator, RngvetKeepsTheBetterOfTheFirstTwoPrimitiveAaa)
{
    const std::uint32_t seed = 4172u;
    const int p = 607;
    const MtParamSet made = dc_create(p, 6, seed);
    const MtCharpoly phi(p);
    const MtParams mt = mt19937_params();
    for (std::uint32_t id = 0; id < 6; ++id) {
        MtState rng;
        const std::uint32_t key[2] = { seed, id };
        mt19937_init_by_array(rng, mt, key, 2);
        std::vector<std::uint32_t> first;
        while (first.size() < 2) {
            const std::uint32_t aaa = 0x80000000u | (mt_next(rng, mt) & 0x7FFF0000u) | id;
            if (phi.primitive(aaa)) first.push_back(aaa);
        }
        const MtParams& set = made.sets[id];
        EXPECT_TRUE(set.aaa == first[0] || set.aaa == first[1]) << "id " << id;
        MtParams dcmt_first = mt_params_for(p, first[0], 0, 0);
        dc_tune_tempering_dcmt(dcmt_first);
        EXPECT_LE(
            mt_equidistribution(set).defect_sum(), mt_equidistribution(dcmt_first).defect_sum())
            << "id " << id;
    }
}

// The search tests candidates speculatively on all threads, but keeps the first primitive
// ones in stream order: any thread count, including more threads than sets, gives the same
// sets (and, in dcmt mode, dcmt's).
TEST(DynamicCreator, SameSetsForAnyThreadCount)
{
    DcCreateOptions o;
    o.p = 521;
    o.count = 5;
    o.seed = 99u;
    o.start_id = 40;
    o.threads = 1;
    const MtParamSet one = dc_create(o);
    for (int threads : { 2, 3, 8, 16 }) {
        o.threads = threads;
        const MtParamSet many = dc_create(o);
        ASSERT_EQ(many.sets.size(), one.sets.size());
        for (std::size_t i = 0; i < one.sets.size(); ++i) {
            EXPECT_EQ(many.ids[i], one.ids[i]);
            EXPECT_EQ(many.sets[i].aaa, one.sets[i].aaa) << threads << " threads, set " << i;
            EXPECT_EQ(many.sets[i].maskB, one.sets[i].maskB) << threads << " threads, set " << i;
            EXPECT_EQ(many.sets[i].maskC, one.sets[i].maskC) << threads << " threads, set " << i;
        }
    }
    const auto blocks = dcmt_blocks();
    for (int threads : { 3, 16 })
        expect_dcmt_sets(521, 4172u, 0, blocks.at({ 521, 4172u, 0 }), 6, threads);
}

// When an id's stream runs out of draws without a primitive aaa, dc_create stops with an error
// naming that id (dcmt mode: as dcmt gives up after 10000 candidates), on any thread count,
// whether the last draw or the last test comes last. With 40 draws per id (about 2.5
// prescreened candidates; about one in 23 is primitive at p = 521) nearly every id fails.
TEST(DynamicCreator, GivesUpOnAnIdWithTheDrawLimit)
{
    for (DcCreator creator : { DcCreator::dcmt_061, DcCreator::rngvet }) {
        for (int threads : { 1, 2, 8 }) {
            DcCreateOptions o;
            o.p = 521;
            o.count = 8;
            o.seed = 4172u;
            o.creator = creator;
            o.threads = threads;
            o.max_draws = 40;
            try {
                dc_create(o);
                ADD_FAILURE() << "no error, " << threads << " threads";
            } catch (const std::runtime_error& e) {
                const std::string what = e.what();
                EXPECT_NE(what.find(" id "), std::string::npos) << what;
                EXPECT_NE(what.find("40"), std::string::npos) << what;
            }
        }
    }
    // dcmt mode names the first id whose 200 draws (dcmt's stream: init_genrand(seed), nn more
    // draws after each prescreened candidate) hold no primitive candidate; for seed 4172 an
    // id before it succeeds, so the stream must have resumed after that id's winner.
    const MtCharpoly phi(521);
    const MtParams mt = mt19937_params();
    MtState rng;
    mt_seed(rng, mt, 4172u);
    int failing = -1;
    for (std::uint32_t id = 0; id < 8 && failing < 0; ++id) {
        bool found = false;
        for (int draw = 0; draw < 200 && !found; ++draw) {
            const std::uint32_t aaa = (mt_next(rng, mt) & 0xFFFF0000u) | 0x80000000u | id;
            if (!phi.prescreen(aaa)) continue;
            for (int d = 0; d < 17; ++d) // nn = 17 for p = 521
                mt_next(rng, mt);
            found = phi.primitive(aaa);
        }
        if (!found) failing = static_cast<int>(id);
    }
    ASSERT_GE(failing, 1);
    DcCreateOptions o;
    o.p = 521;
    o.count = 8;
    o.seed = 4172u;
    o.creator = DcCreator::dcmt_061;
    o.max_draws = 200;
    o.threads = 4;
    try {
        dc_create(o);
        ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("on id " + std::to_string(failing) + " after"),
            std::string::npos)
            << e.what();
    }
}

// rngvet's tempering starts from dcmt's and only accepts improvements.
TEST(DynamicCreator, RngvetTemperingNeverWorseThanDcmts)
{
    for (const MtParams& base : builtin_param_set("fixstars-mt521").sets) {
        if (base.aaa % 8 != 0) continue; // a few sets suffice
        MtParams ours = base;
        MtParams theirs = base;
        dc_tune_tempering(ours);
        dc_tune_tempering_dcmt(theirs);
        EXPECT_LE(mt_equidistribution(ours).defect_sum(), mt_equidistribution(theirs).defect_sum());
    }
}

} // namespace
