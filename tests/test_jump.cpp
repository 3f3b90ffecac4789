// Jump-ahead by n equals generating and discarding n numbers, for every generator family, for
// n up to 10^9 and for pseudo-random n; and a combined stream's discard equals dropping its
// numbers, for every layout.
#include "generators/configuration.hpp"
#include "generators/jump.hpp"
#include "generators/mt_charpoly.hpp"
#include "generators/mt_params.hpp"
#include "generators/r250.hpp"

#include <gtest/gtest.h>
#include <random>

namespace rngvet {
namespace {

std::vector<std::uint64_t> ranmar_after(RanmarState s, std::uint64_t jump, bool use_jump, int count)
{
    if (use_jump)
        ranmar_jump(s, jump);
    else
        for (std::uint64_t i = 0; i < jump; ++i)
            ranmar_next(s);
    std::vector<std::uint64_t> out(static_cast<std::size_t>(count));
    for (auto& x : out)
        x = ranmar_next(s);
    return out;
}

std::vector<std::uint64_t> mt_after(MtState s, const MtParams& prm, const Gf2Poly& phi,
    std::uint64_t jump, bool use_jump, int count)
{
    if (use_jump)
        mt_jump(s, prm, phi, jump);
    else
        for (std::uint64_t i = 0; i < jump; ++i)
            mt_next(s, prm);
    std::vector<std::uint64_t> out(static_cast<std::size_t>(count));
    for (auto& x : out)
        x = mt_next(s, prm);
    return out;
}

std::vector<std::uint64_t> distances()
{
    std::vector<std::uint64_t> n = { 1, 2, 32, 33, 64, 96, 97, 98, 194, 1000, 65537 };
    std::mt19937_64 pick(20261122);
    for (int i = 0; i < 6; ++i)
        n.push_back(pick() % 3000000);
    return n;
}

// The kernels' form of a jump (a polynomial computed once, applied to the window and the next
// 96 values) lands where ranmar_jump does, from states at any pointer position.
TEST(Jump, RanmarPolynomialJumpEqualsJump)
{
    for (RanmarVariant v : { RanmarVariant::r24, RanmarVariant::r48, RanmarVariant::r48x }) {
        RanmarState s{};
        ranmar_seed(s, v, 1802, 9373);
        for (std::uint64_t n : distances()) {
            SCOPED_TRACE(
                "variant " + std::to_string(static_cast<int>(v)) + " n = " + std::to_string(n));
            const RanmarJump j = ranmar_jump_by(s, n);
            RanmarState a = s, b = s;
            for (int again = 0; again < 3; ++again) { // the same jump, reused
                ranmar_jump(a, j);
                ranmar_jump(b, n);
                ASSERT_EQ(ranmar_after(a, 0, false, 200), ranmar_after(b, 0, false, 200));
                ranmar_next(a);
                ranmar_next(b);
            }
        }
    }
}

TEST(Jump, RanmarJumpEqualsStepping)
{
    for (RanmarVariant v : { RanmarVariant::r24, RanmarVariant::r48, RanmarVariant::r48x }) {
        RanmarState s{};
        ranmar_seed(s, v, 1802, 9373);
        ranmar_next(s); // start away from the seeded pointer positions
        for (std::uint64_t n : distances()) {
            SCOPED_TRACE(
                "variant " + std::to_string(static_cast<int>(v)) + " n = " + std::to_string(n));
            ASSERT_EQ(ranmar_after(s, n, true, 200), ranmar_after(s, n, false, 200));
        }
    }
}

TEST(Jump, RanmarJumpOfOneBillion)
{
    RanmarState s{};
    ranmar_seed(s, RanmarVariant::r48x, 4711, 42);
    EXPECT_EQ(ranmar_after(s, 1000000000, true, 100), ranmar_after(s, 1000000000, false, 100));
}

TEST(Jump, MersenneTwisterJumpEqualsStepping)
{
    const MtParamSet book = builtin_param_set("fixstars-mt521");
    const MtParams sdk0 = mt_params_for(607, 0xD7AB0000u, 0xA9766B80u, 0xEFD38000u);
    const MtParams mt19937 = mt19937_params();
    for (const MtParams& prm : { book.sets[3], sdk0, mt19937 }) {
        const Gf2Poly phi = mt_characteristic_polynomial(prm);
        MtState s{};
        mt_seed(s, prm, 777);
        mt_next(s, prm);
        for (std::uint64_t n : distances()) {
            if (prm.nn > 100 && n > 100000) continue; // keep MT19937's Horner passes few
            SCOPED_TRACE("p = " + std::to_string(mt_exponent(prm)) + " n = " + std::to_string(n));
            ASSERT_EQ(mt_after(s, prm, phi, n, true, 1000), mt_after(s, prm, phi, n, false, 1000));
        }
    }
}

TEST(Jump, MersenneTwisterJumpOfOneBillion)
{
    const MtParams prm = builtin_param_set("fixstars-mt521").sets[0];
    const Gf2Poly phi = mt_characteristic_polynomial(prm);
    MtState s{};
    mt_seed(s, prm, 0);
    EXPECT_EQ(mt_after(s, prm, phi, 1000000000, true, 100),
        mt_after(s, prm, phi, 1000000000, false, 100));
}

std::vector<std::uint32_t> r250_after(R250State s, std::uint64_t jump, bool use_jump, int count)
{
    if (use_jump)
        r250_jump(s, jump);
    else
        for (std::uint64_t i = 0; i < jump; ++i)
            r250_next(s);
    std::vector<std::uint32_t> out(static_cast<std::size_t>(count));
    for (auto& x : out)
        x = r250_next(s);
    return out;
}

// Both tap orders, from the seeding and from mid-register positions, for distances below,
// at and above the register's 250 words and the usual ones.
TEST(Jump, R250JumpEqualsStepping)
{
    std::vector<std::uint64_t> ns = distances();
    for (std::uint64_t n : { 103ull, 147ull, 249ull, 250ull, 251ull, 499ull, 500ull })
        ns.push_back(n);
    for (R250Taps taps : { R250Taps::stated, R250Taps::gsl }) {
        R250State s{};
        r250_seed(s, 20261126, taps);
        for (int k = 0; k < 77; ++k)
            r250_next(s); // the oldest word away from x[0]
        for (std::uint64_t n : ns) {
            SCOPED_TRACE("short lag " + std::to_string(s.short_lag) + " n = " + std::to_string(n));
            ASSERT_EQ(r250_after(s, n, true, 600), r250_after(s, n, false, 600));
        }
    }
}

// Far jumps compose: 10^12 as one jump, and as two of 5 * 10^11 by a polynomial computed once.
TEST(Jump, R250FarJumpsCompose)
{
    R250State s{};
    r250_seed(s, 7, R250Taps::gsl);
    R250State once = s, twice = s;
    r250_jump(once, 1000000000000ull);
    const Gf2Poly half
        = gf2_jump_polynomial(r250_characteristic_polynomial(s.short_lag), 500000000000ull);
    r250_jump(twice, half);
    r250_jump(twice, half);
    EXPECT_EQ(r250_after(once, 0, false, 1000), r250_after(twice, 0, false, 1000));
    EXPECT_NE(r250_after(once, 0, false, 1000), r250_after(s, 0, false, 1000));
}

TEST(Jump, CombinedStreamDiscardEqualsDroppingNumbers)
{
    std::vector<Configuration> configs;
    for (const char* layout : { "single", "interleave", "block:7", "block:1000" }) {
        Configuration c;
        c.generator = "ranmar24";
        c.seed = { 1802, 9373 };
        c.layout = parse_layout(layout);
        c.instances = c.layout.kind == LayoutKind::single ? 1 : 5;
        configs.push_back(c);
        Configuration m = c;
        m.generator = "mtdc";
        m.params = "fixstars-mt521";
        m.seed = { 0 };
        m.seeding = parse_seeding("stride:0x33ff");
        configs.push_back(m);
        Configuration r = m;
        r.generator = "r250";
        r.params = "";
        r.seed = { 9 };
        configs.push_back(r);
    }
    for (const Configuration& c : configs) {
        for (std::uint64_t n : { 0ull, 1ull, 6ull, 7ull, 13ull, 34999ull, 123457ull }) {
            SCOPED_TRACE(canonical_name(c) + " n = " + std::to_string(n));
            auto jumped = make_stream(c);
            auto walked = make_stream(c);
            std::vector<std::uint64_t> a(300), b(300), drop(n + 3);
            // Start mid-stream so partial blocks are exercised.
            jumped->fill(a.data(), 3);
            walked->fill(drop.data(), 3 + n);
            jumped->discard(n);
            jumped->fill(a.data(), a.size());
            walked->fill(b.data(), b.size());
            ASSERT_EQ(a, b);
        }
    }
}

} // namespace
} // namespace rngvet
