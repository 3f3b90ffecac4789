// GF(2) polynomials, characteristic polynomials, primitivity, k(v), dc_create and dc_verify
// (generators/gf2poly.hpp, generators/dynamic_creator.hpp).
#include "generators/dynamic_creator.hpp"
#include "generators/gf2poly.hpp"
#include "generators/mt_params.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

#ifndef RNGVET_DATA_DIR
#error "define RNGVET_DATA_DIR (the repository's generators/params folder)"
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

// k(v) by brute force, independent of the symbolic method in dynamic_creator.cpp: run mt_next
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

} // namespace
