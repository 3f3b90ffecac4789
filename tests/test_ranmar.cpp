// RANMAR reference engine: the known-answer table's RANMAR rows (validators/known_answers.txt,
// with their sources), the structure of the three variants, and bit-exact agreement with
// TestU01's own RANMAR.
#include <cstring>
#include <gtest/gtest.h>
#include <iterator>
#include <vector>

extern "C" {
#include <testu01/umarsa.h>
#include <testu01/unif01.h>
}

#include "generators/ranmar.hpp"
#include "generators/stream.hpp"
#include "tests/support.hpp"

namespace rngvet {
namespace {

RanmarState seeded(
    RanmarVariant v, int ij = 1802, int kl = 9373, ZeroPolicy zero = ZeroPolicy::keep)
{
    RanmarState s{};
    ranmar_seed(s, v, ij, kl, zero);
    return s;
}

void skip(RanmarState& s, int n)
{
    for (int i = 0; i < n; ++i)
        ranmar_next(s);
}

// The engine itself (ranmar_seed, ranmar_next) reaches every RANMAR row of the known-answer
// table: James's published ranmar24 values and RM48's, from the start and after 20000 numbers.
TEST(RanmarEngine, ReachesEveryRanmarRowOfTheKnownAnswerTable)
{
    const std::pair<const char*, RanmarVariant> variants[]
        = { { "ranmar24", RanmarVariant::r24 }, { "ranmar48", RanmarVariant::r48 } };
    for (const auto& [generator, variant] : variants) {
        const auto rows = rngvet_test::known_answers_of(generator);
        EXPECT_GE(rows.size(), 2u) << generator;
        for (const KnownAnswer& row : rows) {
            SCOPED_TRACE(row.label());
            ASSERT_EQ(row.seed.size(), 2u);
            RanmarState s
                = seeded(variant, static_cast<int>(row.seed[0]), static_cast<int>(row.seed[1]));
            skip(s, static_cast<int>(row.skip));
            for (std::uint64_t want : row.values)
                EXPECT_EQ(ranmar_next(s), want);
        }
    }
    // James's two published lists: the first outputs and six after 20000.
    rngvet_test::known_answer("ranmar24", "1802,9373", 0);
    rngvet_test::known_answer("ranmar24", "1802,9373", 20000);
    rngvet_test::known_answer("ranmar48", "1802,9373", 0);
    rngvet_test::known_answer("ranmar48", "1802,9373", 20000);
}

// CERN style: the arithmetic sequence is a multiple of 2^24, so the low 24 output bits are
// exactly the lagged Fibonacci value's low 24 bits (CERNLIB RM48).
TEST(Ranmar48, LowBitsAreTheRawLaggedFibonacciBits)
{
    RanmarState s = seeded(RanmarVariant::r48);
    for (int n = 0; n < 100000; ++n) {
        const int slot = s.i97;
        const std::uint64_t out = ranmar_next(s);
        ASSERT_EQ(out & 0xFFFFFF, s.u[slot] & 0xFFFFFF) << "n = " << n;
    }
}

// ranmar48 and ranmar48x share the 48-bit table fill and differ only in the arithmetic
// sequence, whose closed form is c_n = (c_0 - n cd) mod cm. So out48 - out48x (mod 2^48)
// must equal c48x_n - c48_n (mod 2^48) for every n: checks the 48-bit constants and update.
TEST(Ranmar48x, DiffersFromRanmar48ExactlyByTheArithmeticSequence)
{
    RanmarState a = seeded(RanmarVariant::r48);
    RanmarState b = seeded(RanmarVariant::r48x);
    const std::uint64_t mask = (1ull << 48) - 1;
    // (a * b) mod m for a, b < m < 2^63, by doubling: no overflow, no 128-bit type.
    auto mulmod = [](std::uint64_t x, std::uint64_t y, std::uint64_t m) {
        std::uint64_t r = 0;
        for (x %= m; y; y >>= 1, x = (x * 2) % m)
            if (y & 1) r = (r + x) % m;
        return r;
    };
    auto closed_form = [&](std::uint64_t c0, std::uint64_t cd, std::uint64_t cm, std::uint64_t n) {
        return (c0 + cm - mulmod(cd, n, cm)) % cm;
    };
    const std::uint64_t c48_0 = 362436ull << 24, cd48 = 7654321ull << 24, cm48 = 16777213ull << 24;
    const std::uint64_t cx_0 = (362436ull << 24) + 362436, cdx = (7654321ull << 24) + 7654321,
                        cmx = (1ull << 48) - 59;
    for (std::uint64_t n = 1; n <= 200000; ++n) {
        const std::uint64_t diff = (ranmar_next(a) - ranmar_next(b)) & mask;
        const std::uint64_t want
            = (closed_form(cx_0, cdx, cmx, n) - closed_form(c48_0, cd48, cm48, n)) & mask;
        ASSERT_EQ(diff, want) << "n = " << n;
    }
}

TEST(RanmarSeeds, MarsagliasSeedsComeFromJamesDefault)
{
    // ij = 1802, kl = 9373 is Marsaglia's i, j, k, l = 12, 34, 56, 78 (James 1990); the
    // TestU01 test below relies on this.
    EXPECT_EQ((1802 / 177) % 177 + 2, 12);
    EXPECT_EQ(1802 % 177 + 2, 34);
    EXPECT_EQ((9373 / 169) % 178 + 1, 56);
    EXPECT_EQ(9373 % 169, 78);
}

TEST(Ranmar24, AgreesWithTestU01OverAMillionOutputs)
{
    unif01_Gen* theirs = umarsa_CreateRANMAR(12, 34, 56, 78);
    RanmarState ours = seeded(RanmarVariant::r24);
    for (int n = 0; n < 1000000; ++n) {
        const std::uint32_t want
            = static_cast<std::uint32_t>(theirs->GetBits(theirs->param, theirs->state));
        ASSERT_EQ(top32(ranmar_next(ours), 24), want) << "n = " << n;
    }
    umarsa_DeleteGen(theirs);
}

// An exact zero is kept by James's algorithm and replaced by 2^-bits under the CERN/CORSIKA
// convention; nothing else changes.
TEST(RanmarZero, SmallestPolicyReplacesOnlyExactZeros)
{
    RanmarState keep = seeded(RanmarVariant::r24);
    RanmarState smallest = seeded(RanmarVariant::r24, 1802, 9373, ZeroPolicy::smallest);
    int zeros = 0;
    for (int n = 0; n < 100000000 && zeros < 2; ++n) {
        const std::uint64_t a = ranmar_next(keep);
        const std::uint64_t b = ranmar_next(smallest);
        if (a == 0) {
            ++zeros;
            ASSERT_EQ(b, 1u) << "n = " << n;
        } else {
            ASSERT_EQ(a, b) << "n = " << n;
        }
    }
    EXPECT_EQ(zeros, 2) << "expected two exact zeros within 1e8 outputs of a 24-bit stream";
}

// ranmar_fill makes a block at once (the hot path of every one-instance host stream): the same
// outputs as ranmar_next, number by number, and the same state after every block, for block
// sizes around its window (97) and its own block (2048), on every variant and zero policy. The
// 24-bit stream under ZeroPolicy::smallest runs until it has replaced two exact zeros.
TEST(RanmarFill, IsRanmarNextNumberByNumberWithTheSameState)
{
    const std::size_t sizes[] = { 1, 33, 96, 97, 98, 2047, 2048, 2049, 4096 + 33, 65536, 0, 5 };
    struct Case {
        RanmarVariant variant;
        ZeroPolicy zero;
        std::uint64_t numbers;
    };
    for (const Case k : { Case{ RanmarVariant::r24, ZeroPolicy::keep, 3000000 },
             Case{ RanmarVariant::r48, ZeroPolicy::keep, 3000000 },
             Case{ RanmarVariant::r48x, ZeroPolicy::smallest, 3000000 },
             Case{ RanmarVariant::r24, ZeroPolicy::smallest, 100000000 } }) {
        RanmarState one = seeded(k.variant, 1802, 9373, k.zero);
        RanmarState block = one;
        RanmarState plain = seeded(k.variant); // ZeroPolicy::keep: where the zeros are
        std::vector<std::uint64_t> out;
        std::uint64_t done = 0;
        int replaced = 0; // exact zeros of the stream (each replaced under smallest)
        for (std::size_t b = 0; done < k.numbers && replaced < 2; ++b) {
            const std::size_t n = sizes[b % std::size(sizes)];
            out.assign(n + 1, 0xdeadbeef);
            ranmar_fill(block, out.data(), n);
            for (std::size_t j = 0; j < n; ++j) {
                const std::uint64_t want = ranmar_next(one);
                ASSERT_EQ(out[j], want) << "variant " << static_cast<int>(k.variant) << ", number "
                                        << done + j << ", block of " << n;
                if (ranmar_next(plain) == 0) ++replaced;
            }
            ASSERT_EQ(out[n], 0xdeadbeefu) << "wrote past the block of " << n;
            ASSERT_EQ(std::memcmp(block.u, one.u, sizeof one.u), 0) << "after number " << done + n;
            ASSERT_EQ(block.c, one.c);
            ASSERT_EQ(block.i97, one.i97);
            ASSERT_EQ(block.j97, one.j97);
            done += n;
        }
        if (k.numbers == 100000000) {
            EXPECT_EQ(replaced, 2) << "two zeros expected in 1e8";
        }
    }
}

} // namespace
} // namespace rngvet
