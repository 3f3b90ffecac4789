// The properties every generator of the registry keeps, asserted once and instantiated for one
// representative configuration per row of generator_registry(), so that a new family's
// generators are tested as soon as its file adds their rows:
//   ChunkedEqualsOneShot        fills of 1, 7, 1000 and 4097 numbers continue one another;
//   SkipEqualsDiscarding        --skip N is the stream's numbers from N on, stepped or discarded
//                               (and, where the stream jumps ahead, 10^9 + 7 by jumps that agree
//                               with stepping the last numbers);
//   CanonicalNameRoundTrips     parse_canonical_name(canonical_name(c)) names c and makes c's
//                               numbers;
//   InstancesComposeByLayout    3 instances under interleave, block:K and request:R are each
//                               instance's own stream (instance_configuration) at the indices
//                               the layout gives it;
//   BackendsAreTheReference     every backend the row runs on and this machine has gives the
//                               reference stream after a skip, bit for bit.
// Every comparison is of integer streams, bit for bit. The rows' inputs: a words file this
// program writes for file: and file64:, the example plugin (examples/plugin) for lib:; stdin32
// and stdin64 read standard input, which a test program does not feed, and are skipped with
// that reason.
#include "generators/configuration.hpp"
#include "generators/mt.hpp"
#include "generators/plugin.hpp"
#include "generators/r250.hpp"
#include "generators/ranmar.hpp"
#include "kernels/backend.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace rngvet {

// A parameter as GoogleTest prints it: its generator (a words file's row, whose path is the test
// directory's) and seed; found by argument-dependent lookup, so in the configuration's namespace.
static void PrintTo(const Configuration& c, std::ostream* out)
{
    *out << (reads_file(c.generator) ? traits(c.generator).name : to_string(c.generator))
         << " seed " << seed_string(c.seed);
}

namespace {

using rngvet_test::kernel_backends;
using rngvet_test::required_backend;
using rngvet_test::same_words;
using rngvet_test::test_name_part;

// The words file of file: and file64: (a multiplicative sequence: distinct, every bit used),
// long enough for every property's reads.
constexpr std::size_t words_in_file = 40000;

std::string words_path(int bytes)
{
    return testing::TempDir() + "rngvet_family_properties_words" + std::to_string(8 * bytes)
        + ".bin";
}

// Writes the words file of `bytes`-byte words at `path`. Tests run in parallel processes, so the
// file is written beside it and renamed over it: a reader sees one whole file or the other.
void write_words(const std::string& path, int bytes)
{
    const std::string part = rngvet_test::running_test_file(".words");
    {
        std::ofstream out(part, std::ios::binary);
        for (std::uint64_t k = 0; k < words_in_file; ++k) {
            const std::uint64_t w = (k + 1) * 0x9e3779b97f4a7c15ull;
            out.write(reinterpret_cast<const char*>(&w), bytes); // little-endian host
        }
    }
    std::filesystem::rename(part, path);
}

// One configuration of a generator row: the seeds of the library's and the findings' runs
// (RANMAR 1802,9373; the Mersenne Twisters and R250 4357; the plugin 1), a built-in parameter
// set for mtdc, a words file for the file streams, the example plugin for lib:. A family not
// named here takes its row's first seed.
Configuration representative(const GeneratorTraits& g)
{
    const FamilyTraits& f = family_traits(g.family);
    Configuration c;
    if (g.family == families::plugin)
        c.generator = GeneratorName("lib:" RNGVET_EXAMPLE_PLUGIN);
    else if (*g.prefix)
        c.generator = GeneratorName(g.prefix + words_path(g.bits / 8)); // 32 or 64 bits
    else
        c.generator = GeneratorName(g.name);
    if (f.series) c.seed = f.first_seed;
    if (g.family == families::ranmar) c.seed = { 1802, 9373 };
    if (g.family == families::mt || g.family == families::r250) c.seed = { 4357 };
    if (g.family == families::plugin) c.seed = { 1 };
    if (g.kind == kinds::mtdc) c.params = "fixstars-mt521";
    return c;
}

std::vector<Configuration> representatives()
{
    std::vector<Configuration> out;
    for (const GeneratorTraits& g : generator_registry())
        out.push_back(representative(g));
    return out;
}

// The first n numbers of a stream.
std::vector<std::uint64_t> take(Stream& s, std::size_t n)
{
    std::vector<std::uint64_t> v(n);
    s.fill(v.data(), n);
    return v;
}

std::vector<std::uint64_t> tail(const std::vector<std::uint64_t>& v, std::size_t from)
{
    return std::vector<std::uint64_t>(v.begin() + static_cast<std::ptrdiff_t>(from), v.end());
}

// Combined index of instance i's number t under c's layout (n instances), restated from the
// table of generators/layout_index.hpp rather than computed by its functions: interleave
// i + n*t; block:K (t / K)*n*K + i*K + t mod K; request:R each request of R numbers shared in
// instance order, instance i taking R / n + (i < R mod n) of them.
std::uint64_t combined_index(const Configuration& c, std::uint64_t i, std::uint64_t t)
{
    const std::uint64_t n = static_cast<std::uint64_t>(c.instances), k = c.layout.block;
    switch (c.layout.kind) {
    case LayoutKind::single:
        return t;
    case LayoutKind::interleave:
        return i + n * t;
    case LayoutKind::block:
        return (t / k) * n * k + i * k + t % k;
    case LayoutKind::request: {
        const std::uint64_t share = k / n + (i < k % n ? 1 : 0);
        const std::uint64_t start = i * (k / n) + std::min(i, k % n);
        return (t / share) * k + start + t % share;
    }
    }
    return t;
}

class FamilyProperties : public testing::TestWithParam<Configuration> {
protected:
    void SetUp() override
    {
        config_ = GetParam();
        const GeneratorTraits& g = traits(config_.generator);
        if (family_traits(g.family).reads_words && !*g.prefix)
            GTEST_SKIP() << g.name << " reads standard input, which a test program does not feed";
        if (reads_file(config_.generator))
            write_words(config_.generator.path, external_word_bytes(config_.generator));
        load_param_sets(config_);
        validate(config_);
    }

