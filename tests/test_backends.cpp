// The OpenMP, OpenCL and CUDA backends against the reference engines (make_stream): bit-exact
// streams for every RANMAR variant and for the Mersenne Twisters (mt19937, DC sets, the NVIDIA
// SDK and OpenCL-book configurations), under every layout and seeding scheme; skips; chunked
// generation equal to one-shot; kernel launches that write every output slot exactly once and
// nothing else.
//
// A backend that is not available here is skipped with the reason, unless it is listed in
// $RNGVET_REQUIRE_BACKENDS (comma-separated; scripts/gpu-check sets it), which turns the skip
// into a failure.
#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "generators/ranmar.hpp"
#include "kernels/backend.hpp"
#include "kernels/device.hpp"
#include "kernels/families.hpp"
#include "process/memory.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <iostream>
#include <set>
#include <sstream>

namespace rngvet {
namespace {

using namespace rngvet_test;

// NVIDIA's MersenneTwister.dat, built into rngvet (generators/params/README.md).
std::string sdk_dat()
{
    return "nvidia-sdk-mt607";
}

std::string describe(const Configuration& c)
{
    return canonical_name(c) + " on " + to_string(c.backend);
}

class Backend : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override { skip_unless_available(GetParam()); }

    Configuration on_backend(Configuration c) const
    {
        c.backend = parse_backend(GetParam());
        return c;
    }

    std::vector<std::uint64_t> generate(const Configuration& c, std::size_t n,
        std::size_t launch = std::size_t(1) << 22, std::uint64_t segments = 0,
        std::uint64_t segment_length = 0) const
    {
        BackendOptions options;
        options.launch_numbers = launch;
        options.segments = segments;
        options.segment_length = segment_length;
        auto stream = make_backend_stream(on_backend(c), options);
        std::vector<std::uint64_t> out(n);
        stream->fill(out.data(), n);
        return out;
    }

    // A launcher for the configuration on this backend, for kernel-level checks (jump-parallel
    // with `segments` units of chunks of `length` per instance when segments > 1), through the
    // dispatch make_backend_stream uses (kernels/families.hpp).
    std::unique_ptr<KernelDevice> device(
        const Configuration& c, std::uint64_t segments = 1, std::uint64_t length = 0) const
    {
        validate(c);
        std::unique_ptr<KernelDevice> d;
        visit_kernel_family(family(c.generator), [&](auto kernels) {
            using Family = decltype(kernels);
            // OpenCL has no jump-parallel MT (its plan never has units): its own grids.
            const bool units = !(Family::family == families::mt && GetParam() == "opencl");
            d = make_device<Family>(parse_backend(GetParam()),
                Family::setup(c, units ? SegmentPlan{ segments, length } : SegmentPlan{}), -1);
        });
        return d;
    }

