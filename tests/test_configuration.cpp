// Configurations: parsing, validation messages, canonical names, and the layout / seeding /
// chunking invariants of combined streams (compared bit for bit with single engines).
#include "generators/configuration.hpp"
#include "generators/configuration_options.hpp"
#include "generators/error.hpp"
#include "generators/mt.hpp"
#include "generators/plugin.hpp"
#include "generators/r250.hpp"
#include "generators/ranmar.hpp"
#include "generators/sha256.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <set>
#include <tuple>
#include <unistd.h>

namespace rngvet {
namespace {

// The external streams' family, whose words only its family file states.
inline constexpr GeneratorFamily external_family_word{ "external" };

Configuration ranmar(const std::string& g, int instances, const std::string& layout,
    const std::string& seeding = "increment", std::int64_t ij = 1802, std::int64_t kl = 9373)
{
    Configuration c;
    c.generator = g;
    c.seed = { ij, kl };
    c.instances = instances;
    c.layout = parse_layout(layout);
    c.seeding = parse_seeding(seeding);
    return c;
}

std::vector<std::uint64_t> take(Stream& s, std::size_t n)
{
    std::vector<std::uint64_t> v(n);
    s.fill(v.data(), n);
    return v;
}

std::vector<std::uint64_t> single(RanmarVariant v, int ij, int kl, std::size_t n)
{
    RanmarState s{};
    ranmar_seed(s, v, ij, kl);
    std::vector<std::uint64_t> out(n);
    for (auto& x : out)
        x = ranmar_next(s);
    return out;
}

// The message of the first problem found in building the configuration or validating it.
template <class Make> std::string error_of_made(Make make)
{
    try {
        validate(make());
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string error_of(const Configuration& c)
{
    return error_of_made([&] { return c; });
}

TEST(Configuration, CanonicalNames)
{
    EXPECT_EQ(
        canonical_name(ranmar("ranmar48", 1, "single")), "ranmar48/1/single/increment/1802,9373");
    EXPECT_EQ(canonical_name(ranmar("ranmar48x", 8, "interleave")),
        "ranmar48x/8/interleave/increment/1802,9373");
    Configuration c = ranmar("ranmar24", 4, "block:100", "stride:13311");
    c.zero = ZeroPolicy::smallest;
    c.skip = 1000;
    EXPECT_EQ(
        canonical_name(c), "ranmar24/4/block:100/stride:13311/1802,9373;zero=smallest;skip=1000");
    EXPECT_EQ(parse_seeding("stride:0x33ff").stride, 0x33ffu);
}

TEST(Configuration, RejectsBadInputWithMessagesNamingTheValidRange)
{
    EXPECT_NE(error_of(ranmar("ranmar48", 1, "single", "increment", 31329, 0)).find("0..31328"),
        std::string::npos);
    EXPECT_NE(error_of(ranmar("ranmar48", 1, "single", "increment", 0, 30082)).find("0..30081"),
        std::string::npos);
    EXPECT_NE(error_of_made([] {
        return ranmar("nosuch", 1, "single");
    }).find("unknown generator 'nosuch'"),
        std::string::npos);
    EXPECT_NE(error_of(ranmar("ranmar48", 0, "single")).find("at least 1"), std::string::npos);
    EXPECT_NE(error_of(ranmar("ranmar48", 2, "single")).find("single"), std::string::npos);
    EXPECT_THROW(parse_layout("diagonal"), InputError);
    EXPECT_THROW(parse_layout("block:0"), InputError);
    EXPECT_THROW(parse_seeding("random"), InputError);
    EXPECT_THROW(parse_seed("1802,"), InputError);
    EXPECT_THROW(parse_seed("-5,3"), InputError);
    EXPECT_THROW(parse_seed("abc"), InputError);
    EXPECT_EQ(parse_seed("1802,9373"), (std::vector<std::int64_t>{ 1802, 9373 }));
    Configuration one_seed = ranmar("ranmar24", 1, "single");
    one_seed.seed = { 5 };
    EXPECT_NE(error_of(one_seed).find("IJ,KL"), std::string::npos);
}

ConfigurationText ranmar_text(const std::string& seed)
{
    ConfigurationText text;
    text.generator = "ranmar48";
    text.seed = seed;
    return text;
}

// CERNLIB's IJKL (RM48IN): IJ = IJKL / 30082, KL = IJKL mod 30082, stored as IJ,KL.
TEST(Configuration, RanmarIjklSeedResolvesToItsIjKlPair)
{
    const Configuration ijkl = resolve_configuration(ranmar_text("54217137"));
    EXPECT_EQ(ijkl.seed, (std::vector<std::int64_t>{ 1802, 9373 }));
    EXPECT_EQ(
        canonical_name(ijkl), canonical_name(resolve_configuration(ranmar_text("1802,9373"))));
    EXPECT_EQ(resolve_configuration(ranmar_text("0")).seed, (std::vector<std::int64_t>{ 0, 0 }));
    EXPECT_EQ(resolve_configuration(ranmar_text("900000000")).seed,
        (std::vector<std::int64_t>{ 29918, 6724 }));
    std::string message;
    try {
        (void)resolve_configuration(ranmar_text("900000001"));
    } catch (const InputError& e) {
        message = e.what();
    }
    EXPECT_NE(message.find("0..900000000"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
}

// docs/findings.md's series: RANMAR k = 19 is 31309,30040 (examples/findings/smallcrush.ini),
// a single number counts up, and a key array has no series.
TEST(Configuration, SeedSeriesFollowsTheFindingsRule)
{
    const GeneratorFamily ranmar_family = families::ranmar;
    const std::vector<std::int64_t> first = default_first_seed(ranmar_family);
    EXPECT_EQ(first, (std::vector<std::int64_t>{ 1802, 9373 }));
    EXPECT_EQ(series_seed(ranmar_family, first, 0), first);
    EXPECT_EQ(series_seed(ranmar_family, first, 9), (std::vector<std::int64_t>{ 15779, 3330 }));
    EXPECT_EQ(series_seed(ranmar_family, first, 19), (std::vector<std::int64_t>{ 31309, 30040 }));
    EXPECT_EQ(
        series_seed(ranmar_family, { 54217137 }, 1), (std::vector<std::int64_t>{ 3355, 12044 }));
    EXPECT_EQ(default_first_seed(families::mt), (std::vector<std::int64_t>{ 777 }));
    EXPECT_EQ(series_seed(families::mt, { 777 }, 19), (std::vector<std::int64_t>{ 796 }));
    EXPECT_THROW(series_seed(families::mt, { 1, 2, 3 }, 1), InputError);
    EXPECT_THROW(series_seed(external_family_word, { 1 }, 1), InputError);
}

// The family table has one row per family, each generator's family has its row, and a family's
// one-number seed form and its inverse agree: RANMAR's IJKL 54217137 is 1802,9373 (Marsaglia's
// 12, 34, 56, 78; docs/findings.md) and back, a single seed is itself.
TEST(Configuration, FamilyRowsAnswerForTheirFamilies)
{
    std::set<GeneratorFamily> seen;
    for (const FamilyTraits& f : family_registry())
        EXPECT_TRUE(seen.insert(f.family).second) << f.name << " has two rows";
    for (const GeneratorTraits& g : generator_registry())
        EXPECT_EQ(family_traits(g.family).family, g.family) << g.name;
    const FamilyTraits& ranmar = family_traits(families::ranmar);
    EXPECT_EQ(
        ranmar.seed_of_number("ranmar48", 54217137), (std::vector<std::int64_t>{ 1802, 9373 }));
    EXPECT_EQ(ranmar.number_of_seed({ 1802, 9373 }), 54217137);
    EXPECT_EQ(ranmar.number_of_seed({ 54217137 }), -1);
    EXPECT_THROW(ranmar.seed_of_number("ranmar48", 900000001), InputError);
    for (const GeneratorFamily single : { families::mt, families::r250 }) {
        const FamilyTraits& f = family_traits(single);
        EXPECT_EQ(f.seed_of_number(f.name, 4242), (std::vector<std::int64_t>{ 4242 }));
        EXPECT_EQ(f.number_of_seed({ 4242 }), 4242);
        EXPECT_EQ(f.number_of_seed({ 1, 2 }), -1);
    }
    const FamilyTraits& external = family_traits(external_family_word);
    EXPECT_TRUE(external.reads_words);
    EXPECT_EQ(external.seed_of_number, nullptr);
    EXPECT_EQ(external.series, nullptr);
    // The --instances bound: an MT state (1391 words for p = 44497) fits its row's bytes.
    EXPECT_GE(family_traits(families::mt).state_bytes, 1391u * 4);
}

// The generators as `rngvet list` has shown them since the registry was one table, in order.
const char* const every_generator[] = { "ranmar24", "ranmar48", "ranmar48x", "mtdc", "mt19937",
    "r250", "r250gsl", "stdin32", "file:PATH", "stdin64", "file64:PATH", "lib:PATH[:SYMBOL]" };

// Every family file (generators/family_<name>.cpp, found by the build) is a row of the family
// table, with its generators, and nothing else is: the registry is assembled from the files,
// and a family file dropped at the link, or a row in the wrong place, would show here. The rngvet
// binary lists the same generators in the same order.
TEST(Registry, EveryFamilyFileIsARowWithItsGenerators)
{
    const std::filesystem::path generators
        = std::filesystem::path(RNGVET_DATA_DIR).parent_path(); // generators/params
    std::set<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(generators)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("family_", 0) == 0 && entry.path().extension() == ".cpp")
            files.insert(name.substr(7, name.size() - 7 - 4));
    }
    EXPECT_EQ(files.size(), 5u);
    std::set<std::string> rows;
    for (const FamilyTraits& f : family_registry()) {
        rows.insert(f.name);
        EXPECT_FALSE(f.generators.empty()) << f.name;
        for (const GeneratorTraits& g : f.generators)
            EXPECT_EQ(g.family, f.family) << g.name;
    }
    EXPECT_EQ(rows, files);
    std::vector<std::string> names;
    for (const GeneratorTraits& g : generator_registry()) {
        names.push_back(g.name);
        EXPECT_EQ(&traits(g.kind), &g) << g.name;
    }
    EXPECT_EQ(
        names, std::vector<std::string>(std::begin(every_generator), std::end(every_generator)));
    EXPECT_EQ(traits(kinds::r250gsl).family, families::r250);
    EXPECT_EQ(traits(kinds::plugin).family, families::plugin);
    EXPECT_THROW(traits(GeneratorKind("r251")), std::logic_error);
    EXPECT_THROW(family_traits(GeneratorFamily("r251")), std::logic_error);

    const rngvet_test::CliResult list = rngvet_test::run_rngvet("list");
    ASSERT_EQ(list.status, 0) << list.err;
    std::size_t at = 0;
    for (const char* name : every_generator) {
        at = list.out.find(std::string("\n  ") + name + " (", at);
        EXPECT_NE(at, std::string::npos) << name << " is not listed in order:\n" << list.out;
    }
}

// Every family row gives the generator side's answers that configuration.cpp asks without a
// fallback (its checks, its reference stream, whether it jumps ahead), a family with seeds seeds
// its instances, a family with a head of its own reads it back, and only the external streams,
// whose names have no five fields, write their whole names.
TEST(Configuration, EveryFamilyRowAnswersForItsGenerators)
{
    for (const FamilyTraits& f : family_registry()) {
        SCOPED_TRACE(f.name);
        EXPECT_NE(f.check, nullptr);
        EXPECT_NE(f.make_reference, nullptr);
        EXPECT_NE(f.jumps_ahead, nullptr);
        EXPECT_EQ(f.series != nullptr, f.instance_seed != nullptr);
        EXPECT_EQ(f.head_prefix != nullptr, f.canonical_head != nullptr);
        EXPECT_EQ(f.head_prefix != nullptr, f.parse_head != nullptr);
        EXPECT_EQ(f.reads_words, f.canonical_name != nullptr);
    }
    Configuration in;
    in.generator = GeneratorName("stdin32");
    EXPECT_FALSE(jumps_ahead(in));
    EXPECT_TRUE(jumps_ahead(Configuration{}));
}

TEST(Configuration, SingleInstanceIsTheReferenceStream)
{
    auto s = make_stream(ranmar("ranmar48", 1, "single"));
    EXPECT_EQ(s->bits(), 48);
    EXPECT_EQ(take(*s, 5000), single(RanmarVariant::r48, 1802, 9373, 5000));
}

TEST(Configuration, InterleaveIsRoundRobinOverIncrementSeededInstances)
{
    const int n = 5;
    auto s = make_stream(ranmar("ranmar24", n, "interleave"));
    const auto combined = take(*s, 5000);
    for (int i = 0; i < n; ++i) {
        const auto own = single(RanmarVariant::r24, 1802, 9373 + i, 1000);
        for (std::size_t t = 0; t < 1000; ++t)
            ASSERT_EQ(combined[static_cast<std::size_t>(i) + n * t], own[t])
                << "instance " << i << " t " << t;
    }
}

TEST(Configuration, BlockGivesEachInstanceKConsecutiveNumbersInTurn)
{
    const int n = 3, k = 7;
    auto s = make_stream(ranmar("ranmar48x", n, "block:7", "same"));
    const auto combined = take(*s, 3 * 7 * 20);
    // With the same seed every instance produces the same numbers.
    const auto own = single(RanmarVariant::r48x, 1802, 9373, 7 * 20);
    for (std::size_t g = 0; g < combined.size(); ++g) {
        const std::size_t round = g / (n * k), within = g % k;
        ASSERT_EQ(combined[g], own[round * k + within]) << "g = " << g;
    }
}

TEST(Configuration, IncrementSeedingWrapsInTheKlRange)
{
    auto s = make_stream(ranmar("ranmar24", 2, "interleave", "increment", 100, 30081));
    const auto combined = take(*s, 200);
    const auto second = single(RanmarVariant::r24, 100, 0, 100);
    for (std::size_t t = 0; t < 100; ++t)
        ASSERT_EQ(combined[1 + 2 * t], second[t]);
}

TEST(Configuration, StrideAndHashSeedingGiveDistinctInstances)
{
    for (const char* seeding : { "stride:13311", "hash" }) {
        auto s = make_stream(ranmar("ranmar24", 4, "interleave", seeding));
        const auto v = take(*s, 4 * 50);
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b) {
                bool differ = false;
                for (int t = 0; t < 50; ++t)
                    differ |= v[a + 4 * t] != v[b + 4 * t];
                EXPECT_TRUE(differ) << seeding << " instances " << a << " and " << b;
            }
    }
}

TEST(Configuration, ChunkedGenerationEqualsOneShot)
{
    const Configuration c = ranmar("ranmar48", 3, "block:5");
    auto one = make_stream(c);
    const auto whole = take(*one, 30000);
    auto chunked = make_stream(c);
    std::vector<std::uint64_t> pieces;
    std::size_t sizes[] = { 100, 1, 2478, 3, 2, 7765, 13 };
    for (std::size_t i = 0; pieces.size() < whole.size(); ++i) {
        const std::size_t n = std::min(sizes[i % 7], whole.size() - pieces.size());
        const auto part = take(*chunked, n);
        pieces.insert(pieces.end(), part.begin(), part.end());
    }
    EXPECT_EQ(pieces, whole);
}

TEST(Configuration, SkipEqualsDiscardingFromTheStart)
{
    Configuration c = ranmar("ranmar48", 2, "interleave");
    const auto whole = take(*make_stream(c), 12345 + 100);
    c.skip = 12345;
    const auto tail = take(*make_stream(c), 100);
    EXPECT_EQ(tail, std::vector<std::uint64_t>(whole.begin() + 12345, whole.end()));
}

// A view's discard goes past the words it holds, whole groups (by the outputs' jump) and part
// of a group, and lands where a skip does: words held after a read of 5, then 10^9 + 7 more
// (packed: groups of 2 words from 3 outputs, so neither a held count nor the rest is whole).
TEST(Configuration, AViewDiscardsWhereASkipLands)
{
    for (BitView view :
        { BitView::low32, BitView::reversed, BitView::packed, BitView::box_muller }) {
        Configuration c = ranmar("ranmar48", 1, "single");
        c.view = view;
        SCOPED_TRACE(canonical_name(c));
        auto s = make_stream(c);
        (void)take(*s, 5);
        s->discard(1000000007);
        const auto after = take(*s, 100);
        c.skip = 5 + 1000000007;
        EXPECT_EQ(after, take(*make_stream(c), 100));
    }
}

// A stream of outputs x_k = (k + 1) * 0x9e3779b97f4a7c15 mod 2^48 whose "device" is host memory:
// fill_device writes what fill would, in the format asked, and records the format.
class RecordingDeviceStream final : public Stream {
public:
    int bits() const override { return 48; }
    std::string name() const override { return "recording"; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        for (std::size_t i = 0; i < n; ++i)
            out[i] = ((next_++ + 1) * 0x9e3779b97f4a7c15ull) & ((std::uint64_t(1) << 48) - 1);
    }
    bool fill_device(void* out, std::size_t n, DeviceFormat format) override
    {
        formats.push_back(format);
        if (format != DeviceFormat::u64 && format != DeviceFormat::low32) return false;
        auto* x = static_cast<std::uint64_t*>(out);
        std::vector<std::uint64_t> words(n);
        fill(words.data(), n);
        for (std::size_t i = 0; x != nullptr && i < n; ++i)
            x[i] = format == DeviceFormat::low32 ? words[i] & 0xffffffffu : words[i];
        return true;
    }
    std::vector<DeviceFormat> formats;

private:
    std::uint64_t next_ = 0;
};

// The low32 view hands its device words to the outputs' stream as DeviceFormat::low32 and gets
// the words its host path gives; skipped words (out == nullptr) are outputs skipped; host and
// device reads take turns in stream order. It declines other formats, and the other views
// decline, asking nothing of the outputs.
TEST(Configuration, TheLow32ViewWritesDeviceWordsAsItsHostPathDoes)
{
    RecordingDeviceStream* outputs = nullptr;
    const auto make = [&](std::uint64_t skip) {
        auto s = std::make_unique<RecordingDeviceStream>();
        s->discard(skip);
        outputs = s.get();
        return s;
    };
    const auto host = take(*make_view_stream(BitView::low32, 48, 0, make, "host"), 3002);
    auto view = make_view_stream(BitView::low32, 48, 0, make, "device");
    std::vector<std::uint64_t> got(1000);
    ASSERT_TRUE(view->fill_device(got.data(), 1000, DeviceFormat::u64));
    EXPECT_EQ(outputs->formats, std::vector<DeviceFormat>{ DeviceFormat::low32 });
    EXPECT_EQ(got, std::vector<std::uint64_t>(host.begin(), host.begin() + 1000));
    ASSERT_TRUE(view->fill_device(nullptr, 1000, DeviceFormat::u64));
    ASSERT_TRUE(view->fill_device(got.data(), 1000, DeviceFormat::u64));
    EXPECT_EQ(got, std::vector<std::uint64_t>(host.begin() + 2000, host.begin() + 3000));
    for (DeviceFormat other : { DeviceFormat::u32, DeviceFormat::u01, DeviceFormat::low32 })
        EXPECT_FALSE(view->fill_device(got.data(), 1, other));
    EXPECT_EQ(outputs->formats.size(), 3u);
    // Host and device reads take turns in stream order (a low32 view holds no word between them).
    std::uint64_t one = 0;
    view->fill(&one, 1);
    EXPECT_EQ(one, host[3000]);
    ASSERT_TRUE(view->fill_device(got.data(), 1, DeviceFormat::u64));
    EXPECT_EQ(got[0], host[3001]);
    for (BitView other : { BitView::reversed, BitView::packed, BitView::sdk_float }) {
        auto v = make_view_stream(other, 48, 0, make, "other");
        EXPECT_FALSE(v->fill_device(got.data(), 1, DeviceFormat::u64));
        EXPECT_TRUE(outputs->formats.empty());
    }
}

TEST(Configuration, FileStreamReadsLittleEndianWordsAndNamesTheCountAtTheEnd)
{
    const std::string path = testing::TempDir() + "rngvet_words.bin";
    {
        std::ofstream f(path, std::ios::binary);
        const unsigned char bytes[]
            = { 0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff, 0x01, 0, 0 };
        f.write(reinterpret_cast<const char*>(bytes), sizeof bytes);
    }
    Configuration c;
    c.generator = "file:" + path;
    auto s = make_stream(c);
    EXPECT_EQ(s->bits(), 32);
    EXPECT_EQ(take(*s, 2), (std::vector<std::uint64_t>{ 0x12345678u, 0xffffffffu }));
    try {
        take(*s, 1);
        FAIL() << "a stream that ended must be an error";
    } catch (const InputError& e) {
        // The file's last 3 bytes are not a whole word: the message says so.
        EXPECT_NE(std::string(e.what()).find("in the middle of a 32-bit word (after 2 words and 3 "
                                             "more bytes)"),
            std::string::npos)
            << e.what();
    }
    std::remove(path.c_str());
}

} // namespace
} // namespace rngvet

namespace rngvet {
namespace {

Configuration mtdc(
    int instances, const std::string& layout, const std::string& seeding, std::int64_t seed)
{
    Configuration c;
    c.generator = "mtdc";
    c.params = "fixstars-mt521";
    c.seed = { seed };
    c.instances = instances;
    c.layout = parse_layout(layout);
    c.seeding = parse_seeding(seeding);
    return c;
}

// The OpenCL book's configuration: 32 MT521 twisters, generator gid seeded with 0x33ff*gid,
// each writing its numbers contiguously (the OpenCL book's sample): gid 1's block starts with its
// known answer.
TEST(MtConfiguration, OpenClBookLayoutStartsEachBlockWithTheGeneratorsKnownAnswer)
{
    const std::uint64_t per_generator = 1000;
    auto s = make_stream(mtdc(32, "block:" + std::to_string(per_generator), "stride:0x33ff", 0));
    std::vector<std::uint64_t> v(32 * per_generator);
    s->fill(v.data(), v.size());
    const KnownAnswer gid0 = rngvet_test::known_answer("mtdc", "0"),
                      gid1 = rngvet_test::known_answer("mtdc", "0x33ff");
    EXPECT_EQ(v[0], gid0.values.at(0));
    EXPECT_EQ(v[1], gid0.values.at(1));
    EXPECT_EQ(v[per_generator], gid1.values.at(0));
    EXPECT_EQ(v[per_generator + 1], gid1.values.at(1));
    EXPECT_NE(canonical_name(mtdc(32, "interleave", "same", 777)).find("mtdc[fixstars-mt521#"),
        std::string::npos);
    EXPECT_EQ(params_sha256(mtdc(1, "single", "same", 1)).size(), 64u);
}

TEST(MtConfiguration, RejectsTooFewParameterSetsAndMissingParams)
{
    EXPECT_THROW(validate(mtdc(33, "interleave", "same", 1)), InputError);
    Configuration no_params = mtdc(1, "single", "same", 1);
    no_params.params = "";
    EXPECT_THROW(validate(no_params), InputError);
    Configuration bad_inline = no_params;
    bad_inline.params = "p=600,aaa=0x1,maskB=0x2,maskC=0x3";
    EXPECT_THROW(validate(bad_inline), InputError);
    Configuration zero = mtdc(1, "single", "same", 1);
    zero.zero = ZeroPolicy::smallest;
    EXPECT_THROW(validate(zero), InputError);
}

TEST(MtConfiguration, InstanceConfigurationReproducesEachInstanceAlone)
{
    Configuration mt = mtdc(3, "interleave", "increment", 5489);
    mt.generator = kinds::mt19937;
    mt.params.clear();
    for (const Configuration& c :
        { mtdc(6, "block:5", "stride:0x33ff", 3), mtdc(4, "interleave", "hash", 9), mt }) {
        auto all = make_stream(c);
        std::vector<std::uint64_t> v(c.instances * 100);
        all->fill(v.data(), v.size());
        for (int i = 0; i < c.instances; ++i) {
            SCOPED_TRACE(canonical_name(c) + " instance " + std::to_string(i));
            auto one = make_stream(instance_configuration(c, i));
            std::vector<std::uint64_t> w(100);
            one->fill(w.data(), w.size());
            for (std::size_t t = 0; t < 100; ++t) {
                const std::size_t g = c.layout.kind == LayoutKind::interleave
                    ? t * c.instances + i
                    : (t / 5) * 5 * c.instances + i * 5 + t % 5;
                ASSERT_EQ(v[g], w[t]) << "t = " << t;
            }
        }
    }
}

// R250 (r250, r250gsl): one seed, each instance the R250Stream of its seed (the Mersenne
// Twisters' seeding schemes), split:S the base stream from i * S on, names that read back.
TEST(R250Configuration, InstancesAreTheR250StreamsOfTheirSeeds)
{
    const auto r250
        = [](const char* g, int n, const char* layout, const char* seeding, std::int64_t seed) {
              Configuration c;
              c.generator = g;
              c.instances = n;
              c.layout = parse_layout(layout);
              c.seeding = parse_seeding(seeding);
              c.seed = { seed };
              return c;
          };
    const Configuration one = r250("r250gsl", 1, "single", "increment", 1);
    EXPECT_EQ(canonical_name(one), "r250gsl/1/single/increment/1");
    std::vector<std::uint64_t> v(10000), w(10000);
    make_stream(one)->fill(v.data(), v.size());
    R250Stream gsl(1, R250Taps::gsl);
    gsl.fill(w.data(), w.size());
    EXPECT_EQ(v, w);
    EXPECT_EQ(v.back(), 1100653588u); // GSL's test of gsl_rng_r250

    const std::uint32_t hash_base = 4000000000u;
    for (const Configuration& c : { r250("r250", 4, "interleave", "increment", 7),
             r250("r250gsl", 3, "block:5", "stride:1000", 11),
             r250("r250", 3, "interleave", "hash", hash_base),
             r250("r250", 3, "interleave", "split:1000", 5) }) {
        SCOPED_TRACE(canonical_name(c));
        EXPECT_EQ(parse_canonical_name(canonical_name(c)).generator, c.generator);
        EXPECT_EQ(canonical_name(parse_canonical_name(canonical_name(c))), canonical_name(c));
        auto all = make_stream(c);
        std::vector<std::uint64_t> mixed(c.instances * 100);
        all->fill(mixed.data(), mixed.size());
        const R250Taps taps = c.generator == "r250" ? R250Taps::stated : R250Taps::gsl;
        for (int i = 0; i < c.instances; ++i) {
            SCOPED_TRACE("instance " + std::to_string(i));
            const Configuration alone = instance_configuration(c, i);
            // The seed each scheme gives instance i, restated.
            std::uint32_t seed = 0;
            std::uint64_t skip = 0;
            if (c.seeding.kind == SeedingKind::increment) seed = 7 + i;
            if (c.seeding.kind == SeedingKind::stride) seed = 11 + 1000 * i;
            if (c.seeding.kind == SeedingKind::hash)
                seed = static_cast<std::uint32_t>(alone.seed[0]);
            if (c.seeding.kind == SeedingKind::split) {
                seed = 5;
                skip = 1000 * static_cast<std::uint64_t>(i);
            }
            EXPECT_EQ(alone.seed[0], seed);
            R250Stream own(seed, taps);
            std::vector<std::uint64_t> mine(skip + 100);
            own.fill(mine.data(), mine.size());
            for (std::size_t t = 0; t < 100; ++t) {
                const std::size_t g = c.layout.kind == LayoutKind::interleave
                    ? t * c.instances + i
                    : (t / 5) * 5 * c.instances + i * 5 + t % 5;
                ASSERT_EQ(mixed[g], mine[skip + t]) << "t = " << t;
            }
        }
        if (c.seeding.kind == SeedingKind::hash) {
            // Three distinct seeds, none the base.
            const auto a = instance_configuration(c, 0).seed[0],
                       b = instance_configuration(c, 1).seed[0],
                       d = instance_configuration(c, 2).seed[0];
            EXPECT_TRUE(a != b && b != d && a != d && a != hash_base);
        }
    }
}

// The seeding's known weakness (r250.hpp): seeds equal mod 2^k share their low k bits for ever.
TEST(R250Configuration, SeedsEqualModTwoToTheKShareTheirLowKBits)
{
    const auto low_bits = [](std::int64_t seed, std::uint32_t mask) {
        Configuration c;
        c.generator = "r250";
        c.seed = { seed };
        c.skip = 1000000;
        const auto v = take(*make_stream(c), 20000);
        std::vector<std::uint32_t> low;
        for (std::uint64_t x : v)
            low.push_back(static_cast<std::uint32_t>(x) & mask);
        return low;
    };
    EXPECT_EQ(low_bits(3, 7), low_bits(11, 7)); // 3 = 11 (mod 8)
    EXPECT_NE(low_bits(3, 15), low_bits(11, 15));
    EXPECT_NE(low_bits(3, 7), low_bits(7, 7));
    EXPECT_EQ(low_bits(3, 1), low_bits(7, 1));
}

TEST(R250Configuration, SeedsReachingZeroAndForeignOptionsAreRefused)
{
    Configuration c;
    c.generator = "r250";
    EXPECT_NE(error_of(c).find("r250 takes one seed --seed S"), std::string::npos);
    c.seed = { 1, 2 };
    EXPECT_NE(error_of(c).find("r250 takes one seed --seed S"), std::string::npos);
    c.seed = { 0 };
    EXPECT_NE(error_of(c).find("out of range 1..4294967295"), std::string::npos);
    c.seed = { 4294967296ll };
    EXPECT_NE(error_of(c).find("out of range 1..4294967295"), std::string::npos);
    c.seed = { 4294967295ll };
    EXPECT_EQ(error_of(c), "");
    // increment past 2^32 - 1 reaches seed 0, which the seeding takes as seed 1.
    c.instances = 2;
    c.layout = parse_layout("interleave");
    EXPECT_NE(error_of(c).find("instance 1 of --seeding increment would get the seed 0"),
        std::string::npos)
        << error_of(c);
    c.seed = { 4294967294ll };
    EXPECT_EQ(error_of(c), "");
    // stride:S: 4 + i (2^31 - 2) = 2^32 at i = 2; 5 + i 2^31 is never 0 (mod 2^32).
    c.instances = 3;
    c.seed = { 4 };
    c.seeding = parse_seeding("stride:2147483646");
    EXPECT_NE(error_of(c).find("instance 2 of --seeding stride:2147483646"), std::string::npos)
        << error_of(c);
    c.instances = 2;
    EXPECT_EQ(error_of(c), "");
    c.instances = 1000;
    c.seed = { 5 };
    c.seeding = parse_seeding("stride:2147483648");
    EXPECT_EQ(error_of(c), "");
    c.seed = { 3 };
    c.seeding = parse_seeding("stride:0xFFFFFFFD"); // 3 - 3i: 0 at i = 1
    EXPECT_NE(error_of(c).find("instance 1 of"), std::string::npos) << error_of(c);
    c.seed = { 6 };
    c.seeding = parse_seeding("stride:4294967294"); // 6 - 2i: 0 at i = 3
    EXPECT_NE(error_of(c).find("instance 3 of"), std::string::npos) << error_of(c);
    // Options of other generators.
    c.seeding = parse_seeding("same");
    c.zero = ZeroPolicy::smallest;
    EXPECT_NE(error_of(c).find("--zero applies to the RANMAR generators only"), std::string::npos);
    c.zero = ZeroPolicy::keep;
    c.params = "fixstars-mt521";
    EXPECT_NE(error_of(c).find("--params and --param-id apply to mtdc"), std::string::npos);
}

TEST(MtConfiguration, Mt19937SeedsByInitGenrandOrByArray)
{
    Configuration c;
    c.generator = "mt19937";
    c.seed = { 5489 };
    std::uint64_t x[5];
    make_stream(c)->fill(x, 5);
    EXPECT_EQ(x[0], rngvet_test::known_answer("mt19937", "5489").values.at(0));
    c.seed = { 0x123, 0x234, 0x345, 0x456 };
    make_stream(c)->fill(x, 2);
    const KnownAnswer by_array = rngvet_test::known_answer("mt19937", "0x123,0x234,0x345,0x456");
    EXPECT_EQ(x[0], by_array.values.at(0));
    EXPECT_EQ(x[1], by_array.values.at(1));
}

} // namespace
} // namespace rngvet

namespace rngvet {
namespace {

// parse_canonical_name is the exact inverse of canonical_name, for every generator and option.
TEST(CanonicalName, ParseIsTheInverseOfCanonicalName)
{
    std::vector<Configuration> configs;
    for (const char* g : { "ranmar24", "ranmar48", "ranmar48x" })
        configs.push_back(ranmar(g, 1, "single"));
    configs.push_back(ranmar("ranmar48", 8, "block:12500", "stride:7", 0, 30081));
    configs.push_back(ranmar("ranmar48x", 8, "request:100000", "split:20000"));
    configs.push_back(ranmar("ranmar24", 3, "interleave", "hash"));
    Configuration zero = ranmar("ranmar48", 1, "single");
    zero.zero = ZeroPolicy::smallest;
    zero.skip = 1000000007;
    configs.push_back(zero);
    Configuration viewed = ranmar("ranmar48", 2, "interleave", "same");
    viewed.view = BitView::low32;
    configs.push_back(viewed);
    Configuration mt;
    mt.generator = "mt19937";
    mt.seed = { 5489 };
    configs.push_back(mt);
    mt.seed = { 0x123, 0x234, 0x345, 0x456 };
    mt.view = BitView::packed;
    configs.push_back(mt);
    for (const char* sets : { "fixstars-mt521", "nvidia-sdk-mt607",
             "p=521,aaa=0x9f4d0002,maskB=0x7bdf7e80,maskC=0xeb9e0000" }) {
        Configuration dc;
        dc.generator = "mtdc";
        dc.params = sets;
        dc.seed = { 4172 };
        dc.instances = std::string(sets).rfind("p=", 0) == 0 ? 1 : 4;
        dc.param_id = dc.instances == 1 ? 0 : 3;
        dc.layout = parse_layout(dc.instances == 1 ? "single" : "block:1000");
        dc.seeding = parse_seeding("stride:0x33ff");
        configs.push_back(dc);
    }
    Configuration r250;
    r250.generator = "r250";
    r250.seed = { 1 };
    configs.push_back(r250);
    r250.generator = "r250gsl";
    r250.seed = { 4294967295ll };
    r250.instances = 5;
    r250.layout = parse_layout("request:7");
    r250.seeding = parse_seeding("split:1000");
    r250.skip = 12345;
    r250.view = BitView::reversed;
    configs.push_back(r250);
    Configuration file;
    file.generator = "file:/tmp/a;b/words.bin";
    file.view = BitView::reversed;
    configs.push_back(file);
    Configuration in;
    in.generator = GeneratorName("stdin32");
    configs.push_back(in);
    // 64-bit streams, with a recorded seed, a skip, a view and a name.
    Configuration wide;
    wide.generator = "file64:/tmp/a;b/words64.bin";
    wide.stream_seed = "0x9e37";
    wide.skip = 5;
    wide.view = BitView::low32;
    configs.push_back(wide);
    Configuration named;
    named.generator = GeneratorName("stdin64");
    named.stream_name = "splitmix64";
    named.stream_seed = "1,2";
    named.view = BitView::packed;
    configs.push_back(named);
    // A plugin (examples/plugin): 64-bit outputs, several instances and seed words, a view.
    Configuration plugin;
    plugin.generator = "lib:" RNGVET_EXAMPLE_PLUGIN;
    plugin.seed = { 7 };
    plugin.instances = 3;
    plugin.layout = parse_layout("block:10");
    plugin.seeding = parse_seeding("split:1000000");
    plugin.skip = 99;
    plugin.view = BitView::low32;
    configs.push_back(plugin);

    // Every generator of the registry is among them.
    for (const GeneratorTraits& g : generator_registry())
        EXPECT_TRUE(std::any_of(configs.begin(), configs.end(), [&](const Configuration& c) {
            return c.generator.kind == g.kind;
        })) << g.name;
    for (const Configuration& c : configs) {
        const std::string name = canonical_name(c);
        SCOPED_TRACE(name);
        // A plugin's name leaves out its library's path, which its run records.
        const Configuration back = c.generator.kind == kinds::plugin
            ? parse_canonical_name(name, "", to_string(c.generator).substr(4))
            : parse_canonical_name(name);
        EXPECT_EQ(canonical_name(back), name);
        EXPECT_EQ(back.generator, c.generator);
        EXPECT_EQ(back.seed, c.seed);
        EXPECT_EQ(back.instances, c.instances);
        EXPECT_EQ(to_string(back.layout), to_string(c.layout));
        EXPECT_EQ(to_string(back.seeding), to_string(c.seeding));
        EXPECT_EQ(back.zero, c.zero);
        EXPECT_EQ(back.skip, c.skip);
        EXPECT_EQ(back.view, c.view);
        EXPECT_EQ(back.param_id, c.param_id);
        EXPECT_EQ(back.stream_name, c.stream_name);
        EXPECT_EQ(back.stream_seed, c.stream_seed);
        if (c.generator.kind != kinds::mtdc && family(c.generator) != external_family_word) {
            // The same numbers, not only the same name.
            auto a = make_stream(c), b = make_stream(back);
            EXPECT_EQ(take(*a, 1000), take(*b, 1000));
        }
    }
}

TEST(CanonicalName, NonCanonicalSpellingsAreRefusedWithTheCanonicalForm)
{
    EXPECT_EQ(canonical_name(parse_canonical_name("ranmar48/1/single/increment/1802,9373")),
        "ranmar48/1/single/increment/1802,9373");
    for (const char* bad : { "", "ranmar48", "ranmar48/1/single/increment",
             "ranmar48/1/single/increment/1802,9373/x", "ranmar49/1/single/increment/1,2",
             "ranmar48/01/single/increment/1802,9373", "ranmar48/1/single/increment/0x10,9373",
             "ranmar48/1/single/increment/1802,9373;zero=keep",
             "ranmar48/1/single/increment/1802,9373;skip=0",
             "ranmar48/1/single/increment/1802,9373;view=top32",
             "ranmar48/1/single/increment/1802,9373;colour=red",
             "ranmar48/1/single/increment/99999,9373",
             "mtdc[fixstars-mt521#00000000@0]/1/"
             "single/increment/1" }) {
        SCOPED_TRACE(bad);
        EXPECT_THROW(parse_canonical_name(bad), InputError);
    }
    try {
        parse_canonical_name("ranmar48/1/single/increment/01802,9373");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(
            std::string(e.what()).find("ranmar48/1/single/increment/1802,9373"), std::string::npos)
            << e.what();
    }
}

// The families with heads of their own (mtdc[SETS#HASH@ID], lib[NAME#HASH]) read them through
// their rows (parse_head, head_mismatch); each refusal says why, in the canonical name's words.
TEST(CanonicalName, FamilyHeadsAreRefusedWithTheirReason)
{
    const auto refusal = [](const std::string& name, const std::string& input_path) {
        try {
            parse_canonical_name(name, "", input_path);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const auto not_canonical = [](const std::string& name, const std::string& why) {
        return "'" + name + "' is not a canonical configuration name: " + why;
    };
    const std::string tail = "/1/single/increment/777";
    const std::string sets = mtdc_param_set(mtdc(1, "single", "increment", 777))->sha256;
    EXPECT_EQ(refusal("mtdc[fixstars-mt521#" + sets.substr(0, 8) + "@0]" + tail, ""), "");
    for (const std::string head : { "mtdc[fixstars-mt521@0]", "mtdc[fixstars-mt521#0]" })
        EXPECT_EQ(
            refusal(head + tail, ""), not_canonical(head + tail, "expected mtdc[SETS#HASH@ID]"));
    const std::string far = "mtdc[fixstars-mt521#" + sets.substr(0, 8) + "@4294967296]" + tail;
    EXPECT_EQ(refusal(far, ""), not_canonical(far, "parameter-set id too large"));
    const std::string other = "mtdc[fixstars-mt521#00000000@0]" + tail;
    EXPECT_EQ(refusal(other, ""),
        not_canonical(other,
            "the parameter sets 'fixstars-mt521' here have SHA-256 " + sets.substr(0, 8)
                + "..., the name says 00000000"));

    Configuration plugin;
    plugin.generator = "lib:" RNGVET_EXAMPLE_PLUGIN;
    const std::shared_ptr<const PluginLibrary> library = plugin_library(plugin);
    const std::string lib = "lib[" + library->name + "#" + library->sha256.substr(0, 8) + "]";
    EXPECT_EQ(refusal(lib + tail, RNGVET_EXAMPLE_PLUGIN), "");
    EXPECT_EQ(refusal(lib + tail, ""),
        not_canonical(
            lib + tail, "a plugin's name leaves out its library's path, which its run records"));
    const std::string unhashed = "lib[" + library->name + "]" + tail;
    EXPECT_EQ(refusal(unhashed, RNGVET_EXAMPLE_PLUGIN),
        not_canonical(unhashed, "expected lib[NAME#HASH]"));
    const std::string rehashed = "lib[" + library->name + "#00000000]" + tail;
    EXPECT_EQ(refusal(rehashed, RNGVET_EXAMPLE_PLUGIN),
        not_canonical(rehashed,
            "the library '" + library->path + "' here has SHA-256 " + library->sha256.substr(0, 8)
                + "..., the name says 00000000"));
}

// A named file stream's name leaves its path out (the files of one generator's seeds are one
// configuration): it reads back only with the path its run records. Names and seeds hold only
// what the name's grammar can carry, and belong to external streams only.
TEST(CanonicalName, NamedExternalStreamsKeepTheirNameAndSeed)
{
    ConfigurationText text;
    text.generator = "file64:/data/run 7/xs.bin";
    text.name = "xorshift128+";
    text.seed = "0xDEADBEEF";
    text.view = "low32";
    const Configuration c = resolve_configuration(text);
    EXPECT_EQ(canonical_name(c), "file64[xorshift128+];seed=0xDEADBEEF;view=low32");
    EXPECT_EQ(recorded_seed(c), "0xDEADBEEF");
    EXPECT_EQ(resolution_bits(c), 32);
    EXPECT_THROW(parse_canonical_name(canonical_name(c)), InputError);
    const Configuration back = parse_canonical_name(canonical_name(c), "", "/data/run 7/xs.bin");
    EXPECT_EQ(back.generator, c.generator);
    EXPECT_EQ(back.stream_name, "xorshift128+");
    EXPECT_EQ(back.stream_seed, "0xDEADBEEF");
    EXPECT_EQ(back.view, BitView::low32);
    EXPECT_EQ(seed_family(canonical_name(c)), "file64[xorshift128+];seed=*;view=low32");

    text = ConfigurationText{};
    text.generator = "stdin32";
    EXPECT_EQ(recorded_seed(resolve_configuration(text)), "-");
    for (const auto& [name, seed, says] :
        std::vector<std::tuple<std::string, std::string, std::string>>{
            { "a b", "", "--name 'a b' may hold only" }, { "a;view=low32", "", "may hold only" },
            { "x]", "", "may hold only" }, { std::string(65, 'x'), "", "at most 64" },
            { "x", "1;skip=3", "--seed '1;skip=3'" }, { "x", "-", "stands for no seed" } }) {
        SCOPED_TRACE(name + " " + seed);
        text.name = name;
        text.seed = seed;
        try {
            resolve_configuration(text);
            FAIL() << "accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
        }
    }
    text = ConfigurationText{};
    text.generator = "ranmar48";
    text.seed = "1802,9373";
    text.name = "x";
    EXPECT_THROW(resolve_configuration(text), InputError);
    text.generator = "file64:/a;seed=1.bin";
    text.seed = "";
    EXPECT_THROW(resolve_configuration(text), InputError);
    for (const char* bad : { "stdin32[]", "stdin64;seed=", "ranmar48[x]",
             "stdin32;view=low32;seed=1", "stdin32;skip=0", "stdin32[a b]" }) {
        SCOPED_TRACE(bad);
        EXPECT_THROW(parse_canonical_name(bad, "", "/p.bin"), InputError);
    }
    EXPECT_THROW(parse_canonical_name("file64[x]"), InputError);
}

// A stored mtdc run names its parameter-set file without the directory; given where the file
// is, the name reads back from any working directory, and a file of another name is refused.
TEST(CanonicalName, ParameterSetsAreFoundWhereTheStoredRunSaysTheyAre)
{
    const std::string sets = testing::TempDir() + "rngvet_canonical_sets.txt";
    {
        std::ifstream in(std::string(RNGVET_DATA_DIR) + "/mt521_fixstars32.txt", std::ios::binary);
        std::ofstream out(sets, std::ios::binary);
        out << in.rdbuf();
    }
    Configuration dc;
    dc.generator = "mtdc";
    dc.params = sets;
    dc.seed = { 4172 };
    dc.instances = 4;
    dc.param_id = 2;
    dc.layout = parse_layout("interleave");
    const std::string name = canonical_name(dc);
    EXPECT_EQ(name.rfind("mtdc[rngvet_canonical_sets.txt#", 0), 0u) << name;
    const Configuration back = parse_canonical_name(name, sets);
    EXPECT_EQ(back.params, sets);
    EXPECT_EQ(back.param_id, 2);
    EXPECT_EQ(canonical_name(back), name);
    EXPECT_EQ(params_sha256(back), params_sha256(dc));
    auto a = make_stream(dc), b = make_stream(back);
    EXPECT_EQ(take(*a, 1000), take(*b, 1000));
    EXPECT_THROW(parse_canonical_name(name, testing::TempDir() + "other_sets.txt"), InputError);
}

TEST(CanonicalName, SeedFamilyReplacesOnlyTheSeed)
{
    EXPECT_EQ(seed_family("ranmar48/8/interleave/increment/1802,9373;zero=smallest;view=low32"),
        "ranmar48/8/interleave/increment/*;zero=smallest;view=low32");
    EXPECT_EQ(seed_family("mt19937/1/single/increment/5489"), "mt19937/1/single/increment/*");
    EXPECT_EQ(seed_family("stdin32;view=packed"), "stdin32;view=packed");
}

} // namespace
} // namespace rngvet

namespace rngvet {
namespace {

std::string message_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// The seeds and options that make a valid configuration of a registry row.
Configuration valid_configuration(const GeneratorTraits& g)
{
    Configuration c;
    c.generator = g.kind;
    if (g.family == families::ranmar) c.seed = { 1802, 9373 };
    if (g.family == families::mt || g.family == families::r250 || g.family == families::plugin)
        c.seed = { 4172 };
    if (g.family == families::plugin) c.generator = "lib:" RNGVET_EXAMPLE_PLUGIN;
    if (g.parameter_sets) c.params = "fixstars-mt521";
    return c;
}

TEST(Registry, EveryNameParsesToItsRowAndBack)
{
    for (const GeneratorTraits& g : generator_registry()) {
        SCOPED_TRACE(g.name);
        const std::string name
            = g.kind == GeneratorName("file:x").kind ? "file:dir/words.bin" : g.name;
        const GeneratorName parsed = parse_generator(name);
        EXPECT_EQ(parsed.kind, g.kind);
        EXPECT_EQ(to_string(parsed), name);
        EXPECT_EQ(&traits(parsed), &g);
        // The unknown name's message lists every generator.
        EXPECT_NE(message_of([] { parse_generator("nosuch"); }).find(g.name), std::string::npos);
    }
    EXPECT_EQ(parse_generator("file:dir/words.bin").path, "dir/words.bin");
    EXPECT_NE(message_of([] { parse_generator("file:"); }).find("needs a path after 'file:'"),
        std::string::npos);
    for (Backend b : all_backends())
        EXPECT_EQ(parse_backend(to_string(b)), b);
    EXPECT_NE(
        message_of([] { parse_backend("gpu"); }).find("unknown backend 'gpu'"), std::string::npos);
    for (ZeroPolicy z : { ZeroPolicy::keep, ZeroPolicy::smallest })
        EXPECT_EQ(parse_zero_policy(to_string(z)), z);
    EXPECT_NE(message_of([] {
        parse_zero_policy("sometimes");
    }).find("unknown zero convention 'sometimes' (valid: keep, smallest)"),
        std::string::npos);
}

// A row's bits are those its engine fills: every output below 2^bits, the top bit used.
TEST(Registry, EachEngineFillsTheBitsItsRowStates)
{
    for (const GeneratorTraits& g : generator_registry()) {
        if (g.family == external_family_word) continue;
        SCOPED_TRACE(g.name);
        const Configuration c = valid_configuration(g);
        // A plugin's bits are its library's: the example's 64-bit outputs, read through the
        // top32 view as their high halves.
        const int bits = g.family == families::plugin ? 32 : g.bits;
        if (g.family == families::plugin) {
            EXPECT_EQ(output_bits(c), 64);
        }
        EXPECT_EQ(resolution_bits(c), bits);
        const auto v = take(*make_stream(c), 1000);
        const std::uint64_t top = *std::max_element(v.begin(), v.end());
        EXPECT_LT(top, std::uint64_t(1) << bits);
        EXPECT_GE(top, std::uint64_t(1) << (bits - 1));
    }
}

// A plugin's library is loaded once, by its absolute path, and hashed; the default function
// named explicitly is the same configuration.
TEST(ResolveConfiguration, APluginIsLoadedOnceByItsAbsolutePathWithItsHash)
{
    ConfigurationText text;
    text.generator = "lib:" RNGVET_EXAMPLE_PLUGIN;
    text.seed = "7";
    const Configuration c = resolve_configuration(text);
    ASSERT_TRUE(c.loaded);
    EXPECT_EQ(c.generator.path, std::filesystem::canonical(RNGVET_EXAMPLE_PLUGIN).string());
    EXPECT_EQ(c.loaded->sha256, sha256_of_file(RNGVET_EXAMPLE_PLUGIN));
    EXPECT_EQ(canonical_name(c),
        "lib[splitmix64#" + c.loaded->sha256.substr(0, 8) + "]/1/single/increment/7");
    EXPECT_EQ(plugin_library(c).get(), c.loaded.get());
    EXPECT_EQ(output_bits(c), 64);
    EXPECT_TRUE(jumps_ahead(c));
    text.generator += ":rngvet_generator";
    const Configuration named = resolve_configuration(text);
    EXPECT_EQ(canonical_name(named), canonical_name(c));
    EXPECT_EQ(to_string(named.generator), to_string(c.generator));

    text.generator = "lib:" RNGVET_FAULT_PLUGIN ":xorshift32_generator";
    text.seed = "1";
    const Configuration noskip = resolve_configuration(text);
    EXPECT_EQ(output_bits(noskip), 32);
    EXPECT_FALSE(jumps_ahead(noskip));
    EXPECT_EQ(noskip.generator.qualifier, "xorshift32_generator");
    text.seeding = "split:10";
    EXPECT_NE(message_of([&] { resolve_configuration(text); }).find("has no skip function"),
        std::string::npos);
}

TEST(ResolveConfiguration, TheWordsBecomeTheConfigurationTheyName)
{
    ConfigurationText text;
    text.generator = "ranmar48";
    text.seed = "1802,9373";
    text.instances = 8;
    const Configuration c = resolve_configuration(text);
    EXPECT_EQ(canonical_name(c), "ranmar48/8/interleave/increment/1802,9373");
    EXPECT_EQ(c.backend, Backend::cpu);
    text.zero = "smallest";
    text.layout = "block:3";
    text.backend = "auto";
    text.view = "low32";
    const Configuration d = resolve_configuration(text);
    EXPECT_EQ(canonical_name(d), "ranmar48/8/block:3/increment/1802,9373;zero=smallest;view=low32");
    EXPECT_EQ(d.backend, Backend::automatic);
    text.generator = "nosuch";
    EXPECT_NE(message_of([&] { resolve_configuration(text); }).find("unknown generator 'nosuch'"),
        std::string::npos);
    // Problems are reported in validate's order, whether or not the sets could be read.
    ConfigurationText dc;
    dc.generator = "mtdc";
    dc.seed = "1";
    dc.params = "/nonexistent/sets.txt";
    dc.instances = 0;
    EXPECT_NE(message_of([&] { resolve_configuration(dc); }).find("--instances must be at least 1"),
        std::string::npos);
    dc.instances = 1;
    EXPECT_NE(message_of([&] { resolve_configuration(dc); }).find("/nonexistent/sets.txt"),
        std::string::npos);
}

// The sets are read and hashed when the configuration is resolved; every later step, and every
// copy, uses those: the file may go away and the stream, its name and its hash stay.
TEST(ResolveConfiguration, ParameterSetsAreReadOnceAndTravelWithTheConfiguration)
{
    const std::string path
        = testing::TempDir() + "rngvet_sets_" + std::to_string(::getpid()) + ".txt";
    {
        std::ofstream out(path);
        out << format_param_text(builtin_param_set("fixstars-mt521"), { "a copy" });
    }
    ConfigurationText text;
    text.generator = "mtdc";
    text.seed = "4172";
    text.params = path;
    text.instances = 4;
    text.layout = "block:100";
    const Configuration c = resolve_configuration(text);
    ASSERT_TRUE(c.param_sets);
    EXPECT_EQ(c.param_sets->sha256.size(), 64u);
    const std::string name = canonical_name(c), sha = params_sha256(c);
    const auto before = take(*make_stream(c), 1000);
    EXPECT_EQ(instance_configuration(c, 2).param_sets, c.param_sets);
    std::remove(path.c_str());

    EXPECT_EQ(params_sha256(c), sha);
    EXPECT_EQ(canonical_name(c), name);
    EXPECT_EQ(take(*make_stream(c), 1000), before);
    EXPECT_EQ(mtdc_param_set(c), c.param_sets);
    // Without its loaded sets the configuration reads the file again, which is gone.
    Configuration unloaded = c;
    unloaded.param_sets.reset();
    EXPECT_NE(error_of(unloaded).find(path), std::string::npos);
    // Sets loaded from other text are not taken for the text now named.
    Configuration other = c;
    other.params = "fixstars-mt521";
    EXPECT_EQ(mtdc_param_set(other)->source, "fixstars-mt521");
}

// The arguments that give a configuration (what a run stores as its options, a campaign task's
// rngvet run arguments) are written from the schema's rows: the options that are always written,
// the others where they differ from the default, --param-id with --params; the same words and
// order as the stores of earlier versions hold. Read back through the rows, they give the same
// text.
TEST(ConfigurationOptions, ArgumentsAreTheRowsAsRunsStoreThem)
{
    ConfigurationText text;
    text.generator = "ranmar48";
    EXPECT_EQ(configuration_arguments(text),
        (std::vector<std::string>{ "--generator", "ranmar48", "--instances", "1", "--seeding",
            "increment", "--zero", "keep", "--skip", "0", "--backend", "cpu" }));
    text.seed = "1802,9373";
    text.name = "n";
    text.params = "fixstars-mt521";
    text.param_id = 3;
    text.instances = 4;
    text.layout = "block:5";
    text.seeding = "hash";
    text.zero = "smallest";
    text.skip = 12345678901234ull;
    text.backend = "openmp";
    text.view = "low32";
    text.library_sha256 = "ab";
    const std::vector<std::string> all = { "--generator", "ranmar48", "--seed", "1802,9373",
        "--name", "n", "--params", "fixstars-mt521", "--param-id", "3", "--instances", "4",
        "--layout", "block:5", "--seeding", "hash", "--zero", "smallest", "--skip",
        "12345678901234", "--backend", "openmp", "--view", "low32", "--library-sha256", "ab" };
    EXPECT_EQ(configuration_arguments(text), all);
    // --param-id goes with --params only; --view top32 is the default.
    text.params.clear();
    text.view = "top32";
    const std::vector<std::string> some = configuration_arguments(text);
    EXPECT_EQ(std::count(some.begin(), some.end(), "--param-id"), 0);
    EXPECT_EQ(std::count(some.begin(), some.end(), "--view"), 0);

    ConfigurationText back;
    for (std::size_t i = 0; i < all.size(); i += 2) {
        const ConfigurationOption* row
            = find_configuration_option(all[i].substr(2), on_command_line);
        ASSERT_NE(row, nullptr) << all[i];
        if (row->field.word)
            set_option_word(back, *row, all[i + 1]);
        else
            set_option_number(back, *row, std::stoull(all[i + 1]));
    }
    EXPECT_EQ(configuration_arguments(back), all);
    EXPECT_EQ(find_configuration_option("name", in_campaign_file), nullptr);
    EXPECT_EQ(find_configuration_option("seed", in_campaign_file), nullptr);
    EXPECT_NE(find_configuration_option("param-id", in_library_options), nullptr);
    ConfigurationText big;
    EXPECT_THROW(set_option_number(big, *find_configuration_option("instances", on_command_line),
                     std::uint64_t(1) << 31),
        InputError);
}

// resolve_configuration is the rows' parsers in turn: each option's bad text is refused with its
// parser's message, the earlier row first.
TEST(ConfigurationOptions, ResolutionRunsTheRowsInOrder)
{
    ConfigurationText text;
    text.generator = "ranmar48";
    text.seed = "54217137";
    text.instances = 2;
    const Configuration c = resolve_configuration(text);
    EXPECT_EQ(c.seed, (std::vector<std::int64_t>{ 1802, 9373 }));
    EXPECT_EQ(c.layout.kind, LayoutKind::interleave); // the default for 2 instances
    text.layout = "sideways";
    text.zero = "sometimes";
    try {
        (void)resolve_configuration(text);
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown layout 'sideways'"), std::string::npos)
            << e.what();
    }
    text.layout.clear();
    try {
        (void)resolve_configuration(text);
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(
            std::string(e.what()).find("unknown zero convention 'sometimes'"), std::string::npos)
            << e.what();
    }
    text.zero = "keep";
    text.library_sha256 = "00";
    try {
        (void)resolve_configuration(text);
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "--library-sha256 applies to generators that load a library"),
            std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace rngvet