    // Whether the row's configurations take several instances (the external streams are one).
    bool takes_instances() const { return !family_traits(config_.generator).reads_words; }

    // The representative with `layout` over `instances` instances, skipping `skip` numbers.
    Configuration variant(int instances, const std::string& layout, std::uint64_t skip = 0) const
    {
        Configuration c = config_;
        c.instances = instances;
        c.layout = parse_layout(layout);
        c.skip = skip;
        validate(c);
        return c;
    }

    // The configurations a property is asserted on: the representative and, where the row takes
    // instances, 3 of them in blocks of 7.
    std::vector<Configuration> configurations() const
    {
        std::vector<Configuration> out = { config_ };
        if (takes_instances()) out.push_back(variant(3, "block:7"));
        return out;
    }

    Configuration config_;
};

// 1. Fills of 1, 7, 1000 and 4097 numbers, in turn, give the numbers of one fill.
void expect_chunked_equals_one_shot(const Configuration& c)
{
    SCOPED_TRACE(canonical_name(c));
    const std::size_t sizes[] = { 1, 7, 1000, 4097 };
    const std::size_t total = 3 * (1 + 7 + 1000 + 4097);
    const std::vector<std::uint64_t> whole = take(*make_stream(c), total);
    auto chunked = make_stream(c);
    std::vector<std::uint64_t> pieces;
    for (std::size_t k = 0; pieces.size() < total; ++k) {
        const std::vector<std::uint64_t> part = take(*chunked, sizes[k % 4]);
        pieces.insert(pieces.end(), part.begin(), part.end());
    }
    EXPECT_TRUE(same_words(whole, pieces));
}

TEST_P(FamilyProperties, ChunkedEqualsOneShot)
{
    for (const Configuration& c : configurations())
        expect_chunked_equals_one_shot(c);
}

// 2. A skip of n is the stream from its number n on: the tail of a longer fill, and what
// discard(n) leaves.
void expect_skip_equals_discarding(const Configuration& c, std::uint64_t n)
{
    SCOPED_TRACE(canonical_name(c) + ", skip " + std::to_string(n));
    const std::size_t count = 1000;
    Configuration skipped = c;
    skipped.skip = n;
    const std::vector<std::uint64_t> got = take(*make_stream(skipped), count);
    const std::vector<std::uint64_t> whole = take(*make_stream(c), n + count);
    EXPECT_TRUE(same_words(tail(whole, n), got));
    auto discarded = make_stream(c);
    discarded->discard(n);
    EXPECT_TRUE(same_words(take(*discarded, count), got));
}

// A skip too long to step: the stream's discard(n) and the skip n - 4097 followed by 4097
// numbers stepped agree with the skip n.
void expect_long_skip_equals_discarding(const Configuration& c, std::uint64_t n)
{
    SCOPED_TRACE(canonical_name(c) + ", skip " + std::to_string(n));
    const std::size_t count = 1000, stepped = 4097;
    Configuration skipped = c;
    skipped.skip = n;
    const std::vector<std::uint64_t> want = take(*make_stream(skipped), count);
    auto discarded = make_stream(c);
    discarded->discard(n);
    EXPECT_TRUE(same_words(want, take(*discarded, count)));
    skipped.skip = n - stepped;
    auto short_of_it = make_stream(skipped);
    take(*short_of_it, stepped);
    EXPECT_TRUE(same_words(want, take(*short_of_it, count)));
}

TEST_P(FamilyProperties, SkipEqualsDiscarding)
{
    for (const Configuration& c : configurations()) {
        for (std::uint64_t n : { 0u, 1u, 12345u })
            expect_skip_equals_discarding(c, n);
        // (A stream read through a view, the plugin's 64-bit outputs, discards by its outputs'
        // jump too: view.cpp.)
        if (jumps_ahead(c)) expect_long_skip_equals_discarding(c, 1000000007u);
    }
}

// 3. The canonical name reads back to a configuration of that name with the same numbers. A
// plugin's name leaves its library's path out (its run records it), so the path is given back.
void expect_canonical_name_round_trips(const Configuration& c)
{
    const std::string name = canonical_name(c);
    SCOPED_TRACE(name);
    const std::string library
        = c.generator.kind == kinds::plugin ? c.generator.path : std::string();
    Configuration back = parse_canonical_name(name, "", library);
    EXPECT_EQ(canonical_name(back), name);
    EXPECT_EQ(back.generator, c.generator);
    load_param_sets(back);
    EXPECT_TRUE(same_words(take(*make_stream(c), 5000), take(*make_stream(back), 5000)));
}

TEST_P(FamilyProperties, CanonicalNameRoundTrips)
{
    for (Configuration c : configurations()) {
        expect_canonical_name_round_trips(c);
        c.skip = 99;
        expect_canonical_name_round_trips(c);
    }
}

// 4. The first numbers of a stream of several instances hold instance i's own stream
// (instance_configuration) at the combined indices its layout gives, each index once.
void expect_instances_compose_by_layout(const Configuration& c)
{
    SCOPED_TRACE(canonical_name(c));
    const std::uint64_t total = 6300; // whole rounds of the layouts asserted
    const std::vector<std::uint64_t> combined = take(*make_stream(c), total);
    std::vector<bool> covered(total, false);
    for (int i = 0; i < c.instances; ++i) {
        SCOPED_TRACE("instance " + std::to_string(i));
        const std::uint64_t instance = static_cast<std::uint64_t>(i);
        std::vector<std::uint64_t> placed;
        for (std::uint64_t t = 0; combined_index(c, instance, t) < total; ++t) {
            const std::uint64_t g = combined_index(c, instance, t);
            EXPECT_FALSE(covered[g]) << "combined index " << g << " taken twice";
            covered[g] = true;
            placed.push_back(combined[g]);
        }
        const std::vector<std::uint64_t> own
            = take(*make_stream(instance_configuration(c, i)), placed.size());
        EXPECT_TRUE(same_words(own, placed));
    }
    EXPECT_EQ(static_cast<std::uint64_t>(std::count(covered.begin(), covered.end(), true)), total);
}

TEST_P(FamilyProperties, InstancesComposeByLayout)
{
    if (!takes_instances())
        GTEST_SKIP() << traits(config_.generator).name << " is one stream (one instance)";
    // request:10 shares each request 4, 3, 3: unequal shares.
    for (const char* layout : { "interleave", "block:7", "request:10" })
        expect_instances_compose_by_layout(variant(3, layout));
}

// 5. On a backend that has the row's arithmetic, the stream after a skip is the reference
// stream's, bit for bit.
void expect_backend_is_the_reference(Configuration c, Backend backend)
{
    SCOPED_TRACE(canonical_name(c) + " on " + to_string(backend));
    const std::size_t count = 5000;
    const std::vector<std::uint64_t> want = take(*make_stream(c), count);
    c.backend = backend;
    EXPECT_TRUE(same_words(want, take(*make_backend_stream(c), count)));
}

TEST_P(FamilyProperties, BackendsAreTheReference)
{
    const GeneratorTraits& g = traits(config_.generator);
    const std::vector<Backend> here = available_backends();
    std::vector<std::string> compared, missing;
    for (const std::string& name : kernel_backends()) {
        const Backend backend = parse_backend(name);
        if (!runs_on(g, backend)) continue;
        if (std::find(here.begin(), here.end(), backend) == here.end()) {
            EXPECT_FALSE(required_backend(name)) << "required backend " << name << " missing";
            missing.push_back(name);
            continue;
        }
        Configuration skipped = config_;
        skipped.skip = 12345;
        expect_backend_is_the_reference(skipped, backend);
        if (takes_instances()) expect_backend_is_the_reference(variant(3, "block:7", 777), backend);
        compared.push_back(name);
    }
    std::string names;
    for (const std::string& name : compared)
        names += (names.empty() ? "" : ",") + name;
    RecordProperty("backends", names);
    if (compared.empty()) {
        std::string why = std::string(g.name) + " runs on cpu only";
        if (!missing.empty()) why = std::string(g.name) + "'s backends are not available here";
        GTEST_SKIP() << why;
    }
}

INSTANTIATE_TEST_SUITE_P(Registry, FamilyProperties, testing::ValuesIn(representatives()),
    [](const testing::TestParamInfo<Configuration>& row) {
        return test_name_part(row.param.generator.kind.word());
    });

} // namespace
} // namespace rngvet
