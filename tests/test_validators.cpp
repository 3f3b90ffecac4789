// The validators: the embedded known-answer table passes on the reference engines and catches
// a wrong stream; contracts flag the SDK's float conversion; layout and instance screens catch
// what they are meant to catch.
#include "generators/error.hpp"
#include "tests/support.hpp"
#include "validators/checks.hpp"
#include "validators/known_answers.hpp"

#include <gtest/gtest.h>

namespace rngvet {
namespace {

using rngvet_test::mt_config;
using rngvet_test::ranmar_config;

const StreamFactory reference = [](const Configuration& c) { return make_stream(c); };

TEST(KnownAnswers, TableCoversEveryGeneratorFamilyAndPassesOnTheReference)
{
    const auto& rows = known_answers();
    ASSERT_GE(rows.size(), 12u);
    for (const char* g : { "ranmar24", "ranmar48", "mtdc", "mt19937" }) {
        bool found = false;
        for (const auto& r : rows)
            found |= r.generator == g;
        EXPECT_TRUE(found) << g;
    }
    for (const CheckResult& r : check_known_answers(reference, "cpu"))
        EXPECT_TRUE(r.passed) << r.name << ": " << r.detail;
}

TEST(KnownAnswers, AWrongStreamFailsNamingTheFirstDifference)
{
    // A factory that shifts every stream by one number must fail every row.
    const StreamFactory shifted = [](const Configuration& c) {
        Configuration d = c;
        d.skip += 1;
        return make_stream(d);
    };
    for (const CheckResult& r : check_known_answers(shifted, "cpu")) {
        EXPECT_FALSE(r.passed) << r.name;
        EXPECT_NE(r.detail.find("value 1 is"), std::string::npos) << r.detail;
    }
}

TEST(KnownAnswers, MalformedRowsAreRejectedWithTheirLine)
{
    EXPECT_THROW(parse_known_answers("ranmar24 - 1802,9373\n"), InputError);
    EXPECT_THROW(parse_known_answers("# c\nranmar24 - 1802,9373 0\n"), InputError);
    EXPECT_EQ(parse_known_answers("mt19937 - array:0x123,0x234 0 1 2\n")[0].seed,
        (std::vector<std::int64_t>{ 0x123, 0x234 }));
}

TEST(Contracts, SdkFloatConversionIsReportedAsReturningOne)
{
    bool saw_sdk = false;
    for (const CheckResult& r : check_output_contracts()) {
        if (r.name == "output-contract sdk-float") {
            saw_sdk = true;
            EXPECT_FALSE(r.passed);
            EXPECT_TRUE(r.finding);
            // Float rounds 2^32 - 128 and above up to 2^32 (24-bit significand).
            EXPECT_NE(r.detail.find("every x >= 4294967168"), std::string::npos) << r.detail;
        } else {
            EXPECT_TRUE(r.passed) << r.name << ": " << r.detail;
        }
    }
    EXPECT_TRUE(saw_sdk);
}

TEST(Layout, CoverageOrderAndChunkingPassForEveryLayout)
{
    for (const char* layout : { "interleave", "block:7" }) {
        const Configuration c = ranmar_config("ranmar48x", 5, layout, "increment", 1802, 9373);
        for (const CheckResult& r : check_layout(c, reference))
            EXPECT_TRUE(r.passed) << r.name << ": " << r.detail;
    }
}

TEST(Layout, AStreamThatSkipsSlotsIsCaught)
{
    const Configuration c = ranmar_config("ranmar24", 3, "interleave", "increment", 1802, 9373);
    // A backend that leaves every 10th slot unwritten and emits the instances in the
    // wrong order must fail coverage and order.
    class Broken final : public Stream {
    public:
        explicit Broken(std::unique_ptr<Stream> s)
            : s_(std::move(s))
        {
        }
        int bits() const override { return s_->bits(); }
        std::string name() const override { return s_->name(); }
        void fill(std::uint64_t* out, std::size_t n) override
        {
            for (std::size_t i = 0; i < n; ++i, ++g_) {
                std::uint64_t x;
                s_->fill(&x, 1);
                if (g_ % 10 != 9) out[i] = x;
            }
        }

    private:
        std::unique_ptr<Stream> s_;
        std::size_t g_ = 0;
    };
    const StreamFactory broken
        = [](const Configuration& d) { return std::make_unique<Broken>(make_stream(d)); };
    const auto results = check_layout(c, broken);
    EXPECT_FALSE(results[0].passed) << results[0].detail;
    EXPECT_FALSE(results[1].passed) << results[1].detail;
}

TEST(Instances, SameSeedsAreFlaggedAndDistinctOnesPass)
{
    Configuration c = ranmar_config("ranmar48", 4, "interleave", "increment", 1802, 9373);
    EXPECT_TRUE(check_instances(c)[0].passed);
    c.seeding = parse_seeding("same");
    EXPECT_FALSE(check_instances(c)[0].passed);

    const Configuration m = mt_config("mtdc", "fixstars-mt521", 8, "interleave", "same", { 777 });
    const auto results = check_instances(m);
    ASSERT_EQ(results.size(), 3u);
    EXPECT_TRUE(results[0].passed) << results[0].detail; // same seed, different parameters
    EXPECT_TRUE(results[1].passed) << results[1].detail;
    EXPECT_EQ(results[2].name.rfind("instance-start ", 0), 0u);
}

// The start check separates seedings that share the starting state from those that do not:
// the NVIDIA SDK's MT607 sets all seeded with 777 (distinct states only through their
// parameters) agree at the start far more than chance allows; hashed seeds do not.
TEST(Instances, StartCheckFailsCorrelatedStartsAndPassesIndependentOnes)
{
    Configuration m = mt_config("mtdc", "nvidia-sdk-mt607", 256, "interleave", "same", { 777 });
    const StartCorrelation same = start_correlation(m);
    EXPECT_EQ(same.pairs, 255);
    EXPECT_GT(same.z, 5) << same.agreement;
    EXPECT_LT(same.p, 1e-6);
    EXPECT_FALSE(check_start_correlation(m).passed);

    m.seeding = parse_seeding("hash");
    const CheckResult hashed = check_start_correlation(m);
    EXPECT_TRUE(hashed.passed) << hashed.detail;
    EXPECT_NE(hashed.detail.find("p = "), std::string::npos);

    Configuration r = ranmar_config("ranmar48", 8, "interleave", "increment", 1802, 9373);
    EXPECT_TRUE(check_start_correlation(r).passed) << check_start_correlation(r).detail;
    r.seeding = parse_seeding("same");
    const StartCorrelation identical = start_correlation(r);
    EXPECT_DOUBLE_EQ(identical.agreement, 1.0);
    EXPECT_FALSE(check_start_correlation(r).passed);
    // A 24-bit generator is judged on its 24 bits: the 8 constant low bits of its top-32 word
    // would otherwise agree always (an agreement of 0.625 on the GPU host's first run).
    r.generator = "ranmar24";
    r.seeding = parse_seeding("increment");
    const StartCorrelation r24 = start_correlation(r);
    EXPECT_EQ(r24.bits, 24);
    EXPECT_TRUE(check_start_correlation(r).passed) << check_start_correlation(r).detail;
    // Sequence splitting: far-apart segments of one stream are independent at the start.
    r.seeding = parse_seeding("split:1000000");
    EXPECT_TRUE(check_start_correlation(r).passed) << check_start_correlation(r).detail;
}

} // namespace
} // namespace rngvet
