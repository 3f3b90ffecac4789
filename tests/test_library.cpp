// librngvet through its C API (rngvet.h) and C++ header: the numbers a library user gets are,
// bit for bit, the reference stream of the configuration (make_stream) and what `rngvet
// generate` writes, on every backend here and through both interfaces, across refills, odd
// request sizes and skips; the CERNLIB entries reach the published RM48 values; errors are
// codes with one-line messages; the stored-verdict helper counts what the database holds.
//
// $RNGVET_REQUIRE_BACKENDS (comma-separated; scripts/gpu-check sets it) turns a backend that is
// not available here from a skip into a failure.
#include "generators/configuration.hpp"
#include "generators/mt.hpp"
#include "generators/plugin.hpp"
#include "generators/r250.hpp"
#include "kernels/backend.hpp"
#include "rngvet/rngvet.h"
#include "rngvet/rngvet.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <mutex>
#include <set>
#include <sqlite3.h>
#include <thread>
#ifdef RNGVET_TEST_CUDA
#include <cuda_runtime_api.h>
#endif

namespace rngvet {
namespace {

using rngvet_test::fresh;
using rngvet_test::run_rngvet;

const char* const configurations[] = {
    "ranmar48/1/single/increment/1802,9373;zero=smallest",
    "ranmar24/4/interleave/increment/1802,9373",
    "ranmar48x/8/block:12500/increment/1802,9373",
    "ranmar48/8/request:100000/split:20000/1802,9373;skip=777",
    "ranmar48/2/interleave/same/7,11;view=low32",
    "ranmar24/1/single/increment/1802,9373;view=packed",
    "mt19937/1/single/increment/5489",
    "mt19937/3/block:1000/hash/4357;skip=12345",
    "mtdc[fixstars-mt521#" /* hash filled in below */,
};

std::vector<std::string> all_configurations()
{
    std::vector<std::string> names(std::begin(configurations), std::end(configurations) - 1);
    names.push_back(canonical_name(
        rngvet_test::mt_config("mtdc", "fixstars-mt521", 32, "block:1000", "stride:13311", { 0 })));
    return names;
}

// The library on each backend: "cpu" and every kernel backend, skipped with the reason where
// one is not available here (a failure where $RNGVET_REQUIRE_BACKENDS lists it).
class LibraryOnBackend : public testing::TestWithParam<std::string> {
protected:
    void SetUp() override { rngvet_test::skip_unless_available(GetParam()); }
};

std::vector<std::string> every_backend()
{
    std::vector<std::string> backends = { "cpu" };
    for (const std::string& b : rngvet_test::kernel_backends())
        backends.push_back(b);
    return backends;
}

std::vector<std::uint64_t> reference(const std::string& name, std::size_t n)
{
    auto s = make_stream(parse_canonical_name(name));
    std::vector<std::uint64_t> v(n);
    s->fill(v.data(), n);
    return v;
}

rngvet_stream* open(
    const std::string& name, const std::string& backend, int interface, std::size_t buffer = 0)
{
    rngvet_options o;
    rngvet_options_init(&o);
    o.backend = backend.c_str();
    o.interface = interface;
    o.buffer_numbers = buffer;
    o.launch_numbers = 4096; // GPU backends: many launches in a short test
    rngvet_stream* s = nullptr;
    EXPECT_EQ(rngvet_open(&s, name.c_str(), &o), RNGVET_OK) << rngvet_last_error();
    return s;
}

// Requests of awkward sizes, across buffer refills (buffers of 1000 numbers).
const std::size_t request_sizes[]
    = { 1, 7, 100, 3, 999, 1001, 13, 2, 4096, 1, 10, 10, 10, 2500, 5, 77, 1000, 1000, 31, 6000 };

TEST_P(LibraryOnBackend, EveryInterfaceGivesTheReferenceStream)
{
    const std::string& backend = GetParam();
    for (const std::string& name : all_configurations()) {
        std::size_t total = 0;
        for (std::size_t n : request_sizes)
            total += n;
        const std::vector<std::uint64_t> want = reference(name, total);
        for (int interface : { RNGVET_BUFFERED, RNGVET_DIRECT }) {
            SCOPED_TRACE(name + " on " + backend + (interface ? " direct" : " buffered"));
            rngvet_stream* s = open(name, backend, interface, 1000);
            ASSERT_NE(s, nullptr);
            EXPECT_EQ(rngvet_stream_name(s), name);
            EXPECT_EQ(rngvet_stream_backend(s), backend);
            std::vector<std::uint64_t> got;
            for (std::size_t n : request_sizes) {
                std::vector<std::uint64_t> part(n);
                ASSERT_EQ(rngvet_raw(s, part.data(), n), RNGVET_OK) << rngvet_last_error();
                got.insert(got.end(), part.begin(), part.end());
            }
            EXPECT_EQ(rngvet_position(s), total);
            EXPECT_TRUE(got == want)
                << "first difference at "
                << std::mismatch(got.begin(), got.end(), want.begin()).first - got.begin();
            rngvet_close(s);
        }
    }
}

TEST_P(LibraryOnBackend, SkipsAcrossBuffersContinueTheStream)
{
    const std::string& backend = GetParam();
    const std::string name = "ranmar48x/8/interleave/increment/1802,9373";
    // (skip, take) pairs: inside a buffer, to its end, past the next buffer, a jump.
    const std::pair<std::uint64_t, std::size_t> steps[] = { { 0, 10 }, { 5, 10 }, { 975, 3 },
        { 1500, 10 }, { 2001, 999 }, { 10000000, 17 }, { 1, 1 }, { 999, 1000 }, { 3, 5 } };
    std::uint64_t at = 0;
    auto ref = make_stream(parse_canonical_name(name));
    std::vector<std::vector<std::uint64_t>> want;
    for (const auto& [skip, take] : steps) {
        ref->discard(skip);
        std::vector<std::uint64_t> v(take);
        ref->fill(v.data(), take);
        want.push_back(v);
        at += skip + take;
    }
    for (int interface : { RNGVET_BUFFERED, RNGVET_DIRECT }) {
        SCOPED_TRACE(backend + (interface ? " direct" : " buffered"));
        rngvet_stream* s = open(name, backend, interface, 1000);
        ASSERT_NE(s, nullptr);
        std::size_t i = 0;
        for (const auto& [skip, take] : steps) {
            ASSERT_EQ(rngvet_skip(s, skip), RNGVET_OK) << rngvet_last_error();
            std::vector<std::uint64_t> v(take);
            ASSERT_EQ(rngvet_raw(s, v.data(), take), RNGVET_OK);
            EXPECT_EQ(v, want[i]) << "step " << i;
            ++i;
        }
        EXPECT_EQ(rngvet_position(s), at);
        rngvet_close(s);
    }
}

TEST(Library, ConversionsAreTheReferencesAndNeverOne)
{
    for (const std::string& name : all_configurations()) {
        SCOPED_TRACE(name);
        const std::size_t n = 20000;
        const std::vector<std::uint64_t> x = reference(name, n);
        const int bits = make_stream(parse_canonical_name(name))->bits();
        std::vector<double> d(n);
        std::vector<float> f(n);
        std::vector<std::uint32_t> w(n);
        rngvet_stream* a = open(name, "cpu", RNGVET_BUFFERED, 1000);
        rngvet_stream* b = open(name, "cpu", RNGVET_DIRECT);
        rngvet_stream* c = open(name, "cpu", RNGVET_BUFFERED);
        ASSERT_EQ(rngvet_bits(a), bits);
        ASSERT_EQ(rngvet_u01(a, d.data(), n), RNGVET_OK);
        ASSERT_EQ(rngvet_f32(b, f.data(), n), RNGVET_OK);
        ASSERT_EQ(rngvet_u32(c, w.data(), n), RNGVET_OK);
        for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(d[i], to_u01(x[i], bits)) << i;
            ASSERT_LT(d[i], 1.0);
            ASSERT_EQ(f[i], static_cast<float>(x[i] >> (bits - 24)) / 16777216.0f) << i;
            ASSERT_LT(f[i], 1.0f);
            ASSERT_EQ(w[i], top32(x[i], bits)) << i;
        }
        rngvet_close(a);
        rngvet_close(b);
        rngvet_close(c);
    }
}

// The largest word a stream can hold, through the library: its double and its float stay below
// 1 (rounding the word's double to float would give 1.0f, which is why f32 truncates).
TEST(Library, TheLargestNumbersStayBelowOne)
{
    const std::string path = fresh("library_largest.bin");
    {
        std::ofstream out(path, std::ios::binary);
        const std::uint32_t words[4] = { 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFF80u, 0 };
        out.write(reinterpret_cast<const char*>(words), sizeof words);
    }
    rngvet_stream* a = nullptr;
    rngvet_stream* b = nullptr;
    ASSERT_EQ(rngvet_open_with(&a, ("file:" + path).c_str(), "cpu", RNGVET_DIRECT, 0), RNGVET_OK);
    ASSERT_EQ(rngvet_open_with(&b, ("file:" + path).c_str(), "cpu", RNGVET_DIRECT, 0), RNGVET_OK);
    double d[4];
    float f[4];
    ASSERT_EQ(rngvet_u01(a, d, 4), RNGVET_OK);
    ASSERT_EQ(rngvet_f32(b, f, 4), RNGVET_OK);
    for (int i = 0; i < 3; ++i) {
        EXPECT_LT(d[i], 1.0) << i;
        EXPECT_LT(f[i], 1.0f) << i;
        EXPECT_EQ(static_cast<float>(d[i]), 1.0f) << i;
    }
    EXPECT_EQ(f[0], 16777215.0f / 16777216.0f);
    EXPECT_EQ(d[3], 0.0);
    EXPECT_EQ(f[3], 0.0f);
    rngvet_close(a);
    rngvet_close(b);
}

TEST_P(LibraryOnBackend, TheStreamIsWhatRngvetGenerateWrites)
{
    const std::string& backend = GetParam();
    for (const char* name : { "ranmar48/1/single/increment/1802,9373;zero=smallest",
             "mt19937/2/interleave/increment/5489;view=reversed" }) {
        SCOPED_TRACE(name);
        const Configuration c = parse_canonical_name(name);
        // A file per backend: ctest -j runs the backends' instances of this test at once.
        const std::string path = fresh("library_generate_" + backend + ".bin");
        std::string args = "generate --generator " + to_string(c.generator) + " --seed "
            + seed_string(c.seed) + " --instances " + std::to_string(c.instances) + " --zero "
            + to_string(c.zero) + " --view " + to_string(c.view)
            + " --count 10000 --format double --out " + path;
        ASSERT_EQ(run_rngvet(args).status, 0);
        std::ifstream in(path, std::ios::binary);
        std::vector<double> file(10000);
        in.read(reinterpret_cast<char*>(file.data()), 80000);
        ASSERT_TRUE(in.good());
        rngvet_options o;
        rngvet_options_init(&o);
        o.backend = backend.c_str();
        rngvet::Generator g(name, &o);
        ASSERT_EQ(g.backend(), backend);
        std::vector<double> lib(10000);
        g.u01(lib.data(), lib.size());
        EXPECT_EQ(std::memcmp(lib.data(), file.data(), 80000), 0) << backend;
        // The inline fast path, 10 a call, on a stream of its own (C, then C++ after a move).
        rngvet::Generator h(name, &o);
        rngvet_fast* f = rngvet_fast_of(h.handle());
        for (std::size_t i = 0; i < 5000; i += 10)
            ASSERT_EQ(rngvet_u01_fast(f, lib.data() + i, 10), RNGVET_OK);
        rngvet::Generator moved = std::move(h);
        for (std::size_t i = 5000; i < lib.size(); i += 10)
            moved.u01_fast(lib.data() + i, 10);
        EXPECT_EQ(std::memcmp(lib.data(), file.data(), 80000), 0) << backend << " fast path";
    }
}

TEST(Library, TheOptionsFormNamesTheSameStream)
{
    rngvet::Generator a("--generator ranmar48x --seed 1802,9373 --instances 8 --layout "
                        "block:12500 --zero=smallest --skip 5");
    EXPECT_EQ(a.name(), "ranmar48x/8/block:12500/increment/1802,9373;zero=smallest;skip=5");
    rngvet::Generator b(a.name());
    for (int i = 0; i < 1000; ++i)
        ASSERT_EQ(a(), b());
    rngvet::Generator c("--generator mt19937 --seed 5489 --backend cpu");
    EXPECT_EQ(c.backend(), "cpu");
    // MT19937's first output for init_genrand(5489).
    EXPECT_EQ(c(), rngvet_test::known_answer("mt19937", "5489").values.at(0));
}

TEST(Library, BadInputIsAnErrorCodeWithOneLine)
{
    const std::pair<const char*, int> bad[] = {
        { "", RNGVET_ERROR_INPUT },
        { "ranmar48/1/single/increment/99999,1", RNGVET_ERROR_INPUT },
        { "ranmar48/1/single/increment/01802,9373", RNGVET_ERROR_INPUT },
        { "--generator ranmar48 --seed", RNGVET_ERROR_INPUT },
        { "--generator ranmar48 --colour red", RNGVET_ERROR_INPUT },
        { "--generator ranmar48 --seed 1,2 --view sdk-float", RNGVET_ERROR_INPUT },
        { "--generator stdin32", RNGVET_ERROR_INPUT },
        { "--generator ranmar48 --seed 1,2 --backend gpu", RNGVET_ERROR_INPUT },
        { "--generator file:/nonexistent/words.bin", RNGVET_ERROR_BACKEND },
    };
    for (const auto& [text, code] : bad) {
        SCOPED_TRACE(text);
        rngvet_stream* s = reinterpret_cast<rngvet_stream*>(&s);
        EXPECT_EQ(rngvet_open(&s, text, nullptr), code);
        EXPECT_EQ(s, nullptr);
        const std::string message = rngvet_last_error();
        EXPECT_FALSE(message.empty());
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    EXPECT_EQ(rngvet_open(nullptr, "mt19937/1/single/increment/1", nullptr), RNGVET_ERROR_INPUT);
    EXPECT_EQ(rngvet_u01(nullptr, nullptr, 1), RNGVET_ERROR_INPUT);
    rngvet_options o;
    rngvet_options_init(&o);
    o.interface = 7;
    rngvet_stream* s = nullptr;
    EXPECT_EQ(rngvet_open(&s, "mt19937/1/single/increment/1", &o), RNGVET_ERROR_INPUT);
    try {
        rngvet::Generator g("ranmar48/1/single/increment/1802");
        FAIL();
    } catch (const rngvet::Error& e) {
        EXPECT_EQ(e.status, RNGVET_ERROR_INPUT);
    }
    // A good call clears the message.
    rngvet::Generator g("mt19937/1/single/increment/1");
    EXPECT_STREQ(rngvet_last_error(), "");
}

// librngvet holds every family of the registry: each generator a library can open (all but
// stdin32 and stdin64) opens through the options form and gives, bit for bit, the reference
// stream of the same options, and the generators opened cover every family row.
TEST(Library, EveryFamilyOpensThroughTheLibrary)
{
    const std::string path = fresh("library_words.bin");
    {
        std::ofstream out(path, std::ios::binary);
        for (std::uint32_t i = 0; i < 4096; ++i) {
            const std::uint32_t w = i * 2654435761u;
            out.write(reinterpret_cast<const char*>(&w), sizeof w);
        }
    }
    std::set<std::string> opened;
    for (const GeneratorTraits& g : generator_registry()) {
        ConfigurationText t;
        t.generator = *g.prefix ? std::string(g.prefix) + path : std::string(g.name);
        if (g.family == families::plugin) t.generator = "lib:" RNGVET_EXAMPLE_PLUGIN;
        if (g.family == families::ranmar) t.seed = "1802,9373";
        if (g.family == families::mt || g.family == families::r250) t.seed = "4357";
        if (g.family == families::plugin) t.seed = "1";
        if (g.kind == kinds::mtdc) t.params = "fixstars-mt521";
        if (family_traits(g.family).reads_words && !*g.prefix) continue; // stdin32, stdin64
        SCOPED_TRACE(t.generator);
        std::string options = "--generator " + t.generator;
        if (!t.seed.empty()) options += " --seed " + t.seed;
        if (!t.params.empty()) options += " --params " + t.params;
        rngvet_stream* s = open(options, "cpu", RNGVET_DIRECT);
        ASSERT_NE(s, nullptr);
        std::vector<std::uint64_t> got(1000), want(1000);
        ASSERT_EQ(rngvet_raw(s, got.data(), got.size()), RNGVET_OK) << rngvet_last_error();
        rngvet_close(s);
        make_stream(resolve_configuration(t))->fill(want.data(), want.size());
        EXPECT_TRUE(got == want);
        opened.insert(family_traits(g.family).name);
    }
    std::set<std::string> rows;
    for (const FamilyTraits& f : family_registry())
        rows.insert(f.name);
    EXPECT_EQ(opened, rows);
}

TEST(Library, AFileStreamThatEndsIsAnErrorNotAnExit)
{
    const std::string path = fresh("library_short.bin");
    {
        std::ofstream out(path, std::ios::binary);
        const std::uint32_t words[3] = { 1, 2, 3 };
        out.write(reinterpret_cast<const char*>(words), sizeof words);
    }
    for (int interface : { RNGVET_DIRECT, RNGVET_BUFFERED }) {
        rngvet_stream* s = nullptr;
        ASSERT_EQ(rngvet_open_with(&s, ("file:" + path).c_str(), "auto", interface, 2), RNGVET_OK)
            << rngvet_last_error();
        EXPECT_STREQ(rngvet_stream_backend(s), "cpu");
        std::uint32_t w[2];
        ASSERT_EQ(rngvet_u32(s, w, 2), RNGVET_OK);
        EXPECT_EQ(w[0], 1u);
        EXPECT_EQ(w[1], 2u);
        std::uint32_t more[5];
        EXPECT_NE(rngvet_u32(s, more, 5), RNGVET_OK);
        EXPECT_FALSE(std::string(rngvet_last_error()).empty());
        rngvet_close(s);
    }
}

TEST(Library, ALockedStreamServesEachNumberOnceAcrossThreads)
{
    const std::string name = "ranmar48/1/single/increment/1802,9373";
    rngvet_options o;
    rngvet_options_init(&o);
    o.locked = 1;
    o.buffer_numbers = 997;
    o.backend = "cpu";
    rngvet_stream* s = nullptr;
    ASSERT_EQ(rngvet_open(&s, name.c_str(), &o), RNGVET_OK);
    const int threads = 4, requests = 500, size = 13;
    std::vector<std::vector<std::uint64_t>> got(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            std::uint64_t buf[size];
            for (int r = 0; r < requests; ++r) {
                ASSERT_EQ(rngvet_raw(s, buf, size), RNGVET_OK);
                got[static_cast<std::size_t>(t)].insert(
                    got[static_cast<std::size_t>(t)].end(), buf, buf + size);
            }
        });
    for (auto& t : pool)
        t.join();
    std::vector<std::uint64_t> all;
    for (const auto& g : got)
        all.insert(all.end(), g.begin(), g.end());
    std::vector<std::uint64_t> want = reference(name, all.size());
    std::sort(all.begin(), all.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(all, want);
    rngvet_close(s);
}

// CERNLIB RM48 (and CORSIKA RMMARD, documented as bit-identical to it) with the default seed
// 54217137 = (1802, 9373): after 20000 numbers the next six, times 2^48, are the values the
// 48-bit arithmetic gives (validators/known_answers.txt).
TEST(Library, CernlibSequencesReachTheKnownAnswersAndCount)
{
    const std::vector<std::uint64_t> want
        = rngvet_test::known_answer("ranmar48", "1802,9373", 20000).values;
    ASSERT_EQ(want.size(), 6u);
    ASSERT_EQ(rngvet_cernlib_set(3, 54217137, 20000, 0), RNGVET_OK) << rngvet_last_error();
    double x[6];
    ASSERT_EQ(rngvet_cernlib_next(x, 6, 3), RNGVET_OK);
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(x[i] * 281474976710656.0, static_cast<double>(want[static_cast<std::size_t>(i)]))
            << i;
    int ijkl = 0, ntot = 0, ntot2 = 0;
    ASSERT_EQ(rngvet_cernlib_get(3, &ijkl, &ntot, &ntot2), RNGVET_OK);
    EXPECT_EQ(ijkl, 54217137);
    EXPECT_EQ(ntot, 20006);
    EXPECT_EQ(ntot2, 0);
    // Uninitialised sequence 5 starts at the default seed, like sequence 3 from 0.
    double a[100], b[100];
    ASSERT_EQ(rngvet_cernlib_next(a, 100, 5), RNGVET_OK);
    ASSERT_EQ(rngvet_cernlib_set(3, 54217137, 0, 0), RNGVET_OK);
    ASSERT_EQ(rngvet_cernlib_next(b, 100, 3), RNGVET_OK);
    EXPECT_EQ(std::memcmp(a, b, sizeof a), 0);
    // A restart after NTOT + NTOT2 * 10^9 numbers is the stream skipped by that many.
    ASSERT_EQ(rngvet_cernlib_set(4, 123456789, 999999990, 2), RNGVET_OK);
    ASSERT_EQ(rngvet_cernlib_next(a, 20, 4), RNGVET_OK);
    ASSERT_EQ(rngvet_cernlib_get(4, &ijkl, &ntot, &ntot2), RNGVET_OK);
    EXPECT_EQ(ntot, 10);
    EXPECT_EQ(ntot2, 3);
    const int ij = 123456789 / 30082, kl = 123456789 - 30082 * ij;
    const std::vector<std::uint64_t> ref = reference("ranmar48/1/single/increment/"
            + std::to_string(ij) + "," + std::to_string(kl) + ";zero=smallest;skip=2999999990",
        20);
    for (int i = 0; i < 20; ++i)
        EXPECT_EQ(a[i], to_u01(ref[static_cast<std::size_t>(i)], 48)) << i;
    // Bad sequences and seeds are error codes.
    EXPECT_EQ(rngvet_cernlib_next(a, 1, 0), RNGVET_ERROR_INPUT);
    EXPECT_EQ(rngvet_cernlib_next(a, 1, RNGVET_CERNLIB_SEQUENCES + 1), RNGVET_ERROR_INPUT);
    EXPECT_EQ(rngvet_cernlib_set(1, 900000001, 0, 0), RNGVET_ERROR_INPUT);
    EXPECT_EQ(rngvet_cernlib_next(a, -1, 1), RNGVET_ERROR_INPUT);
}

// `rngvet generate --format text-double` of a configuration (its options spelled out).
std::string generated_text(const Configuration& c, std::uint64_t count)
{
    const rngvet_test::CliResult r = run_rngvet("generate --generator " + to_string(c.generator)
        + " --seed " + seed_string(c.seed) + " --instances " + std::to_string(c.instances)
        + " --layout " + to_string(c.layout) + " --seeding " + to_string(c.seeding) + " --zero "
        + to_string(c.zero) + " --skip " + std::to_string(c.skip) + " --view " + to_string(c.view)
        + " --count " + std::to_string(count) + " --format text-double");
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
}

// examples/library/vetted.c (the CERNLIB entries from C) with `env` before it.
rngvet_test::CliResult run_vetted(const std::string& args, const std::string& env = "")
{
    const std::string out = rngvet_test::running_test_file(".vetted.out"),
                      err = rngvet_test::running_test_file(".vetted.err");
    const std::string cmd
        = env + " " + std::string(RNGVET_VETTED) + " " + args + " >" + out + " 2>" + err;
    const int raw = std::system(cmd.c_str());
    return { WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, rngvet_test::slurp(out),
        rngvet_test::slurp(err) };
}

// The CERNLIB entries on a chosen configuration, from $RNGVET_CERNLIB_CONFIG and from
// rngvet_cernlib_configure (each in a process of its own: the choice is made before the first
// number): a sequence never set is the configuration itself, and one set to IJKL after N numbers
// is the configuration with IJKL in its seed field and N more skipped; across several of
// rngvet_cernlib_next's buffers' refills (10 numbers a call).
TEST(Library, CernlibEntriesRunTheChosenConfiguration)
{
    const char* const chosen[] = {
        "ranmar48/64/request:1000/increment/1802,9373;zero=smallest",
        "mt19937/3/block:1000/hash/4357;skip=12345",
        "ranmar24/4/interleave/increment/1802,9373",
        "ranmar48x/8/interleave/stride:7/11,22;view=low32",
    };
    const std::uint64_t count = 2503;
    for (const char* name : chosen) {
        const Configuration c = parse_canonical_name(name);
        const std::string want = generated_text(c, count);
        ASSERT_EQ(std::count(want.begin(), want.end(), '\n'), static_cast<long>(count));
        // Seeded: IJKL 123456789 = (4103, 30043) for RANMAR, the seed itself for MT19937.
        Configuration s = c;
        if (family(c.generator) == families::ranmar)
            s.seed = { 123456789 / 30082, 123456789 % 30082 };
        else
            s.seed = { 123456789 };
        s.skip += 1000000007;
        const std::string want_seeded = generated_text(s, count);
        for (const std::string how : { "env", "call" }) {
            SCOPED_TRACE(std::string(name) + " by " + how);
            const std::string env = "RNGVET_BACKEND=cpu "
                + (how == "env" ? "RNGVET_CERNLIB_CONFIG='" + std::string(name) + "'"
                                : std::string("RNGVET_CERNLIB_CONFIG="));
            const std::string config = how == "call" ? " --config '" + std::string(name) + "'" : "";
            rngvet_test::CliResult r = run_vetted(config + " --print 2503", env);
            ASSERT_EQ(r.status, 0) << r.err;
            EXPECT_NE(r.err.find(std::string("stream ") + name), std::string::npos) << r.err;
            EXPECT_TRUE(r.out == want) << r.out.substr(0, 200);
            r = run_vetted(config + " --seed 123456789 --ntot 1000000007 --print 2503", env);
            ASSERT_EQ(r.status, 0) << r.err;
            EXPECT_TRUE(r.out == want_seeded) << r.out.substr(0, 200);
        }
    }
    // What cannot be used is one line and a non-zero exit, from the call and from the
    // environment; a file stream has no seed for RMMAQD to set.
    rngvet_test::CliResult r = run_vetted("--config 'ranmar48/1/single/increment/99999,1'");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("rngvet_cernlib_configure: "), std::string::npos) << r.err;
    r = run_vetted("--config '--generator ranmar48 --seed 1,2 --backend gpu'");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("unknown backend 'gpu'"), std::string::npos) << r.err;
    r = run_vetted("", "RNGVET_CERNLIB_CONFIG='--generator ranmar48 --colour red'");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("RNGVET_CERNLIB_CONFIG: unknown option '--colour'"), std::string::npos)
        << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    const std::string words = fresh("cernlib_words.bin");
    {
        std::ofstream out(words, std::ios::binary);
        const std::uint32_t w[4] = { 1, 2, 3, 4 };
        out.write(reinterpret_cast<const char*>(w), sizeof w);
    }
    r = run_vetted("--config file:" + words + " --seed 5");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("has no seed to set"), std::string::npos) << r.err;
}

