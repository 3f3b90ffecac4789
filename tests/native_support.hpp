// What the native engine's exactness tests share (tests/test_native_*.cpp): the harness's five
// generators, feeds that serve TestU01's function and the native one the same stream from its
// start, and comparison of doubles as bits; for the device parts' tests, a family run twice on
// the same words (host and "device"), comparison of TestU01's results as bits, and case names.
//
// The contract each test checks: on the same stream, TestU01's own function and the native one
// give equal statistics and equal p-values (compared as bit patterns) and consume equally many
// numbers.
#pragma once

#include "batteries/native/native.hpp"
#include "batteries/native/source.hpp"
#include "batteries/testu01_gen.hpp"
#include "generators/configuration.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#if defined(_OPENMP)
#include <omp.h>
#endif
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

extern "C" {
#include <testu01/sres.h>
#include <testu01/swrite.h>
#include <testu01/unif01.h>
}

namespace rngvet_test {

// A linear congruential generator that fails: x -> 65539 x mod 2^32 from x = 1 (RANDU's
// multiplier, here modulo 2^32), 32-bit words. A test-only stream: its p-values reach 0 and 1,
// where the distribution functions take their extreme branches.
class FailingLcg : public rngvet::Stream {
public:
    int bits() const override { return 32; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        for (std::size_t i = 0; i < n; ++i) {
            x_ = 65539u * x_;
            out[i] = x_;
        }
    }
    std::string name() const override { return "lcg65539"; }

private:
    std::uint32_t x_ = 1;
};

// The harness's generators: one of each resolution and family, and the failing LCG.
inline const std::vector<std::string>& harness_generators()
{
    static const std::vector<std::string> g = { "ranmar24", "ranmar48", "mt19937", "mtdc", "lcg" };
    return g;
}

// A fresh stream of a harness generator, at its start.
inline std::unique_ptr<rngvet::Stream> harness_stream(const std::string& generator)
{
    if (generator == "lcg") return std::make_unique<FailingLcg>();
    rngvet::ConfigurationText t;
    t.generator = generator;
    if (generator == "ranmar24" || generator == "ranmar48")
        t.seed = "1802,9373";
    else if (generator == "mt19937")
        t.seed = "19650218";
    else if (generator == "mtdc") {
        t.params = "fixstars-mt521";
        t.param_id = 3;
        t.seed = "4357";
    }
    return rngvet::make_stream(rngvet::resolve_configuration(t));
}

// One generator's stream with a feed on it: TestU01's functions read it through gen(), native
// tests through numbers(); consumed() counts both.
class HarnessFeed {
public:
    explicit HarnessFeed(const std::string& generator)
        : stream_(harness_stream(generator))
        , feed_(std::make_unique<rngvet::TestU01Generator>(*stream_, generator))
    {
        swrite_Basic = FALSE; // TestU01's report is not needed
    }
    unif01_Gen* gen() { return feed_->get(); }
    rngvet::TestU01Generator& feed() { return *feed_; }
    std::uint64_t consumed() const { return feed_->consumed(); }

private:
    std::unique_ptr<rngvet::Stream> stream_;
    std::unique_ptr<rngvet::TestU01Generator> feed_;
};

// Words on a grid: the top `top` bits of a 64-bit LCG (x -> 6364136223846793005 x +
// 1442695040888963407, from 12345), the rest zero, as `bits`-bit words: StripD's values hit
// multiples of 2^-top exactly, so samples hold ties, equal values and the ends of intervals.
class GridStream : public rngvet::Stream {
public:
    explicit GridStream(int bits, int top = 6)
        : bits_(bits)
        , top_(top)
    {
    }
    int bits() const override { return bits_; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        for (std::size_t i = 0; i < n; ++i) {
            x_ = x_ * 6364136223846793005ull + 1442695040888963407ull;
            out[i] = (x_ >> (64 - top_)) << (bits_ - top_);
        }
    }
    std::string name() const override
    {
        return "grid" + std::to_string(top_) + "of" + std::to_string(bits_);
    }

private:
    int bits_, top_;
    std::uint64_t x_ = 12345;
};

// 60-bit words (a 64-bit LCG's top 60 bits, from 987654321): wider than a double's 53, where
// StripD's steps round and the native tests take StripD's own operations.
class WideStream : public rngvet::Stream {
public:
    int bits() const override { return 60; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        for (std::size_t i = 0; i < n; ++i) {
            x_ = x_ * 6364136223846793005ull + 1442695040888963407ull;
            out[i] = x_ >> 4;
        }
    }
    std::string name() const override { return "wide60"; }

private:
    std::uint64_t x_ = 987654321;
};

// A text as a GoogleTest parameter name: every character but letters and digits becomes '_'.
inline std::string clean(std::string s)
{
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

// The row of `rows` (a family's registered rows) for a battery's test, or nullptr.
inline const rngvet::native::NativeTest* find_row(
    const std::vector<rngvet::native::NativeTest>& rows, const std::string& battery, int number)
{
    for (const rngvet::native::NativeTest& t : rows)
        if (battery == t.battery && number == t.number) return &t;
    return nullptr;
}

// RNGVET_NATIVE_FULL=1: the battery forms at their full n (minutes each in TestU01), as on the
// GPU machine; otherwise at the smaller n CI time allows.
inline bool native_full_size()
{
    const char* v = std::getenv("RNGVET_NATIVE_FULL");
    return v != nullptr && std::string(v) == "1";
}

inline std::uint64_t bits_of(double x)
{
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

// Equal as bit patterns (so 0.0 and -0.0 differ, and two NaNs of one pattern are equal).
inline testing::AssertionResult same_bits(double testu01, double native)
{
    if (bits_of(testu01) == bits_of(native)) return testing::AssertionSuccess();
    std::ostringstream o;
    o.precision(17);
    o << "TestU01 " << testu01 << " (" << std::hexfloat << testu01 << ") != native "
      << std::defaultfloat << native << " (" << std::hexfloat << native << ")";
    return testing::AssertionFailure() << o.str();
}

// TestU01's statistics and the native ones: the same names, in the same order, and p-values
// equal as bits.
inline void expect_same_statistics(const std::vector<rngvet::native::NativeStatistic>& tu,
    const std::vector<rngvet::native::NativeStatistic>& nat)
{
    ASSERT_EQ(tu.size(), nat.size());
    for (std::size_t i = 0; i < tu.size(); ++i) {
        EXPECT_EQ(tu[i].name, nat[i].name);
        EXPECT_TRUE(same_bits(tu[i].pvalue, nat[i].pvalue)) << tu[i].name;
    }
}

// A source whose fill_device writes host memory, which is the "device" memory of Thrust's OpenMP
// system (the device tests build the device algorithms for it): the words are read from `feed`,
// copied there, and consumed. After `fills` fills (-1: no limit) it answers false, as a stream
// that stopped writing device memory would. `filled` counts the fills that wrote words. Words
// given back return to the feed (`given_back` counts the give-backs).
class HostSystemSource : public rngvet::native::WordSource {
public:
    explicit HostSystemSource(rngvet::native::WordSource& feed, long fills = -1)
        : feed_(feed)
        , fills_(fills)
    {
    }
    int bits() const override { return feed_.bits(); }
    rngvet::Stream::View peek(std::size_t n) override { return feed_.peek(n); }
    void advance(std::size_t k) override { feed_.advance(k); }
    bool fill_device(void* out, std::size_t n) override
    {
        if (fills_ == 0) return false;
        if (n == 0) return true;
        if (fills_ > 0) --fills_;
        ++filled;
        auto* o = static_cast<std::uint64_t*>(out);
        while (n > 0) {
            const rngvet::Stream::View v = feed_.peek(n);
            std::memcpy(o, v.data, v.size * sizeof *o);
            feed_.advance(v.size);
            o += v.size;
            n -= v.size;
        }
        return true;
    }
    // Words given back go back to the feed, which serves them next (TestU01Generator).
    bool give_back(const std::uint64_t* words, std::size_t n) override
    {
        if (!giving_back) return false;
        if (n > 0) ++given_back;
        return feed_.give_back(words, n);
    }
    long filled = 0;
    bool giving_back = true; // false: a source that cannot take words back
    long given_back = 0; // the give-backs of words

private:
    rngvet::native::WordSource& feed_;
    long fills_;
};

// The streams the device parts' tests run each case on: the harness generators, "grid" (a grid
// of few values: ties and the intervals' ends) and "wide60" (60-bit words: StripD's steps round).
inline const std::vector<std::string>& device_case_streams()
{
    static const std::vector<std::string> s = [] {
        std::vector<std::string> v = harness_generators();
        v.push_back("grid");
        v.push_back("wide60");
        return v;
    }();
    return s;
}

inline std::unique_ptr<rngvet::Stream> device_case_stream(const std::string& name)
{
    if (name == "grid") return std::make_unique<GridStream>(32, 5);
    if (name == "wide60") return std::make_unique<WideStream>();
    return harness_stream(name);
}

// device_case_streams() and one stream more, a test file's own.
inline std::vector<std::string> device_case_streams_and(const std::string& extra)
{
    std::vector<std::string> v = device_case_streams();
    v.push_back(extra);
    return v;
}

using StreamMaker = std::unique_ptr<rngvet::Stream> (*)(const std::string&);

// A family run twice on the same stream's words: on the host (its CPU path), then on a source
// that writes "device" memory (HostSystemSource). both(run) calls run(in, 0), then run(in, 1);
// the device path must have been taken, and both runs must have read as many numbers. The
// streams are made by `make` (device_case_stream unless a test file has streams of its own).
struct TwoRuns {
    explicit TwoRuns(const std::string& name, StreamMaker make = device_case_stream)
        : TwoRuns(name, make(name), make(name))
    {
    }
    TwoRuns(const std::string& name, std::unique_ptr<rngvet::Stream> host_words,
        std::unique_ptr<rngvet::Stream> device_words)
        : host_stream(std::move(host_words))
        , device_stream(std::move(device_words))
        , host(*host_stream, name)
        , device(*device_stream, name)
        , source(device)
    {
    }
    template <class Run> void both(const Run& run)
    {
        {
            rngvet::native::Numbers in(host);
            run(in, 0);
        }
        {
            rngvet::native::Numbers in(source);
            run(in, 1);
        }
        EXPECT_GT(source.filled, 0);
        EXPECT_EQ(host.consumed(), device.consumed());
    }
    std::unique_ptr<rngvet::Stream> host_stream, device_stream;
    rngvet::TestU01Generator host, device;
    HostSystemSource source;
};

// The doubles a[0..n) and b[0..n), equal as bits; `what` names them in a failure.
inline void expect_same(const double* a, const double* b, long n, const char* what)
{
    for (long i = 0; i < n; ++i)
        EXPECT_TRUE(same_bits(a[i], b[i])) << what << "[" << i << "]";
}

inline void expect_same(
    const std::vector<double>& a, const std::vector<double>& b, const char* what)
{
    ASSERT_EQ(a.size(), b.size()) << what;
    expect_same(a.data(), b.data(), static_cast<long>(a.size()), what);
}

// Two TestU01 results (sres_Basic, sres_Chi2: the fields they share): sVal2, pVal2 and the
// observations sVal1, as bits. `prefix` names the result in a failure ("" or "Bas ").
template <class Res>
void expect_same_values(const Res* a, const Res* b, const std::string& prefix = "")
{
    expect_same(a->sVal2, b->sVal2, gofw_NTestTypes, (prefix + "sVal2").c_str());
    expect_same(a->pVal2, b->pVal2, gofw_NTestTypes, (prefix + "pVal2").c_str());
    ASSERT_EQ(a->sVal1->NObs, b->sVal1->NObs);
    expect_same(a->sVal1->V + 1, b->sVal1->V + 1, a->sVal1->NObs, (prefix + "sVal1").c_str());
}

// Two chi-square results: their values (expect_same_values), degrees of freedom, and classes
// jmin..jmax with their counts.
inline void expect_same_chi2(const sres_Chi2* a, const sres_Chi2* b)
{
    expect_same_values(a, b);
    EXPECT_EQ(a->degFree, b->degFree);
    ASSERT_EQ(a->jmin, b->jmin);
    ASSERT_EQ(a->jmax, b->jmax);
    for (long j = a->jmin; j <= a->jmax; ++j)
        EXPECT_EQ(a->Count[j], b->Count[j]) << "Count[" << j << "]";
}

// A TestU01 result, owned: made by its Create function, freed by its Delete function.
template <class Res> using Owned = std::unique_ptr<Res, void (*)(Res*)>;

template <class Res> Owned<Res> owned(Res* (*create)(), void (*destroy)(Res*))
{
    return Owned<Res>(create(), destroy);
}

using Basic = Owned<sres_Basic>;
using Chi2 = Owned<sres_Chi2>;

inline Basic new_basic()
{
    return owned(sres_CreateBasic, sres_DeleteBasic);
}

inline Chi2 new_chi2()
{
    return owned(sres_CreateChi2, sres_DeleteChi2);
}

// A registered row's name as a case's: battery and number ("crush12").
inline std::string row_name(const char* battery, int number)
{
    return std::string(battery) + std::to_string(number);
}

// A device case's test name: the case's name, then the stream's (for Combine(cases, streams)).
struct CaseName {
    template <class Case>
    std::string operator()(const testing::TestParamInfo<std::tuple<Case, std::string>>& p) const
    {
        return std::get<0>(p.param).name + "_" + std::get<1>(p.param);
    }
};

#if defined(_OPENMP)
// The device tests' paths that launch many short passes run on one OpenMP thread for one scope,
// where a team's barriers would cost more than the passes on a loaded host (the families' own
// loops name their thread counts).
class OneThread {
public:
    OneThread() { omp_set_num_threads(1); }
    ~OneThread() { omp_set_num_threads(team_); }
    OneThread(const OneThread&) = delete;
    OneThread& operator=(const OneThread&) = delete;

private:
    int team_ = omp_get_max_threads();
};
#endif

} // namespace rngvet_test