    // Kernel level: the output buffer is filled with a canary word (no output can equal it, all
    // outputs are below 2^48) and guard zones on both sides. After a launch every slot of the
    // launch holds the reference value and both guards are intact; in count mode (out[j] += 1
    // on a zeroed buffer) every slot was written exactly once and the guards not at all. Launch
    // lengths start and end inside rows and blocks.
    void expect_every_slot_once(
        const Configuration& base, std::uint64_t segments = 1, std::uint64_t length = 0) const
    {
        const std::uint64_t canary = 0xC0FFEE5EED5CA1ABull;
        const std::size_t guard = 1000;
        const std::size_t lengths[] = { 1, 31, 33, 1000, 4097, 100003 };
        const Configuration c = on_backend(base);
        SCOPED_TRACE(describe(c)
            + (segments > 1 ? ", " + std::to_string(segments) + " units of chunks of "
                        + std::to_string(length)
                            : std::string()));
        std::size_t total = 0;
        for (std::size_t len : lengths)
            total += len;
        const std::vector<std::uint64_t> want = reference(c, total);
        auto values = device(c, segments, length);
        auto counts = device(c, segments, length);
        values->reserve(lengths[5] + 2 * guard);
        counts->reserve(lengths[5] + 2 * guard);
        std::uint64_t g0 = 0;
        for (std::size_t len : lengths) {
            SCOPED_TRACE("launch of " + std::to_string(len) + " at " + std::to_string(g0));
            std::vector<std::uint64_t> buffer(len + 2 * guard, canary);
            values->upload(buffer.data(), buffer.size());
            values->launch(g0, len, guard, false);
            values->download(buffer.data(), buffer.size());
            std::size_t touched_guard = 0, unwritten = 0;
            for (std::size_t k = 0; k < guard; ++k) {
                touched_guard += buffer[k] != canary;
                touched_guard += buffer[guard + len + k] != canary;
            }
            for (std::size_t k = 0; k < len; ++k)
                unwritten += buffer[guard + k] == canary;
            EXPECT_EQ(touched_guard, 0u);
            EXPECT_EQ(unwritten, 0u);
            EXPECT_TRUE(same_words(
                std::vector<std::uint64_t>(want.begin() + static_cast<std::ptrdiff_t>(g0),
                    want.begin() + static_cast<std::ptrdiff_t>(g0 + len)),
                std::vector<std::uint64_t>(buffer.begin() + static_cast<std::ptrdiff_t>(guard),
                    buffer.begin() + static_cast<std::ptrdiff_t>(guard + len))));

            std::vector<std::uint64_t> hits(len + 2 * guard, 0);
            counts->upload(hits.data(), hits.size());
            counts->launch(g0, len, guard, true);
            counts->download(hits.data(), hits.size());
            std::size_t wrong = 0;
            for (std::size_t k = 0; k < hits.size(); ++k) {
                const bool inside = k >= guard && k < guard + len;
                wrong += hits[k] != (inside ? 1u : 0u);
            }
            EXPECT_EQ(wrong, 0u)
                << "slots written other than exactly once (inside) or never (guards)";
            g0 += len;
        }
    }
};

struct Case {
    Configuration c;
    std::size_t n;
    std::size_t launch;
};

// About 1.2e7 numbers per backend: every variant under single, interleave (N = 1, 7, 64) and
// block:K (odd K, N = 1, 7, 64), with five seeding schemes, seeds at the corners of James's
// ranges, zero=smallest and skips, and launch lengths that split blocks and rows.
std::vector<Case> equality_cases()
{
    std::vector<Case> cases;
    const int seeds[][2] = { { 1802, 9373 }, { 0, 0 }, { 31328, 30081 }, { 12345, 678 } };
    int s = 0;
    for (const char* g : { "ranmar24", "ranmar48", "ranmar48x" }) {
        auto seed = [&](int k) { return seeds[(s + k) % 4]; };
        cases.push_back({ ranmar_config(g, 1, "single", "increment", seed(0)[0], seed(0)[1]),
            1000003, 1 << 22 });
        cases.push_back(
            { ranmar_config(g, 1, "single", "same", seed(1)[0], seed(1)[1], "smallest", 97), 300001,
                65537 });
        cases.push_back({ ranmar_config(g, 1, "interleave", "increment", seed(2)[0], seed(2)[1]),
            200000, 4099 });
        cases.push_back({ ranmar_config(g, 7, "interleave", "increment", seed(3)[0], seed(3)[1]),
            700007, 1 << 22 });
        cases.push_back({ ranmar_config(g, 7, "interleave", "stride:1000", seed(0)[0], seed(0)[1],
                              "keep", 12345),
            300000, 99991 });
        cases.push_back({ ranmar_config(g, 64, "interleave", "hash", seed(1)[0], seed(1)[1]),
            1000000, 1 << 22 });
        cases.push_back(
            { ranmar_config(g, 64, "interleave", "increment", seed(2)[0], seed(2)[1], "smallest"),
                300000, 65536 + 33 });
        cases.push_back(
            { ranmar_config(g, 1, "block:77", "increment", seed(3)[0], seed(3)[1]), 200000, 4096 });
        cases.push_back({ ranmar_config(g, 7, "block:3", "increment", seed(0)[0], seed(0)[1]),
            300000, 1 << 22 });
        cases.push_back(
            { ranmar_config(g, 7, "block:1001", "hash", seed(1)[0], seed(1)[1], "keep", 5000),
                300000, 77777 });
        cases.push_back(
            { ranmar_config(g, 64, "block:1", "same", seed(2)[0], seed(2)[1]), 200000, 1 << 22 });
        cases.push_back({ ranmar_config(g, 64, "block:4095", "stride:7", seed(3)[0], seed(3)[1]),
            1000000, 300007 });
        // The original GPU library's requests (R not a multiple of N) and sequence splitting.
        cases.push_back({ ranmar_config(g, 8, "request:100003", "increment", seed(0)[0], seed(0)[1],
                              "keep", 7777),
            500000, 65537 });
        cases.push_back(
            { ranmar_config(g, 7, "request:10", "split:1000003", seed(1)[0], seed(1)[1]), 300000,
                4099 });
        ++s;
    }
    return cases;
}

TEST_P(Backend, StreamsAreBitIdenticalToReference)
{
    std::size_t total = 0;
    for (const Case& k : equality_cases()) {
        const Configuration c = on_backend(k.c);
        SCOPED_TRACE(describe(c) + ", " + std::to_string(k.n) + " numbers, launches of "
            + std::to_string(k.launch));
        EXPECT_TRUE(same_words(reference(c, k.n), generate(c, k.n, k.launch)));
        total += k.n;
    }
    EXPECT_GE(total, std::size_t(10000000));
}

TEST_P(Backend, NameAndBitsAreTheReferences)
{
    std::vector<Configuration> configs;
    for (const char* g : { "ranmar24", "ranmar48", "ranmar48x" })
        configs.push_back(ranmar_config(g, 7, "block:5", "hash", 1, 2, "smallest", 3));
    configs.push_back(mt_config("mtdc", "fixstars-mt521", 3, "interleave", "same", { 1 }, 2, 9));
    configs.push_back(mt_config("mt19937", "", 1, "single", "same", { 1, 2, 3 }));
    for (const Configuration& base : configs) {
        const Configuration c = on_backend(base);
        auto stream = make_backend_stream(c);
        auto ref = make_stream(c);
        EXPECT_EQ(stream->name(), canonical_name(c));
        EXPECT_EQ(stream->bits(), ref->bits());
    }
}

// ranmar24 seeded (1802, 1490) outputs an exact 0 as its number 568 (found by a search with
// the reference engine). With 7 interleaved instances seeded by increment from kl = 1487,
// that instance is number 3 and the zero sits at combined index 3 + 7*568 = 3979.
TEST_P(Backend, ZeroPolicyMatchesReference)
{
    const std::size_t zero_at = 3 + 7 * 568;
    const Configuration keep
        = on_backend(ranmar_config("ranmar24", 7, "interleave", "increment", 1802, 1487));
    const std::vector<std::uint64_t> want_keep = reference(keep, 8000);
    ASSERT_EQ(want_keep[zero_at], 0u) << "the search result no longer holds";
    EXPECT_TRUE(same_words(want_keep, generate(keep, 8000, 1001)));

    const Configuration smallest = on_backend(
        ranmar_config("ranmar24", 7, "interleave", "increment", 1802, 1487, "smallest", 3000));
    const std::vector<std::uint64_t> want = reference(smallest, 5000);
    ASSERT_EQ(want[zero_at - 3000], 1u);
    EXPECT_TRUE(same_words(want, generate(smallest, 5000, 333)));
}

// rocRAND's continuity sizes: chunked generation equals one-shot generation, both with
// launches longer than the chunks and with launches shorter than some of them.
TEST_P(Backend, ChunkedEqualsOneShot)
{
    const std::size_t sizes[] = { 1, 3, 24783, 2, 776543, 100, 1, 65536, 31, 500000 };
    std::size_t total = 0;
    for (std::size_t s : sizes)
        total += s;
    const Configuration configs[] = {
        ranmar_config("ranmar48x", 7, "block:5", "increment", 1802, 9373),
        ranmar_config("ranmar24", 64, "interleave", "hash", 4, 5, "smallest"),
        ranmar_config("ranmar48", 1, "single", "increment", 31328, 30081, "keep", 1000),
        mt_config("mtdc", "fixstars-mt521", 32, "block:7", "stride:0x33ff", { 0 }),
        mt_config("mt19937", "", 5, "interleave", "increment", { 5489 }, 0, 77),
    };
    for (const Configuration& base : configs) {
        for (std::size_t launch : { std::size_t(1) << 22, std::size_t(65537) }) {
            const Configuration c = on_backend(base);
            SCOPED_TRACE(describe(c) + ", launches of " + std::to_string(launch));
            const std::vector<std::uint64_t> one_shot = generate(c, total, launch);
            BackendOptions options;
            options.launch_numbers = launch;
            auto stream = make_backend_stream(c, options);
            std::vector<std::uint64_t> chunked(total);
            std::size_t at = 0;
            for (std::size_t s : sizes) {
                stream->fill(chunked.data() + at, s);
                at += s;
            }
            EXPECT_TRUE(same_words(one_shot, chunked));
            EXPECT_TRUE(same_words(reference(c, total), one_shot));
        }
    }
}

// In-place reading (Stream::take, what the TestU01 feed and the host benchmark use), mixed with
// fill() and discard() and with views of awkward sizes, serves the reference stream; on CUDA the
// views are the pinned staging slots, read ahead while the previous one is being read. The
// read-ahead record counts every launch taken after the first, and never more waits than takes.
TEST_P(Backend, TakeServesTheStreamInPlace)
{
    const Configuration configs[] = {
        ranmar_config("ranmar48x", 7, "interleave", "increment", 1802, 9373),
        mt_config("mtdc", "fixstars-mt521", 32, "block:7", "stride:0x33ff", { 0 }),
    };
    const std::size_t launch = 65537;
    for (const Configuration& base : configs) {
        const Configuration c = on_backend(base);
        SCOPED_TRACE(describe(c));
        const std::size_t total = 1000000;
        const std::vector<std::uint64_t> want = reference(c, total);
        BackendOptions options;
        options.launch_numbers = launch;
        auto stream = make_backend_stream(c, options);
        std::vector<std::uint64_t> got;
        std::uint64_t step = 0;
        while (got.size() < total) {
            const std::size_t left = total - got.size();
            const std::size_t ask = std::min<std::size_t>(left, 1 + (step * 7919) % 100000);
            if (step % 5 == 3) { // a fill between takes
                std::vector<std::uint64_t> part(ask);
                stream->fill(part.data(), ask);
                got.insert(got.end(), part.begin(), part.end());
            } else if (step % 5 == 4 && left > 2 * launch) { // a discard of whole launches
                const std::size_t skip = launch + 3;
                stream->discard(skip);
                got.insert(got.end(), want.begin() + static_cast<std::ptrdiff_t>(got.size()),
                    want.begin() + static_cast<std::ptrdiff_t>(got.size() + skip));
            } else {
                const Stream::View v = stream->take(ask);
                ASSERT_GE(v.size, 1u);
                ASSERT_LE(v.size, ask);
                got.insert(got.end(), v.data, v.data + v.size);
            }
            ++step;
        }
        EXPECT_TRUE(same_words(want, got));
        const Stream::ReadAhead r = stream->read_ahead();
        EXPECT_LE(r.waits, r.takes);
        EXPECT_EQ(r.asynchronous, c.backend == rngvet::Backend::cuda);
        if (c.backend == rngvet::Backend::cuda || c.backend == rngvet::Backend::openmp) {
            EXPECT_GT(r.takes, 0u);
        }
    }
}

// The Mersenne Twisters: mt19937 (one seed or a key array) and DC sets under every layout and
// seeding scheme, with skips and awkward launch lengths; one thread per instance, so instance
// counts that leave the last block part empty (5, 130) are included.
TEST_P(Backend, MersenneTwisterStreamsAreBitIdenticalToReference)
{
    const Case cases[] = {
        { mt_config("mt19937", "", 1, "single", "same", { 5489 }), 300000, 65537 },
        { mt_config("mt19937", "", 1, "single", "same", { 0x123, 0x234, 0x345, 0x456 }), 1000,
            1 << 22 },
        { mt_config("mt19937", "", 64, "interleave", "increment", { 1 }), 1000000, 1 << 22 },
        { mt_config("mt19937", "", 5, "block:1001", "stride:3", { 9 }, 0, 12345), 300000, 77777 },
        { mt_config("mtdc", "fixstars-mt521", 7, "interleave", "hash", { 12345 }, 3, 100003),
            300000, 65537 },
        { mt_config("mtdc", "fixstars-mt521", 32, "block:3", "increment", { 4 }), 1000000, 4099 },
        { mt_config("mtdc", "fixstars-mt521", 1, "block:77", "same", { 5 }, 31), 100000, 1 << 22 },
        { mt_config("mtdc", sdk_dat(), 130, "interleave", "same", { 777 }, 1000), 1000000,
            1 << 22 },
        { mt_config("mt19937", "", 5, "request:12", "split:100003", { 5489 }, 0, 999), 300000,
            65537 },
        { mt_config("mtdc", "fixstars-mt521", 33, "interleave", "split:4099", { 7 }, 2), 300000,
            1 << 22 },
    };
    for (const Case& k : cases) {
        const Configuration c = on_backend(k.c);
        SCOPED_TRACE(describe(c) + ", " + std::to_string(k.n) + " numbers, launches of "
            + std::to_string(k.launch));
        EXPECT_TRUE(same_words(reference(c, k.n), generate(c, k.n, k.launch)));
    }
}

// The published GPU configurations, with the known-answer table's rows checked on the
// backend's own output where each instance's numbers land, and the whole output against the
// reference.
TEST_P(Backend, MersenneTwisterPublishedConfigurationsReproduced)
{
    { // MT19937, init_genrand(5489): the first outputs and the 10000th.
        const Configuration c = on_backend(mt_config("mt19937", "", 1, "single", "same", { 5489 }));
        const std::vector<std::uint64_t> got = generate(c, 10000);
        for (std::uint64_t skip : { 0, 9999 }) {
            const KnownAnswer row = known_answer("mt19937", "5489", skip);
            for (std::size_t t = 0; t < row.values.size(); ++t)
                EXPECT_EQ(got.at(skip + t), row.values[t]) << "output " << skip + t;
        }
    }
    // The table's DC rows: the SDK's MT607 sets by their index (matrix_a's low 16 bits), the
    // book's MT521 sets by gid = seed / 0x33ff.
    std::vector<std::pair<std::size_t, KnownAnswer>> sdk, book;
    for (const KnownAnswer& row : known_answers_of("mtdc")) {
        const auto set = mtdc_param_set(row.configuration());
        if (set->p == 607) sdk.emplace_back(set->ids.at(0), row);
        if (set->p == 521)
            book.emplace_back(static_cast<std::size_t>(row.seed.at(0) / 0x33ff), row);
    }
    EXPECT_EQ(sdk.size(), 3u);
    EXPECT_EQ(book.size(), 2u);
    { // NVIDIA SDK: 4096 MT607 sets, every twister seeded 777, out[id + 4096 * t].
        const Configuration c
            = on_backend(mt_config("mtdc", sdk_dat(), 4096, "interleave", "same", { 777 }));
        SCOPED_TRACE(describe(c));
        const std::size_t n = 4096 * 64;
        const std::vector<std::uint64_t> got = generate(c, n, 100003);
        for (const auto& [id, row] : sdk) {
            EXPECT_EQ(row.seed, std::vector<std::int64_t>{ 777 });
            for (std::size_t t = 0; t < row.values.size(); ++t)
                EXPECT_EQ(got.at(id + 4096 * t), row.values[t]) << "id " << id << ", output " << t;
        }
        EXPECT_TRUE(same_words(reference(c, n), got));
    }
    { // The OpenCL book: 32 MT521 sets, generator gid seeded 0x33ff * gid, out[gid * K + t].
        const std::size_t k = 4096;
        const Configuration c = on_backend(mt_config(
            "mtdc", "fixstars-mt521", 32, "block:" + std::to_string(k), "stride:0x33ff", { 0 }));
        SCOPED_TRACE(describe(c));
        const std::vector<std::uint64_t> got = generate(c, 32 * k, 65537);
        for (const auto& [gid, row] : book) {
            EXPECT_EQ(row.seed.at(0), static_cast<std::int64_t>(0x33ff * gid));
            for (std::size_t t = 0; t < row.values.size(); ++t)
                EXPECT_EQ(got.at(gid * k + t), row.values[t]) << "gid " << gid << ", output " << t;
        }
        EXPECT_TRUE(same_words(reference(c, 32 * k), got));
    }
}

// A configuration's skip is jumped over on the host (each instance by its own share of the
// skipped numbers); discard() in mid-stream runs launches that are not copied back. Both land
// where the reference (which jumps) lands.
TEST_P(Backend, SkipAndDiscardMatchReference)
{
    const Configuration skips[] = {
        ranmar_config(
            "ranmar24", 1, "single", "increment", 1802, 9373, "keep", 1000000000000000ull),
        ranmar_config("ranmar48x", 7, "interleave", "hash", 5, 6, "keep", 1000000000007ull),
        ranmar_config("ranmar48", 64, "block:1001", "increment", 7, 8, "smallest", 123456789012ull),
    };
    for (const Configuration& base : skips) {
        const Configuration c = on_backend(base);
        SCOPED_TRACE(describe(c));
        EXPECT_TRUE(same_words(reference(c, 100000), generate(c, 100000, 65537)));
    }
    const Configuration c
        = on_backend(ranmar_config("ranmar48x", 7, "block:9", "stride:3", 11, 12));
    BackendOptions options;
    options.launch_numbers = 65537;
    auto stream = make_backend_stream(c, options);
    auto ref = make_stream(c);
    for (std::uint64_t skip : { 0ull, 5ull, 200003ull, 65537ull, 1ull }) {
        SCOPED_TRACE(describe(c) + ", discard " + std::to_string(skip));
        stream->discard(skip);
        ref->discard(skip);
        std::vector<std::uint64_t> got(1001), want(1001);
        stream->fill(got.data(), got.size());
        ref->fill(want.data(), want.size());
        EXPECT_TRUE(same_words(want, got));
    }
}

TEST_P(Backend, LaunchWritesEverySlotOnceAndNothingElse)
{
    const Configuration configs[] = {
        ranmar_config("ranmar24", 7, "interleave", "increment", 1802, 9373),
        ranmar_config("ranmar48", 64, "block:5", "hash", 77, 88),
        ranmar_config("ranmar48x", 1, "single", "same", 3, 4),
        ranmar_config("ranmar24", 9, "block:33", "stride:5", 9, 10, "smallest"),
        mt_config("mtdc", "fixstars-mt521", 32, "block:9", "stride:0x33ff", { 0 }),
        mt_config("mt19937", "", 130, "interleave", "hash", { 1 }),
    };
    for (const Configuration& base : configs)
        expect_every_slot_once(base);
}

// --- Jump-parallel RANMAR (kernels/ranmar_kernel.hpp, "Jump-parallel generation") ---------

struct SegmentCase {
    Configuration c;
    std::size_t n;
    std::size_t launch;
    std::uint64_t segments, length; // 0, 0: the backend's own plan
};

// Every variant and layout, chunk lengths that are not multiples of the 32 lanes (1, 31, 97,
// 100, 333) and some that are, unit counts that do not divide the launches, launches that end
// inside chunks and rounds of chunks, skips, zero=smallest, and the backend's own plans.
std::vector<SegmentCase> segment_cases()
{
    return {
        { ranmar_config("ranmar24", 1, "single", "increment", 1802, 9373), 100003, 4099, 7, 100 },
        { ranmar_config("ranmar48", 1, "single", "same", 0, 0, "smallest", 12345), 200001, 65537, 5,
            1000 },
        { ranmar_config("ranmar48x", 1, "single", "increment", 31328, 30081), 3001, 1000, 3, 1 },
        { ranmar_config("ranmar24", 1, "single", "increment", 12345, 678), 20000, 777, 2, 31 },
        { ranmar_config("ranmar48x", 3, "interleave", "increment", 1802, 9373), 300001, 9999, 4,
            333 },
        { ranmar_config("ranmar24", 2, "block:5", "hash", 5, 6, "keep", 99), 200000, 1 << 16, 3,
            64 },
        { ranmar_config("ranmar48", 3, "request:10", "split:100003", 7, 8, "keep", 777), 300000,
            65537, 6, 97 },
        { ranmar_config("ranmar48x", 8, "interleave", "hash", 1, 2, "smallest"), 1000000, 1 << 17,
            16, 4096 },
        { ranmar_config("ranmar24", 8, "block:1001", "stride:7", 3, 4, "keep", 5000), 500000, 77777,
            9, 2000 },
        // Interleave on CUDA: blocks of the same unit of 8 instances (16: two tiles), chunks and
        // launches no multiple of a tile's step (32 N).
        { ranmar_config("ranmar24", 16, "interleave", "increment", 1802, 9373, "keep", 29), 500000,
            77777, 5, 333 },
        { ranmar_config("ranmar48", 8, "interleave", "stride:7", 5, 6, "smallest", 3), 300000, 9999,
            11, 1000 },
        { ranmar_config("ranmar48", 1, "single", "increment", 1802, 9373), 3000000, 1 << 20, 0, 0 },
        { ranmar_config("ranmar48x", 8, "interleave", "increment", 1802, 9373), 3000000, 1 << 20, 0,
            0 },
        // The Mersenne Twisters (jump-parallel on OpenMP and CUDA; OpenCL has no plan for them).
        { mt_config("mtdc", "fixstars-mt521", 1, "single", "same", { 5 }), 20000, 4099, 3, 100 },
        { mt_config("mtdc", "fixstars-mt521", 3, "interleave", "hash", { 7 }, 2, 12345), 50000,
            9999, 4, 1000 },
        { mt_config("mtdc", sdk_dat(), 2, "request:7", "increment", { 777 }, 100), 5000, 777, 2,
            33 },
        { mt_config("mt19937", "", 1, "single", "same", { 5489 }), 30000, 65537, 2, 5000 },
        { mt_config("mt19937", "", 1, "single", "same", { 0x123, 0x234, 0x345 }, 0, 999), 40000,
            10007, 3, 7777 },
        { mt_config("mtdc", "fixstars-mt521", 1, "single", "increment", { 1 }), 2500000, 1 << 20, 0,
            0 },
        { mt_config("mtdc", "fixstars-mt521", 32, "block:1000", "stride:13311", { 0 }, 0,
              (std::uint64_t(1) << 40) + 77),
            3000000, 1 << 20, 0, 0 },
        { mt_config("mtdc", sdk_dat(), 32, "interleave", "hash", { 3 }, 0, 999), 400000, 65537, 3,
            1001 },
        { mt_config("mt19937", "", 1, "single", "same", { 5489 }, 0, 5000000000ull), 300000, 65537,
            0, 0 },
    };
}

TEST_P(Backend, JumpParallelStreamsAreBitIdenticalToReference)
{
    for (const SegmentCase& k : segment_cases()) {
        const Configuration c = on_backend(k.c);
        BackendOptions options;
        options.launch_numbers = k.launch;
        options.segments = k.segments;
        options.segment_length = k.length;
        SCOPED_TRACE(describe(c) + ", " + std::to_string(k.n) + " numbers, launches of "
            + std::to_string(k.launch) + ", plan '" + jump_parallel_plan(c, options) + "'");
        // Forced plans apply to RANMAR everywhere, to the MTs on OpenMP and CUDA.
        const bool mt = c.generator == "mtdc" || c.generator == "mt19937";
        if (k.segments > 1
            && (!mt || c.backend == rngvet::Backend::openmp
                || c.backend == rngvet::Backend::cuda)) {
            EXPECT_NE(jump_parallel_plan(c, options), "") << "the forced plan is not used";
        }
        EXPECT_TRUE(
            same_words(reference(c, k.n), generate(c, k.n, k.launch, k.segments, k.length)));
    }
}

// fill() in chunks of awkward sizes, take() and discard() (inside a chunk, across chunks,
// across whole rounds of chunks and whole launches) continue the stream exactly; a
// configuration's skip lands where discarding as many numbers does.
TEST_P(Backend, JumpParallelFillTakeAndDiscardContinueTheStream)
{
    const SegmentCase cases[] = {
        { ranmar_config("ranmar48x", 1, "single", "increment", 1802, 9373), 0, 5000, 6, 123 },
        { ranmar_config("ranmar24", 3, "interleave", "increment", 1802, 9373), 0, 65536, 5, 1000 },
        { ranmar_config("ranmar48", 2, "request:7", "same", 9, 10), 0, 4099, 4, 32 },
        { mt_config("mtdc", "fixstars-mt521", 2, "block:5", "increment", { 3 }), 0, 5000, 3, 500 },
    };
    const std::size_t pieces[] = { 1, 3, 737, 2, 20000, 100, 1, 65536, 31, 12345 };
    const std::uint64_t discards[] = { 0, 1, 122, 124, 738, 5000, 50000, 1 };
    for (const SegmentCase& k : cases) {
        const Configuration c = on_backend(k.c);
        BackendOptions options;
        options.launch_numbers = k.launch;
        options.segments = k.segments;
        options.segment_length = k.length;
        SCOPED_TRACE(describe(c) + ", plan '" + jump_parallel_plan(c, options) + "'");
        std::size_t total = 0;
        for (std::size_t step = 0; step < std::size(pieces); ++step)
            total += pieces[step] + static_cast<std::size_t>(discards[step % std::size(discards)]);
        const std::vector<std::uint64_t> want = reference(c, total);
        auto stream = make_backend_stream(c, options);
        std::vector<std::uint64_t> got;
        for (std::size_t step = 0; step < std::size(pieces); ++step) {
            const std::size_t ask = pieces[step];
            if (step % 3 == 1) {
                for (std::size_t have = 0; have < ask;) {
                    const Stream::View v = stream->take(ask - have);
                    ASSERT_GE(v.size, 1u);
                    got.insert(got.end(), v.data, v.data + v.size);
                    have += v.size;
                }
            } else {
                std::vector<std::uint64_t> part(ask);
                stream->fill(part.data(), ask);
                got.insert(got.end(), part.begin(), part.end());
            }
            const std::uint64_t d = discards[step % std::size(discards)];
            stream->discard(d);
            got.insert(got.end(), want.begin() + static_cast<std::ptrdiff_t>(got.size()),
                want.begin() + static_cast<std::ptrdiff_t>(got.size() + d));
        }
        EXPECT_TRUE(same_words(want, got));
        for (std::uint64_t skip : { 1ull, 123ull, 124ull, 99999ull, 1000000000007ull }) {
            Configuration skipped = c;
            skipped.skip = skip;
            SCOPED_TRACE("skip " + std::to_string(skip));
            auto from = make_backend_stream(skipped, options);
            auto ref = make_stream(c);
            ref->discard(skip);
            std::vector<std::uint64_t> a(30000), b(30000);
            from->fill(a.data(), a.size());
            ref->fill(b.data(), b.size());
            EXPECT_TRUE(same_words(b, a));
        }
    }
}

// Kernel level, as LaunchWritesEverySlotOnceAndNothingElse: with units of chunks, every slot of
// a launch is written once with the reference value and nothing outside it.
TEST_P(Backend, JumpParallelLaunchWritesEverySlotOnce)
{
    expect_every_slot_once(ranmar_config("ranmar24", 1, "single", "increment", 1802, 9373), 7, 100);
    expect_every_slot_once(ranmar_config("ranmar48x", 3, "interleave", "hash", 1, 2), 4, 31);
    expect_every_slot_once(ranmar_config("ranmar48", 8, "interleave", "increment", 7, 8), 3, 1000);
    expect_every_slot_once(ranmar_config("ranmar24", 16, "interleave", "hash", 1, 2), 5, 97);
    expect_every_slot_once(
        ranmar_config("ranmar48", 2, "block:33", "same", 3, 4, "smallest"), 5, 4096);
    expect_every_slot_once(ranmar_config("ranmar24", 3, "request:11", "increment", 5, 6), 3, 1);
    expect_every_slot_once(
        mt_config("mtdc", "fixstars-mt521", 3, "interleave", "same", { 1 }), 4, 3001);
    expect_every_slot_once(
        mt_config("mtdc", "fixstars-mt521", 32, "block:1000", "stride:13311", { 0 }), 5, 777);
    expect_every_slot_once(mt_config("mt19937", "", 1, "single", "same", { 5489 }), 6, 20000);
}

// CUDA's own plan for few Mersenne Twisters is jump-parallel (backend.cpp, segment_plan): the
// 32-instance book set and one MT19937, as `rngvet run` makes them; not from 64 instances;
// RNGVET_MT_KERNEL (a forced kernel) and --segments 1 turn it off; OpenCL has none. (The plan
// needs no device.)
TEST(JumpParallelPlan, CudaPlansFewMersenneTwisters)
{
    auto on = [](Configuration c, rngvet::Backend b) {
        c.backend = b;
        return c;
    };
    const rngvet::Backend cuda = rngvet::Backend::cuda;
    const Configuration book
        = on(mt_config("mtdc", "fixstars-mt521", 32, "block:1000", "stride:13311", { 0 }), cuda);
    const Configuration one = on(mt_config("mt19937", "", 1, "single", "same", { 5489 }), cuda);
    const Configuration many
        = on(mt_config("mtdc", sdk_dat(), 64, "interleave", "same", { 1 }), cuda);
    const BackendOptions plain;
    // Chunks of a power of two, at least 8192 numbers and p nn / 100 (MT19937: 124406), units
    // for 2^25 numbers.
    EXPECT_EQ(jump_parallel_plan(book, plain), "128 units x 8192 numbers per instance");
    EXPECT_EQ(jump_parallel_plan(one, plain), "256 units x 131072 numbers per instance");
    EXPECT_EQ(jump_parallel_plan(many, plain), "");
    EXPECT_EQ(jump_parallel_plan(on(book, rngvet::Backend::opencl), plain), "");
    BackendOptions off;
    off.segments = 1;
    EXPECT_EQ(jump_parallel_plan(book, off), "");
    const ScopedEnv env("RNGVET_MT_KERNEL", "lanes");
    EXPECT_EQ(jump_parallel_plan(book, plain), "");
}

// The one-warp-per-instance kernels (what few-instance configurations ran before jump-parallel
// generation, and what many instances still run) stay exact: the equality cases with segments
// turned off.
TEST_P(Backend, OneWarpPerInstanceStreamsStayBitIdentical)
{
    for (const Case& k : equality_cases()) {
        const Configuration c = on_backend(k.c);
        SCOPED_TRACE(describe(c) + ", segments off");
        EXPECT_TRUE(same_words(reference(c, k.n), generate(c, k.n, k.launch, 1, 0)));
    }
}

// CUDA runs DC sets on one of three kernels (cuda_kernels.cu: registers with 1 or 2 warps per
// 32 instances, lanes, words), chosen by the sets and the instance count; RNGVET_MT_KERNEL
// forces one. Each must reproduce the reference on every layout, with odd launch lengths, and
// write each slot once; one that cannot run the sets is refused with a one-line error.

TEST_P(Backend, CudaMtKernelsEachReproduceTheReference)
{
    if (GetParam() != "cuda") GTEST_SKIP() << "the MT kernel choice is CUDA's";
    const Case cases[] = {
        { mt_config("mtdc", sdk_dat(), 4096, "interleave", "same", { 777 }), 4096 * 300, 100003 },
        { mt_config("mtdc", sdk_dat(), 130, "interleave", "increment", { 9 }, 1000, 777), 1000000,
            65537 },
        { mt_config("mtdc", sdk_dat(), 33, "block:7", "hash", { 5 }, 4000, 12345), 300000, 4099 },
        { mt_config("mtdc", "fixstars-mt521", 32, "block:4096", "stride:0x33ff", { 0 }), 32 * 4096,
            99991 },
        { mt_config("mtdc", "fixstars-mt521", 7, "interleave", "hash", { 12345 }, 3, 100003),
            300000, 1 << 22 },
        { mt_config("mtdc", "fixstars-mt521", 1, "single", "same", { 5 }, 31), 100000, 77777 },
    };
    for (const char* kernel : { "registers:1", "registers:2", "lanes", "words" }) {
        const ScopedEnv env("RNGVET_MT_KERNEL", kernel);
        for (const Case& k : cases) {
            const Configuration c = on_backend(k.c);
            SCOPED_TRACE(std::string("RNGVET_MT_KERNEL=") + kernel + ", " + describe(c) + ", "
                + std::to_string(k.n) + " numbers, launches of " + std::to_string(k.launch));
            EXPECT_TRUE(same_words(reference(c, k.n), generate(c, k.n, k.launch)));
        }
        expect_every_slot_once(
            mt_config("mtdc", "fixstars-mt521", 32, "block:9", "stride:0x33ff", { 0 }));
        expect_every_slot_once(mt_config("mtdc", sdk_dat(), 130, "interleave", "same", { 1 }));
    }
    for (const char* kernel : { "registers", "lanes", "registers:4", "fastest" }) {
        const ScopedEnv env("RNGVET_MT_KERNEL", kernel);
        try {
            generate(mt_config("mt19937", "", 1, "single", "same", { 5489 }), 10);
            FAIL() << "RNGVET_MT_KERNEL=" << kernel << " ran mt19937";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("RNGVET_MT_KERNEL"), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
}

TEST_P(Backend, OutOfMemoryIsAnInputError)
{
    BackendOptions options;
    options.launch_numbers = std::size_t(1) << 42; // 32 TiB of output buffer
    const Configuration c = on_backend(ranmar_config("ranmar24", 1, "single", "increment", 1, 1));
    try {
        make_backend_stream(c, options);
        FAIL() << "a 32 TiB buffer was allocated";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("memory"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

// The backends' host buffers are bounded by the same rule as the command line's sizes
// (fits_in_memory, process/memory.hpp): exactly half of this machine's memory passes, one byte
// more does not, whatever the item size.
TEST(HostMemory, BoundIsTheRuleOfProcessMemory)
{
    const std::uint64_t physical = physical_memory();
    ASSERT_GT(physical, 0u);
    const std::uint64_t bound = physical / 2;
    EXPECT_NO_THROW(check_host_memory(bound, 1, "a buffer"));
    EXPECT_NO_THROW(check_fits_in_memory(bound, "--instances 1"));
    try {
        check_host_memory(bound + 1, 1, "the words of a test");
        FAIL() << "one byte beyond half of memory accepted";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("out of host memory: the words of a test needs ", 0), 0u) << what;
    }
    EXPECT_THROW(check_fits_in_memory(bound + 1, "--instances 2"), InputError);
    EXPECT_NO_THROW(check_host_memory(bound / 8, 8, "words"));
    EXPECT_THROW(check_host_memory(bound / 8 + 1, 8, "words"), InputError);
}

// Bit views (generators/view.hpp), stated here independently of the view code: the expected
// words come from the reference outputs as a bit string (packed) or bit by bit (low32,
// reversed). Each view is checked from the start, from word offsets in every phase of a packed
// group, and across a long jump against the same view read from the start.
std::vector<std::uint64_t> expected_view_words(
    const std::vector<std::uint64_t>& x, int bits, BitView view)
{
    std::vector<std::uint64_t> words;
    if (view == BitView::packed) {
        std::vector<int> bit_string;
        for (std::uint64_t v : x)
            for (int b = bits - 1; b >= 0; --b)
                bit_string.push_back(static_cast<int>((v >> b) & 1));
        for (std::size_t k = 0; k + 32 <= bit_string.size(); k += 32) {
            std::uint64_t w = 0;
            for (std::size_t j = 0; j < 32; ++j)
                w = w << 1 | static_cast<std::uint64_t>(bit_string[k + j]);
            words.push_back(w);
        }
        return words;
    }
    for (std::uint64_t v : x) {
        if (view == BitView::low32) {
            words.push_back(v & 0xffffffffu);
            continue;
        }
        const std::uint64_t top = bits >= 32 ? v >> (bits - 32) : v << (32 - bits);
        std::uint64_t r = 0;
        for (int b = 0; b < 32; ++b)
            if (top & (std::uint64_t(1) << b)) r |= std::uint64_t(1) << (31 - b);
        words.push_back(r);
    }
    return words;
}

void check_views(const std::string& backend)
{
    BackendOptions small;
    small.launch_numbers = std::size_t(1) << 14;
    const auto open = [&](const Configuration& c) { return make_backend_stream(c, small); };
    std::vector<Configuration> outputs = {
        ranmar_config("ranmar24", 1, "single", "increment", 1802, 9373),
        ranmar_config("ranmar48", 8, "interleave", "increment", 1802, 9373),
        ranmar_config("ranmar48x", 3, "block:5", "increment", 12, 34),
        mt_config("mt19937", "", 1, "single", "same", { 5489 }),
        mt_config("mtdc", "fixstars-mt521", 4, "interleave", "stride:0x33ff", { 0 }),
    };
    for (Configuration c : outputs) {
        const int bits = resolution_bits(c);
        const std::vector<std::uint64_t> x = reference(c, 4000);
        for (BitView view : { BitView::low32, BitView::reversed, BitView::packed }) {
            const std::vector<std::uint64_t> want = expected_view_words(x, bits, view);
            Configuration v = c;
            v.view = view;
            v.backend = parse_backend(backend);
            SCOPED_TRACE(describe(v));
            for (std::uint64_t skip : { 0, 1, 2, 5 }) {
                v.skip = skip;
                const std::size_t n = 1000;
                std::vector<std::uint64_t> got(n);
                auto stream = open(v);
                EXPECT_EQ(stream->bits(), 32);
                stream->fill(got.data(), n);
                EXPECT_TRUE(
                    same_words(std::vector<std::uint64_t>(want.begin() + static_cast<long>(skip),
                                   want.begin() + static_cast<long>(skip + n)),
                        got))
                    << "skip " << skip;
            }
            // Across a jump: words 1000003.. read with --skip equal the same words read on.
            v.skip = 0;
            auto whole = open(v);
            whole->discard(1000003);
            std::vector<std::uint64_t> on(777), jumped(777);
            whole->fill(on.data(), on.size());
            v.skip = 1000003;
            open(v)->fill(jumped.data(), jumped.size());
            EXPECT_TRUE(same_words(on, jumped)) << "across a jump";
        }
        // The transforms: the backend's values equal the reference's on the 2^-53 grid, from
        // every phase of a Box-Muller pair and across a jump.
        for (BitView view : { BitView::sdk_float, BitView::box_muller }) {
            Configuration v = c;
            v.view = view;
            for (std::uint64_t skip : { 0, 1, 3, 1000001 }) {
                v.skip = skip;
                v.backend = rngvet::Backend::cpu;
                std::vector<std::uint64_t> want(999), got(999);
                make_stream(v)->fill(want.data(), want.size());
                v.backend = parse_backend(backend);
                auto stream = open(v);
                EXPECT_EQ(stream->bits(), 53);
                stream->fill(got.data(), got.size());
                EXPECT_TRUE(same_words(want, got)) << describe(v) << ", skip " << skip;
            }
        }
    }
}

// The arrangements stated from their definitions, on the reference: request:R hands each
// request's numbers to the instances in order (the first R mod N one more), request after
// request; split:S makes instance i the base stream from number i * S on.
TEST(Arrangements, RequestAndSplitFollowTheirDefinitions)
{
    for (const char* g : { "ranmar48", "mt19937" }) {
        const bool mt = std::string(g) == "mt19937";
        Configuration base = mt ? mt_config(g, "", 1, "single", "same", { 5489 })
                                : ranmar_config(g, 1, "single", "same", 1802, 9373);
        const int n = 3;
        const std::uint64_t s = 1000;
        Configuration c = base;
        c.instances = n;
        c.layout = parse_layout("request:11"); // shares 4, 4, 3
        c.seeding = parse_seeding("split:1000");
        const std::vector<std::uint64_t> whole = reference(base, 10000);
        const std::vector<std::uint64_t> got = reference(c, 110);
        std::vector<std::uint64_t> want;
        std::vector<std::uint64_t> next(n, 0);
        for (int request = 0; request < 10; ++request)
            for (int i = 0; i < n; ++i)
                for (int k = 0; k < (i < 2 ? 4 : 3); ++k)
                    want.push_back(whole[static_cast<std::size_t>(s * i + next[i]++)]);
        SCOPED_TRACE(canonical_name(c));
        EXPECT_TRUE(same_words(want, got));
        EXPECT_EQ(canonical_name(c).find("/3/request:11/split:1000/") != std::string::npos, true);
        // R a multiple of N: block:R/N.
        c.layout = parse_layout("request:12");
        Configuration b = c;
        b.layout = parse_layout("block:4");
        EXPECT_TRUE(same_words(reference(b, 5000), reference(c, 5000)));
    }
    Configuration few = ranmar_config("ranmar48", 4, "request:3", "increment", 1, 2);
    EXPECT_THROW(validate(few), InputError);
}

// split:20000 on James's RANMAR: instance 1 starts with his published values after 20000
// numbers (the known-answer table's row), on the reference and on every backend.
std::vector<std::uint64_t> james_split(const std::string& backend)
{
    Configuration c = ranmar_config("ranmar24", 2, "interleave", "split:20000", 1802, 9373);
    c.backend = parse_backend(backend);
    auto stream = make_backend_stream(c);
    std::vector<std::uint64_t> x(12);
    stream->fill(x.data(), x.size());
    return { x[1], x[3], x[5], x[7], x[9], x[11] };
}
std::vector<std::uint64_t> james_after_20000()
{
    return known_answer("ranmar24", "1802,9373", 20000).values;
}

TEST(Arrangements, SplitReachesJamessPublishedValues)
{
    EXPECT_EQ(james_split("cpu"), james_after_20000());
}

TEST_P(Backend, SplitReachesJamessPublishedValues)
{
    EXPECT_EQ(james_split(GetParam()), james_after_20000());
}

TEST(Views, ReferenceViewsAreTheOutputsBitsAndJumpExactly)
{
    check_views("cpu");
}

TEST_P(Backend, ViewsAreTheReferenceOutputsBits)
{
    check_views(GetParam());
}

// The conversions every backend compiles (generators/u01.hpp), against values stated here: the
// top 32 bits at every resolution the streams have (24-bit words left-aligned), 2^bits saturating,
// and x * 2^-bits exact up to 53 bits.
TEST(Conversions, Top32AndU01AreTestU01s)
{
    EXPECT_EQ(top32(0xABCDEFu, 24), 0xABCDEF00u);
    EXPECT_EQ(top32(0xFFFFFFu, 24), 0xFFFFFF00u);
    EXPECT_EQ(top32(0xDEADBEEFu, 32), 0xDEADBEEFu);
    EXPECT_EQ(top32(0x123456789ABCull, 48), 0x12345678u);
    EXPECT_EQ(top32(0xFFFFFFFFFFFFull, 48), 0xFFFFFFFFu);
    EXPECT_EQ(top32(0x1FFFFFFFFFFFFFull, 53), 0xFFFFFFFFu);
    EXPECT_EQ(top32(0x0000000100000000ull, 53), 0x800u); // 2^32 >> 21
    EXPECT_EQ(top32(std::uint64_t(1) << 48, 48), 0xFFFFFFFFu); // 1.0 saturates
    EXPECT_EQ(top32(std::uint64_t(1) << 32, 32), 0xFFFFFFFFu);
    EXPECT_EQ(u01_scale(24), std::ldexp(1.0, -24));
    EXPECT_EQ(u01_scale(53), std::ldexp(1.0, -53));
    EXPECT_EQ(to_u01(0, 48), 0.0);
    EXPECT_EQ(to_u01(1, 24), std::ldexp(1.0, -24));
    EXPECT_EQ(to_u01(0xFFFFFFu, 24), 1.0 - std::ldexp(1.0, -24));
    EXPECT_EQ(to_u01((std::uint64_t(1) << 53) - 1, 53), 1.0 - std::ldexp(1.0, -53));
    EXPECT_EQ(to_u01(0x123456789ABCull, 48), 0x123456789ABCp-48);
}

// The SDK's float of a word ((float)w + 1) / 2^32 in single precision: 24 bits of resolution,
// exactly 1.0 for the 128 largest words (they round to 2^32), and GetBits saturating there;
// the Box-Muller view of MT19937(5489)'s first two words (the known-answer table's row).
TEST(Views, TransformsFollowTheSdksFormulas)
{
    const std::uint64_t one = std::uint64_t(1) << 53;
    EXPECT_EQ(sdk_float_grid(0xFFFFFFFFu), one);
    EXPECT_EQ(sdk_float_grid(0xFFFFFF80u), one);
    EXPECT_LT(sdk_float_grid(0xFFFFFF7Fu), one);
    EXPECT_EQ(top32(one, 53), 0xFFFFFFFFu);
    EXPECT_EQ(to_u01(one, 53), 1.0);
    EXPECT_EQ(sdk_float_grid(0), std::uint64_t(1) << 21); // v = 2^-32
    const std::vector<std::uint64_t>& mt = known_answer("mt19937", "5489").values;
    const auto w0 = static_cast<std::uint32_t>(mt.at(0)), w1 = static_cast<std::uint32_t>(mt.at(1));
    EXPECT_EQ(top32(sdk_float_grid(w0), 53), 3499211520u); // rounded to 24 bits
    std::uint64_t z[2];
    box_muller_grid(w0, w1, z);
    EXPECT_NEAR(to_u01(z[0], 53), 0.66345402028771194, 1e-15);
    EXPECT_NEAR(to_u01(z[1], 53), 0.68490601603682666, 1e-15);
    Configuration c = mt_config("mt19937", "", 1, "single", "same", { 5489 });
    c.view = BitView::sdk_float;
    EXPECT_EQ(resolution_bits(c), 24);
    EXPECT_NE(canonical_name(c).find(";view=sdk-float"), std::string::npos);
}

TEST(Views, CanonicalNameResolutionAndNamesRoundTrip)
{
    Configuration c = ranmar_config("ranmar48", 1, "single", "increment", 1802, 9373);
    EXPECT_EQ(canonical_name(c), "ranmar48/1/single/increment/1802,9373");
    for (BitView view : { BitView::low32, BitView::reversed, BitView::packed }) {
        c.view = view;
        EXPECT_EQ(parse_view(to_string(view)), view);
        EXPECT_EQ(canonical_name(c),
            std::string("ranmar48/1/single/increment/1802,9373;view=") + to_string(view));
        EXPECT_EQ(resolution_bits(c), 32);
    }
    EXPECT_THROW(parse_view("middle"), InputError);
}

INSTANTIATE_TEST_SUITE_P(All, Backend, ::testing::ValuesIn(kernel_backends()),
    [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

// --- Host-only checks of the kernel's building blocks ---------------------------------

// The brief's mapping: after ranmar_seed, u[96 - m] holds X_{-97+m}; the plain recurrence
// X_k = X_{k-97} - X_{k-33} with c_k = c_{-1} - (k+1)*cd (mod cm) reproduces ranmar_next.
TEST(RanmarKernelMath, SeededTableIsTheHistoryTheRecurrenceContinues)
{
    for (RanmarVariant v : { RanmarVariant::r24, RanmarVariant::r48, RanmarVariant::r48x }) {
        RanmarState s{};
        ranmar_seed(s, v, 1802, 9373);
        ASSERT_EQ(s.i97, 96);
        ASSERT_EQ(s.j97, 32);
        const std::uint64_t mask = (std::uint64_t(1) << s.bits) - 1;
        std::vector<std::uint64_t> x(97 + 5000); // x[97 + k] = X_k
        for (int m = 0; m < 97; ++m)
            x[static_cast<std::size_t>(m)] = s.u[96 - m];
        std::uint64_t c = s.c;
        RanmarState r = s;
        for (std::size_t k = 0; k < 5000; ++k) {
            x[97 + k] = (x[k] - x[k + 64]) & mask;
            c = c >= s.cd ? c - s.cd : c + s.cm - s.cd;
            ASSERT_EQ((x[97 + k] - c) & mask, ranmar_next(r))
                << "variant " << int(v) << ", k = " << k;
        }
    }
}

// The device state of a reference state at any position continues its stream (OpenMP
// launcher, so this runs wherever the OpenMP backend is built).
TEST(RanmarKernelMath, DeviceStateAtAnyPositionContinuesTheStream)
{
    std::string why;
    if (!openmp_usable(why)) GTEST_SKIP() << why;
    for (std::uint64_t position : { 0u, 1u, 32u, 96u, 97u, 98u, 1000u, 12345u }) {
        SCOPED_TRACE("position " + std::to_string(position));
        const Configuration c = ranmar_config("ranmar48x", 1, "single", "increment", 555, 666);
        RanmarSetup setup = ranmar_setup(c);
        RanmarState s = ranmar_instance_state(c, 0);
        for (std::uint64_t k = 0; k < position; ++k)
            ranmar_next(s);
        ranmar_device_state(s, position, setup.state.data());
        auto d = make_device<RanmarKernels>(rngvet::Backend::openmp, setup, -1);
        const std::size_t len = 1000;
        d->reserve(len);
        d->launch(position, len, 0, false);
        std::vector<std::uint64_t> got(len), want(len);
        d->download(got.data(), len);
        for (std::uint64_t& w : want)
            w = ranmar_next(s);
        EXPECT_TRUE(same_words(want, got));
    }
}

// Every instance's share of a range [g0, g0 + len) adds up to len, and its numbers land
// exactly on the range, each slot once.
TEST(RanmarKernelMath, LayoutCountsAndIndicesTileTheRange)
{
    struct L {
        std::uint64_t layout, n, k;
    };
    const L layouts[] = { { RNGVET_LAYOUT_SINGLE, 1, 1 }, { RNGVET_LAYOUT_INTERLEAVE, 1, 1 },
        { RNGVET_LAYOUT_INTERLEAVE, 7, 1 }, { RNGVET_LAYOUT_INTERLEAVE, 64, 1 },
        { RNGVET_LAYOUT_BLOCK, 1, 77 }, { RNGVET_LAYOUT_BLOCK, 7, 3 },
        { RNGVET_LAYOUT_BLOCK, 64, 1 }, { RNGVET_LAYOUT_BLOCK, 9, 1001 } };
    for (const L& l : layouts)
        for (std::uint64_t g0 : { 0u, 1u, 6u, 1000u, 20021u })
            for (std::uint64_t len : { 1u, 5u, 64u, 3003u }) {
                RanmarKernelParams p{};
                p.layout = l.layout;
                p.instances = l.n;
                p.block = l.k;
                p.g0 = g0;
                p.len = len;
                std::vector<int> hits(len, 0);
                std::uint64_t sum = 0;
                for (std::uint64_t i = 0; i < l.n; ++i) {
                    const std::uint64_t a = ranmar_count_before(p, i, g0);
                    const std::uint64_t b = ranmar_count_before(p, i, g0 + len);
                    sum += b - a;
                    for (std::uint64_t t = a; t < b; ++t) {
                        const std::uint64_t g = ranmar_combined_index(p, i, t);
                        ASSERT_TRUE(g >= g0 && g < g0 + len)
                            << "layout " << l.layout << " N " << l.n << " K " << l.k;
                        ++hits[g - g0];
                    }
                }
                EXPECT_EQ(sum, len);
                EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), static_cast<long>(len));
            }
}

// The jump-parallel plans: none where the instances fill the device; otherwise chunks of at
// least the minimum, at most one chunk per unit and launch, and no more units than the target.
TEST(RanmarKernelMath, SegmentPlansFollowTheirRule)
{
    EXPECT_EQ(plan_segments(2048, 1 << 22, 4096, 4096).segments, 1u);
    EXPECT_EQ(plan_segments(16384, 1 << 26, 4096, 4096).segments, 1u);
    EXPECT_EQ(plan_segments(8, 1 << 20, 4, 32768).segments, 1u);
    for (std::uint64_t n : { 1u, 2u, 7u, 8u, 64u, 1000u })
        for (std::uint64_t launch : { 1u << 12, 65537u, 1u << 20, 1u << 22, 1u << 26 })
            for (std::uint64_t target : { 4u, 32u, 4096u }) {
                const SegmentPlan plan = plan_segments(n, launch, target, 4096);
                SCOPED_TRACE(std::to_string(n) + " instances, launch " + std::to_string(launch)
                    + ", target " + std::to_string(target));
                if (plan.segments == 1) continue;
                EXPECT_GE(plan.length, 4096u);
                EXPECT_LE(plan.segments * plan.length, launch / n);
                EXPECT_LE(n * plan.segments, target + n);
            }
    const SegmentPlan one = plan_segments(1, 1 << 22, 4096, 4096);
    EXPECT_EQ(one.segments, 1024u);
    EXPECT_EQ(one.length, 4096u);
    const SegmentPlan forced = plan_segments(16384, 1 << 22, 4096, 4096, 3, 77);
    EXPECT_EQ(forced.segments, 3u);
    EXPECT_EQ(forced.length, 77u);
    EXPECT_EQ(plan_segments(1, 1 << 22, 4096, 4096, 1, 0).segments, 1u);
    // Per backend (no device needed): GPUs from 256 instances on, OpenMP from as many instances
    // as threads, run the one-warp-per-instance kernels; forcing still works there.
    Configuration c = ranmar_config("ranmar48", 255, "interleave", "increment", 1, 2);
    c.backend = rngvet::Backend::cuda;
    EXPECT_NE(jump_parallel_plan(c, BackendOptions{}), "");
    c.instances = 256;
    EXPECT_EQ(jump_parallel_plan(c, BackendOptions{}), "");
    BackendOptions forced_options;
    forced_options.segments = 3;
    forced_options.segment_length = 1000;
    EXPECT_EQ(jump_parallel_plan(c, forced_options), "3 units x 1000 numbers per instance");
    // GPUs plan for launches of at most the feed's 2^22 numbers: a stream of longer launches
    // (the native engine asks for up to 2^25 at once) runs the units of the default plan.
    Configuration one_gpu = ranmar_config("ranmar48", 1, "single", "increment", 1, 2);
    one_gpu.backend = rngvet::Backend::cuda;
    BackendOptions longer;
    longer.launch_numbers = std::size_t(1) << 25;
    EXPECT_EQ(
        jump_parallel_plan(one_gpu, BackendOptions{}), "1024 units x 4096 numbers per instance");
    EXPECT_EQ(jump_parallel_plan(one_gpu, longer), jump_parallel_plan(one_gpu, BackendOptions{}));
    longer.launch_numbers = std::size_t(1) << 20;
    EXPECT_EQ(jump_parallel_plan(one_gpu, longer), "256 units x 4096 numbers per instance");
    c.backend = rngvet::Backend::openmp;
    c.instances = openmp_threads();
    EXPECT_EQ(jump_parallel_plan(c, BackendOptions{}), "");
    c.backend = rngvet::Backend::cpu;
    c.instances = 1;
    c.layout = parse_layout("single");
    EXPECT_EQ(jump_parallel_plan(c, BackendOptions{}), "");
    const SegmentPlan huge = plan_segments(1, std::uint64_t(1) << 50, 4096, 4096);
    EXPECT_LE(huge.length, std::uint64_t(1) << 30);
    EXPECT_LE(huge.segments * huge.length, std::uint64_t(1) << 40);
    // What ranmar_setup accepts (the kernels count a chunk's steps in 32 bits).
    const Configuration chunked = ranmar_config("ranmar48", 1, "single", "increment", 1, 2);
    EXPECT_EQ(ranmar_setup(chunked, 2, std::uint64_t(1) << 30).params.seg_length, 1u << 30);
    EXPECT_THROW(ranmar_setup(chunked, 2, (std::uint64_t(1) << 30) + 1), InputError);
    EXPECT_THROW(ranmar_setup(chunked, 1025, std::uint64_t(1) << 30), InputError);
}

TEST(Backends, CpuIsAlwaysAvailableAndFirst)
{
    const std::vector<rngvet::Backend> b = available_backends();
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(b.front(), rngvet::Backend::cpu);
}

TEST(Backends, CpuBackendIsTheReferenceStream)
{
    const Configuration c = ranmar_config("ranmar48", 7, "block:3", "increment", 1, 2);
    auto stream = make_backend_stream(c);
    std::vector<std::uint64_t> got(1000);
    stream->fill(got.data(), got.size());
    EXPECT_TRUE(same_words(reference(c, 1000), got));
}

TEST(Backends, UnavailableOrUnknownBackendNamesTheAvailableOnes)
{
    const std::vector<rngvet::Backend> available = available_backends();
    std::string list;
    for (const rngvet::Backend a : available)
        list += (list.empty() ? "" : ", ") + std::string(to_string(a));
    std::vector<std::string> tried{ "metal" };
    for (const rngvet::Backend b :
        { rngvet::Backend::openmp, rngvet::Backend::opencl, rngvet::Backend::cuda })
        if (std::find(available.begin(), available.end(), b) == available.end())
            tried.push_back(to_string(b));
    for (const std::string& b : tried) {
        try {
            // A name that is no backend is refused where it is read, one not here by the stream.
            Configuration c = ranmar_config("ranmar24", 1, "single", "increment", 1, 1);
            c.backend = parse_backend_here(b);
            make_backend_stream(c);
            ADD_FAILURE() << b << " made a stream";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("'" + b + "'"), std::string::npos) << what;
            EXPECT_NE(what.find("; available: " + list), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
}

// R250 (r250, r250gsl): OpenMP makes the reference's numbers bit for bit in every layout and
// seeding, across launches, skips and discards; OpenCL and CUDA, which have no kernel for it,
// refuse it in one line.
TEST_P(Backend, R250RunsOnOpenmpAndIsRefusedInOneLineElsewhere)
{
    const Configuration configs[] = {
        mt_config("r250", "", 1, "single", "increment", { 1 }),
        mt_config("r250gsl", "", 1, "single", "increment", { 1 }, 0, 123456789012ull),
        mt_config("r250", "", 7, "interleave", "hash", { 99 }, 0, 1000003),
        mt_config("r250gsl", "", 5, "block:33", "stride:1000", { 4 }),
        mt_config("r250", "", 6, "request:17", "split:100000", { 12345 }, 0, 777),
    };
    if (GetParam() != "openmp") {
        for (const Configuration& base : configs) {
            const Configuration c = on_backend(base);
            SCOPED_TRACE(describe(c));
            std::string why;
            try {
                (void)make_backend_stream(c);
            } catch (const InputError& e) {
                why = e.what();
            }
            EXPECT_NE(why.find("has no kernel for 'r250"), std::string::npos) << why;
            EXPECT_NE(why.find("runs on cpu and openmp"), std::string::npos) << why;
            EXPECT_EQ(why.find('\n'), std::string::npos) << why;
            // The backend's device template refuses it too, below the registry's check.
            why.clear();
            try {
                (void)make_device<R250Kernels>(c.backend, r250_setup(c), -1);
            } catch (const InputError& e) {
                why = e.what();
            }
            EXPECT_NE(why.find("has no kernel for 'r250"), std::string::npos) << why;
            EXPECT_EQ(why.find('\n'), std::string::npos) << why;
        }
        return;
    }
    for (const Configuration& base : configs) {
        const Configuration c = on_backend(base);
        SCOPED_TRACE(describe(c));
        EXPECT_TRUE(same_words(reference(c, 300007), generate(c, 300007, 65537)));
        BackendOptions options;
        options.launch_numbers = 4097;
        auto stream = make_backend_stream(c, options);
        auto ref = make_stream(c);
        for (std::uint64_t skip : { 0ull, 5ull, 200003ull, 4097ull, 1ull }) {
            SCOPED_TRACE("discard " + std::to_string(skip));
            stream->discard(skip);
            ref->discard(skip);
            std::vector<std::uint64_t> got(1001), want(1001);
            stream->fill(got.data(), got.size());
            ref->fill(want.data(), want.size());
            EXPECT_TRUE(same_words(want, got));
        }
        // Kernel level: launches from combined index 0, so without the skip.
        Configuration from_start = base;
        from_start.skip = 0;
        expect_every_slot_once(from_start);
    }
}

// The registry's rows (runs_on) and the kernel families (kernels/families.hpp) agree: a row runs
// on openmp exactly when its family has kernels, and on opencl and cuda exactly when they are
// grids.
TEST(KernelFamilies, RegistryRowsMatchTheKernelFamilies)
{
    for (const GeneratorTraits& row : generator_registry()) {
        SCOPED_TRACE(row.name);
        bool grids = false;
        const bool kernels = visit_kernel_family(
            row.family, [&](auto family) { grids = decltype(family)::form == KernelForm::grids; });
        EXPECT_EQ(runs_on(row, rngvet::Backend::openmp), kernels);
        EXPECT_EQ(runs_on(row, rngvet::Backend::opencl), kernels && grids);
        EXPECT_EQ(runs_on(row, rngvet::Backend::cuda), kernels && grids);
    }
}

TEST(Backends, ExternalStreamsStayOnTheCpu)
{
    const std::vector<rngvet::Backend> available = available_backends();
    if (available.size() < 2) GTEST_SKIP() << "no backend other than cpu here";
    Configuration c;
    c.generator = "stdin32";
    c.backend = available[1];
    EXPECT_THROW(make_backend_stream(c), InputError);
}

} // namespace
} // namespace rngvet