// Once a number has been delivered the configuration is fixed: rngvet_cernlib_configure is
// refused with a message, and the sequences go on in the configuration they started in.
TEST(Library, CernlibConfigurationIsRefusedAfterTheFirstNumber)
{
    const char* before = rngvet_cernlib_configuration();
    ASSERT_NE(before, nullptr) << rngvet_last_error();
    const std::string name = before;
    double x[3];
    ASSERT_EQ(rngvet_cernlib_next(x, 3, 2), RNGVET_OK) << rngvet_last_error();
    EXPECT_EQ(rngvet_cernlib_configure("mt19937/1/single/increment/1"), RNGVET_ERROR_INPUT);
    const std::string message = rngvet_last_error();
    EXPECT_NE(message.find("already delivered numbers of " + name), std::string::npos) << message;
    EXPECT_EQ(rngvet_cernlib_configuration(), name);
    int ijkl = 0, ntot = 0, ntot2 = 0;
    ASSERT_EQ(rngvet_cernlib_get(2, &ijkl, &ntot, &ntot2), RNGVET_OK);
    double y[5];
    ASSERT_EQ(rngvet_cernlib_next(y, 5, 2), RNGVET_OK);
    Configuration c = parse_canonical_name(name);
    c.skip += static_cast<std::uint64_t>(ntot) + static_cast<std::uint64_t>(ntot2) * 1000000000;
    auto ref = make_stream(c);
    for (double v : y) {
        std::uint64_t w;
        ref->fill(&w, 1);
        EXPECT_EQ(v, to_u01(w, resolution_bits(c)));
    }
}

// The inline fast path is rngvet_u01 bit for bit, mixed with every other call on the stream, on
// several configurations, across buffer refills (buffers of 1000), skips, requests larger than a
// buffer and requests of 0; through the library alone for locked and direct streams.
TEST_P(LibraryOnBackend, TheFastPathIsRngvetU01BitForBit)
{
    const std::string& backend = GetParam();
    enum Op { fast, u01, raw, skip };
    const std::pair<Op, std::size_t> ops[] = { { fast, 10 }, { fast, 10 }, { u01, 7 }, { fast, 10 },
        { raw, 3 }, { fast, 995 }, { fast, 10 }, { skip, 1500 }, { fast, 10 }, { fast, 0 },
        { fast, 1001 }, { skip, 5 }, { fast, 1 }, { u01, 2000 }, { fast, 10 }, { skip, 2600 },
        { fast, 999 }, { fast, 10 }, { raw, 1 }, { fast, 10 } };
    std::vector<std::string> names = { "ranmar48/1/single/increment/1802,9373;zero=smallest",
        "ranmar48/64/request:1000/increment/1802,9373;zero=smallest",
        "ranmar24/4/interleave/increment/1802,9373", "mt19937/3/block:1000/hash/4357;skip=12345",
        "ranmar48x/2/interleave/same/7,11;view=low32" };
    for (const std::string& name : names) {
        const Configuration c = parse_canonical_name(name);
        const int bits = resolution_bits(c);
        for (int mode = 0; mode < 3; ++mode) { // buffered, locked, direct
            SCOPED_TRACE(name + " on " + backend + " mode " + std::to_string(mode));
            rngvet_options o;
            rngvet_options_init(&o);
            o.backend = backend.c_str();
            o.interface = mode == 2 ? RNGVET_DIRECT : RNGVET_BUFFERED;
            o.locked = mode == 1;
            o.buffer_numbers = 1000;
            o.launch_numbers = 4096;
            rngvet_stream* s = nullptr;
            ASSERT_EQ(rngvet_open(&s, name.c_str(), &o), RNGVET_OK) << rngvet_last_error();
            rngvet_fast* f = rngvet_fast_of(s);
            ASSERT_NE(f, nullptr);
            EXPECT_EQ(f->stream, s);
            auto ref = make_stream(c);
            std::uint64_t at = 0;
            int i = 0;
            for (const auto& [op, n] : ops) {
                std::vector<std::uint64_t> want(n);
                if (op == skip)
                    ref->discard(n);
                else
                    ref->fill(want.data(), n);
                std::vector<double> got(n);
                std::vector<std::uint64_t> words(n);
                if (op == fast) {
                    ASSERT_EQ(rngvet_u01_fast(f, got.data(), n), RNGVET_OK) << rngvet_last_error();
                    // A locked or direct stream's buffer stays empty: every request went
                    // through rngvet_u01.
                    if (mode != 0) {
                        EXPECT_EQ(f->next, f->end);
                    }
                } else if (op == u01) {
                    ASSERT_EQ(rngvet_u01(s, got.data(), n), RNGVET_OK);
                } else if (op == raw) {
                    ASSERT_EQ(rngvet_raw(s, words.data(), n), RNGVET_OK);
                    EXPECT_EQ(words, want) << "operation " << i;
                } else {
                    ASSERT_EQ(rngvet_skip(s, n), RNGVET_OK);
                }
                if (op == fast || op == u01)
                    for (std::size_t k = 0; k < n; ++k) {
                        const double w = to_u01(want[k], bits);
                        ASSERT_EQ(std::memcmp(&got[k], &w, sizeof w), 0)
                            << "operation " << i << " number " << k;
                    }
                at += n;
                EXPECT_EQ(rngvet_position(s), at) << "operation " << i;
                ++i;
            }
            rngvet_close(s);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Library, LibraryOnBackend, testing::ValuesIn(every_backend()),
    [](const testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

// Whether a backend is available here; one that $RNGVET_REQUIRE_BACKENDS lists must be.
bool have_backend(const std::string& backend)
{
    const std::vector<Backend> here = available_backends();
    const bool have = std::find(here.begin(), here.end(), parse_backend(backend)) != here.end();
    if (!have && rngvet_test::required_backend(backend))
        ADD_FAILURE() << "backend " << backend << " is required but not available";
    return have;
}

TEST(Library, DeviceStreamsNeedCudaAndRefuseHostCalls)
{
    rngvet_stream* s = nullptr;
    EXPECT_EQ(rngvet_open_with(&s, "mt19937/1/single/increment/1", "cpu", RNGVET_DEVICE, 0),
        RNGVET_ERROR_INPUT);
    EXPECT_EQ(
        rngvet_open_with(&s, "mt19937/1/single/increment/1;view=low32", "cuda", RNGVET_DEVICE, 0),
        RNGVET_ERROR_INPUT);
    ASSERT_EQ(
        rngvet_open_with(&s, "mt19937/1/single/increment/1", "cpu", RNGVET_DIRECT, 0), RNGVET_OK);
    double x[4];
    EXPECT_EQ(rngvet_u01_device(s, x, 4), RNGVET_ERROR_INPUT);
    rngvet_close(s);
    if (!have_backend("cuda")) {
        EXPECT_EQ(rngvet_open_with(&s, "mt19937/1/single/increment/1", "auto", RNGVET_DEVICE, 0),
            RNGVET_ERROR_BACKEND);
        GTEST_SKIP() << "no CUDA device here";
    }
    ASSERT_EQ(
        rngvet_open_with(&s, "mt19937/1/single/increment/1", "auto", RNGVET_DEVICE, 0), RNGVET_OK)
        << rngvet_last_error();
    EXPECT_STREQ(rngvet_stream_backend(s), "cuda");
    EXPECT_EQ(rngvet_u01(s, x, 4), RNGVET_ERROR_INPUT);
    rngvet_close(s);
}

#ifdef RNGVET_TEST_CUDA
// Requests into device memory, in each format, with skips between them: the host reads them
// back and finds the reference stream.
TEST(Library, DeviceInterfaceWritesTheStreamIntoDeviceMemory)
{
    if (!have_backend("cuda")) GTEST_SKIP() << "no CUDA device here";
    const Configuration sdk
        = rngvet_test::mt_config("mtdc", "nvidia-sdk-mt607", 4096, "interleave", "same", { 777 });
    const std::vector<std::string> names = { "ranmar48/1/single/increment/1802,9373;zero=smallest",
        "ranmar48x/8/block:12500/increment/1802,9373", "mt19937/1/single/increment/5489",
        canonical_name(sdk) };
    const std::size_t sizes[] = { 1, 1000, 7, 65536 * 3 + 5, 100, 1 << 20 };
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        std::size_t total = 0;
        for (std::size_t n : sizes)
            total += 2 * n;
        const std::vector<std::uint64_t> want = reference(name, total);
        const int bits = make_stream(parse_canonical_name(name))->bits();
        rngvet_stream* s = nullptr;
        ASSERT_EQ(rngvet_open_with(&s, name.c_str(), "cuda", RNGVET_DEVICE, 0), RNGVET_OK)
            << rngvet_last_error();
        void* d = nullptr;
        ASSERT_EQ(cudaMalloc(&d, (std::size_t(1) << 20) * 8), cudaSuccess);
        std::size_t at = 0;
        int format = 0;
        for (std::size_t n : sizes) {
            ASSERT_EQ(rngvet_skip(s, n), RNGVET_OK) << rngvet_last_error();
            at += n;
            std::vector<std::uint64_t> words(n);
            std::vector<double> doubles(n);
            std::vector<std::uint32_t> tops(n);
            if (format == 0) {
                ASSERT_EQ(rngvet_raw_device(s, static_cast<std::uint64_t*>(d), n), RNGVET_OK);
                ASSERT_EQ(cudaMemcpy(words.data(), d, n * 8, cudaMemcpyDeviceToHost), cudaSuccess);
            } else if (format == 1) {
                ASSERT_EQ(rngvet_u01_device(s, static_cast<double*>(d), n), RNGVET_OK);
                ASSERT_EQ(
                    cudaMemcpy(doubles.data(), d, n * 8, cudaMemcpyDeviceToHost), cudaSuccess);
            } else {
                ASSERT_EQ(rngvet_u32_device(s, static_cast<std::uint32_t*>(d), n), RNGVET_OK);
                ASSERT_EQ(cudaMemcpy(tops.data(), d, n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
            }
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint64_t x = want[at + i];
                if (format == 0) {
                    ASSERT_EQ(words[i], x) << at + i;
                } else if (format == 1) {
                    ASSERT_EQ(doubles[i], to_u01(x, bits)) << at + i;
                } else {
                    ASSERT_EQ(tops[i], top32(x, bits)) << at + i;
                }
            }
            at += n;
            format = (format + 1) % 3;
        }
        EXPECT_EQ(rngvet_position(s), total);
        cudaFree(d);
        rngvet_close(s);
    }
}
#endif

void sql(const std::string& db, const std::string& statement)
{
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(h, statement.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(h);
    sqlite3_close(h);
}

TEST(Library, StoredVerdictsCountSeedsAndRuns)
{
    const std::string db = fresh("library_verdicts.sqlite");
    for (const char* seed : { "1802,9373", "1802,9374", "1802,9375" })
        ASSERT_EQ(run_rngvet("run --generator ranmar48 --seed " + std::string(seed)
                      + " --zero smallest --battery smallcrush --tests 1,2 --db " + db)
                      .status,
            0);
    ASSERT_EQ(run_rngvet("run --generator ranmar48 --seed 1802,9373 --battery smallcrush "
                         "--tests 1 --db "
                  + db)
                  .status,
        0); // another configuration (zero keep): not counted
    // A fault injected into the stored p-values: one statistic of seed 1802,9374 fails, one of
    // 1802,9375 is suspect.
    sql(db, "UPDATE statistics SET pvalue = 1e-12 WHERE run_id = 2 AND stat_index = 1");
    sql(db, "UPDATE statistics SET pvalue = 0.9995 WHERE run_id = 3 AND stat_index = 1");
    rngvet_battery_verdict v[4];
    std::size_t count = 0;
    ASSERT_EQ(rngvet_stored_verdicts(
                  db.c_str(), "ranmar48/1/single/increment/1802,9374;zero=smallest", v, 4, &count),
        RNGVET_OK)
        << rngvet_last_error();
    ASSERT_EQ(count, 1u);
    EXPECT_STREQ(v[0].battery, "smallcrush");
    EXPECT_EQ(v[0].seeds, 3);
    EXPECT_EQ(v[0].seeds_failed, 1);
    EXPECT_EQ(v[0].seeds_suspect, 1);
    EXPECT_EQ(v[0].this_seed_runs, 1);
    EXPECT_STREQ(v[0].this_seed, "fail");
    EXPECT_STREQ(v[0].run_ids, "1,2,3");
    ASSERT_EQ(rngvet_stored_verdicts(db.c_str(),
                  "--generator ranmar48 --seed 1802,9373 --zero smallest", v, 4, &count),
        RNGVET_OK);
    EXPECT_STREQ(v[0].this_seed, "pass");
    ASSERT_EQ(
        rngvet_stored_verdicts(db.c_str(), "ranmar48x/1/single/increment/1802,9373", v, 4, &count),
        RNGVET_OK);
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(rngvet_stored_verdicts(
                  "/nonexistent/x.sqlite", "ranmar48/1/single/increment/1,2", v, 4, &count),
        RNGVET_ERROR_STORE);
    EXPECT_EQ(rngvet_stored_verdicts(db.c_str(), "ranmar48/1/single/increment/1", v, 4, &count),
        RNGVET_ERROR_INPUT);
}

// examples/library/vetted.c refuses at start-up (exit 3, nothing drawn) a configuration the
// database has a failed seed of, or no complete run of the required battery, whether it was
// chosen by the call or the environment; a validated one runs and draws its numbers.
TEST(Library, VettedExampleRefusesWhatTheDatabaseHasNotValidated)
{
    const std::string db = fresh("library_vetted.sqlite");
    const std::string good = "ranmar48x/8/interleave/increment/1802,9373;zero=smallest";
    const std::string bad = "ranmar48/1/single/increment/1802,9373;zero=smallest";
    for (const std::string& options :
        { std::string("--generator ranmar48x --instances 8 --seed 1802,9373 --zero smallest"),
            std::string("--generator ranmar48 --seed 1802,9373 --zero smallest") })
        ASSERT_EQ(
            run_rngvet("run " + options + " --battery smallcrush --tests 1 --db " + db).status, 0);
    // The database's verdict on run 2 (bad) made a failure, as WeightDistrib's on every seed of
    // ranmar48 in Crush (docs/findings.md).
    sql(db, "UPDATE statistics SET pvalue = 1e-12 WHERE run_id = 2");
    rngvet_test::CliResult r = run_vetted("--db " + db + " --config '" + good + "' --print 100");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, generated_text(parse_canonical_name(good), 100));
    EXPECT_NE(r.err.find("smallcrush: 1 seeds, 0 failed"), std::string::npos) << r.err;
    for (const std::string& env : { std::string(), "RNGVET_CERNLIB_CONFIG='" + bad + "'" }) {
        r = run_vetted("--db " + db + (env.empty() ? " --config '" + bad + "'" : ""), env);
        EXPECT_EQ(r.status, 3) << env;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_NE(r.err.find("refusing " + bad + ": smallcrush failed on 1 of 1 seeds"),
            std::string::npos)
            << r.err;
    }
    r = run_vetted("--db " + db + " --config mt19937/1/single/increment/5489");
    EXPECT_EQ(r.status, 3);
    EXPECT_NE(r.err.find("has no complete smallcrush run"), std::string::npos) << r.err;
    r = run_vetted("--db " + db + " --config '" + good + "' --require crush");
    EXPECT_EQ(r.status, 3);
    EXPECT_TRUE(r.out.empty()) << r.out;
    r = run_vetted("--db /nonexistent/x.sqlite --config '" + good + "'");
    EXPECT_EQ(r.status, 1);
}

} // namespace
} // namespace rngvet
