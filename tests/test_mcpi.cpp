// The application battery mcpi: the hit decision at the circle, the statistics against values
// computed here independently, the stream it reads, known answers through the binary on a
// file the test writes, a sound generator against a biased stream, sharded against serial,
// resume after a kill, a campaign and the report beside SmallCrush.
#include "batteries/bits_read.hpp"
#include "batteries/catalogue.hpp"
#include "batteries/mcpi.hpp"
#include "generators/error.hpp"
#include "reports/store.hpp"
#include "tests/support.hpp"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include <testu01/fbar.h>
}

namespace {

using rngvet_test::fresh;
using rngvet_test::run_rngvet;

constexpr double pi = 3.14159265358979323846;

// --- Independent reference computations -------------------------------------------------

// Whether 32-bit words w_k, as u_k = w_k 2^-32, make a point with sum u_k^2 < 1: in 64-bit
// integers, sum w_k^2 <= 2^64 - 1 (each w_k^2 < 2^64 fits).
bool inside32(const std::uint32_t* w, int d)
{
    std::uint64_t sum = 0;
    for (int k = 0; k < d; ++k) {
        const std::uint64_t sq = std::uint64_t(w[k]) * w[k];
        if (sq > ~std::uint64_t(0) - sum) return false;
        sum += sq;
    }
    return true;
}

// Hits per replication of `points` points of `d` consecutive words, starting at words[from].
std::vector<std::uint64_t> recount(const std::vector<std::uint32_t>& words, std::size_t from,
    std::uint64_t points, int reps, int d)
{
    std::vector<std::uint64_t> hits;
    std::size_t at = from;
    for (int r = 0; r < reps; ++r) {
        std::uint64_t h = 0;
        for (std::uint64_t i = 0; i < points; ++i, at += d)
            h += inside32(&words[at], d);
        hits.push_back(h);
    }
    return hits;
}

double normal_cdf(double z)
{
    return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

struct Expected {
    std::vector<double> pvalues; // in the battery's order
    double chi2 = 0, ad = 0;
};

// The statistics of docs/batteries.md, written out again. The chi-square tail for an even
// number of degrees R has the closed form exp(-x/2) sum_{k < R/2} (x/2)^k / k!.
Expected expected(const std::vector<std::uint64_t>& hits, std::uint64_t points, int d)
{
    const double p = d == 2 ? pi / 4 : pi / 6;
    const double n = static_cast<double>(points), reps = static_cast<double>(hits.size());
    Expected e;
    std::vector<double> z;
    double total = 0;
    for (std::uint64_t h : hits) {
        z.push_back((static_cast<double>(h) - n * p) / std::sqrt(n * p * (1 - p)));
        total += static_cast<double>(h);
        e.chi2 += z.back() * z.back();
    }
    const double z_total = (total - reps * n * p) / std::sqrt(reps * n * p * (1 - p));
    e.pvalues.push_back(std::erfc(std::fabs(z_total) / std::sqrt(2.0)));
    if (hits.size() % 2 == 0) {
        double term = 1, sum = 0;
        for (std::size_t k = 0; k < hits.size() / 2; ++k) {
            sum += term;
            term *= e.chi2 / 2 / static_cast<double>(k + 1);
        }
        e.pvalues.push_back(std::exp(-e.chi2 / 2) * sum);
    } else {
        e.pvalues.push_back(fbar_ChiSquare2(static_cast<long>(hits.size()), 12, e.chi2));
    }
    // U_i = Phi(z_i) sorted; 1 - U = Phi(-z), so that no tail loses its digits.
    std::vector<double> sorted = z;
    std::sort(sorted.begin(), sorted.end());
    double a = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i)
        a += (2.0 * static_cast<double>(i) + 1)
            * (std::log(normal_cdf(sorted[i]))
                + std::log(normal_cdf(-sorted[sorted.size() - 1 - i])));
    e.ad = -reps - a / reps;
    e.pvalues.push_back(fbar_AndersonDarling(static_cast<long>(hits.size()), e.ad));
    for (double zi : z)
        e.pvalues.push_back(std::erfc(std::fabs(zi) / std::sqrt(2.0)));
    return e;
}

// Words of a fixed little generator (64-bit LCG, top 32 bits), independent of rngvet's.
std::vector<std::uint32_t> lcg_words(std::size_t n, std::uint64_t seed)
{
    std::vector<std::uint32_t> w;
    std::uint64_t s = seed;
    for (std::size_t i = 0; i < n; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        w.push_back(static_cast<std::uint32_t>(s >> 32));
    }
    return w;
}

std::string write_words(const std::string& name, const std::vector<std::uint32_t>& words)
{
    const std::string path = fresh(name);
    std::ofstream out(path, std::ios::binary);
    for (std::uint32_t w : words) {
        const unsigned char b[4]
            = { static_cast<unsigned char>(w), static_cast<unsigned char>(w >> 8),
                  static_cast<unsigned char>(w >> 16), static_cast<unsigned char>(w >> 24) };
        out.write(reinterpret_cast<const char*>(b), 4);
    }
    return path;
}

std::map<int, rngvet::StatisticRecord> stats_of(const std::string& db, std::int64_t run)
{
    std::map<int, rngvet::StatisticRecord> out;
    for (const auto& s : rngvet::Store(db).statistics(run))
        EXPECT_TRUE(out.emplace(s.stat_index, s).second)
            << "statistic " << s.stat_index << " twice";
    return out;
}

// --- The hit decision and the statistics ------------------------------------------------

TEST(Mcpi, InsideIsDecidedExactlyNextToTheCircle)
{
    // 0xB504F333 2^-32 = 0.70710678...: just below 1/sqrt 2; 0xB504F334 just above.
    const std::uint64_t below = 0xB504F333ull << 32, above = 0xB504F334ull << 32;
    const std::uint64_t a[2] = { below, below }, b[2] = { above, below }, c[2] = { above, above };
    EXPECT_TRUE(rngvet::mcpi_inside(a, 2)); // 2 x 3037000499^2 = 2^64 - 11857053614
    EXPECT_TRUE(rngvet::mcpi_inside(b, 2)); // 3037000500^2 + 3037000499^2 = 2^64 - 5783052615
    EXPECT_FALSE(rngvet::mcpi_inside(c, 2)); // 2 x 3037000500^2 = 2^64 + 290948384
    // 53-bit coordinates (the transforming views) within 2^-106 of the circle: exactly
    // inside, but u*u + v*v in doubles rounds to 1 or more.
    const std::uint64_t u53 = 0xe409cb2221a58ull, v53 = 0x1ca69bfc066934ull;
    const std::uint64_t close[2] = { u53 << 11, v53 << 11 };
    EXPECT_TRUE(rngvet::mcpi_inside(close, 2));
    volatile double uu = u53 * 0x1p-53 * (u53 * 0x1p-53), vv = v53 * 0x1p-53 * (v53 * 0x1p-53);
    EXPECT_FALSE(uu + vv < 1.0); // what the naive double test would decide
    // 3-d: 1/2, 1/2, 1/sqrt 2 rounded down (inside) and up (outside).
    const std::uint64_t half = 1ull << 63;
    const std::uint64_t d3a[3] = { half, half, below }, d3b[3] = { half, half, above };
    EXPECT_TRUE(rngvet::mcpi_inside(d3a, 3));
    EXPECT_FALSE(rngvet::mcpi_inside(d3b, 3));
    const std::uint64_t zero[3] = { 0, 0, 0 }, top[3] = { ~0ull, 0, 0 }, big[2] = { ~0ull, ~0ull };
    EXPECT_TRUE(rngvet::mcpi_inside(zero, 3));
    EXPECT_TRUE(rngvet::mcpi_inside(top, 3)); // (1 - 2^-64)^2 < 1
    EXPECT_FALSE(rngvet::mcpi_inside(big, 2)); // the sum of squares overflows 2^128
}

TEST(Mcpi, StatisticsEqualTheLawsComputedIndependently)
{
    for (int d : { 2, 3 })
        for (const std::vector<std::uint64_t>& hits :
            { std::vector<std::uint64_t>{ 80, 75, 82, 78 }, std::vector<std::uint64_t>{ 61 },
                std::vector<std::uint64_t>{ 40, 52, 55, 49, 60, 47 } }) {
            const auto s = rngvet::mcpi_statistics(hits, 100, d);
            const Expected e = expected(hits, 100, d);
            const auto got = s.pvalues();
            ASSERT_EQ(got.size(), hits.size() + 3);
            for (std::size_t k = 0; k < got.size(); ++k)
                EXPECT_NEAR(got[k], e.pvalues[k], 1e-12 * std::max(1.0, e.pvalues[k]))
                    << "d = " << d << ", statistic " << k + 1;
            EXPECT_NEAR(s.chi2, e.chi2, 1e-12 * e.chi2);
            EXPECT_NEAR(s.ad, e.ad, 1e-12 * std::fabs(e.ad));
        }
    // A hand-checkable case: h = 79 of 100 2-d points, z = (79 - 78.5398...) / 4.10546...
    const auto one = rngvet::mcpi_statistics({ 79 }, 100, 2);
    EXPECT_NEAR(one.z[0], 0.112091, 1e-6);
    EXPECT_NEAR(one.p_total, 0.910752, 1e-6);
    EXPECT_NEAR(one.p_chi2, 0.910752, 1e-6); // chi-square(1) of z^2 is the two-sided normal
    // The Anderson-Darling law at its tabulated 5% point (Stephens 1974: 2.492 for large n).
    EXPECT_NEAR(fbar_AndersonDarling(100, 2.492), 0.05, 0.002);
}

TEST(Mcpi, AnExtremeReplicationGivesFiniteStatisticsAndTinyPvalues)
{
    // Every point inside: z about 52 per replication.
    const auto s = rngvet::mcpi_statistics({ 10000, 10000, 10000 }, 10000, 2);
    for (double p : s.pvalues())
        EXPECT_LT(p, 1e-10);
    EXPECT_TRUE(std::isfinite(s.ad));
    EXPECT_TRUE(std::isfinite(s.chi2));
}

// A generator record that serves given 32-bit words and counts the calls.
struct WordGen {
    std::vector<std::uint32_t> words;
    std::size_t next = 0;
    static double u01(void*, void* state)
    {
        auto* g = static_cast<WordGen*>(state);
        return g->words.at(g->next++) * 0x1p-32;
    }
    static unsigned long bits(void*, void* state)
    {
        auto* g = static_cast<WordGen*>(state);
        return g->words.at(g->next++);
    }
    static void write(void*) { }
};

TEST(Mcpi, CountReadsConsecutiveCoordinatesReplicationByReplication)
{
    WordGen words{ lcg_words(2 * 50 * 3 + 3 * 50 * 3, 7) };
    char name[] = "words";
    unif01_Gen gen{ &words, nullptr, name, &WordGen::u01, &WordGen::bits, &WordGen::write };
    const auto two = rngvet::mcpi_count(&gen, 50, 3, 2);
    EXPECT_EQ(words.next, 300u);
    const auto three = rngvet::mcpi_count(&gen, 50, 3, 3);
    EXPECT_EQ(words.next, 750u);
    EXPECT_EQ(two, recount(words.words, 0, 50, 3, 2));
    EXPECT_EQ(three, recount(words.words, 300, 50, 3, 3));
}

TEST(Mcpi, CatalogueNamesParametersAndRefusesBadOnes)
{
    const auto& c = rngvet::catalogue_for("mcpi(points=2^20,reps=4)");
    EXPECT_EQ(c.name, "mcpi(points=1048576,reps=4)");
    EXPECT_EQ(c.tests.size(), 2u);
    EXPECT_EQ(c.total_statistics(), 14);
    EXPECT_EQ(rngvet::catalogue_for("mcpi").name, "mcpi(points=4000000,reps=10)");
    EXPECT_EQ(rngvet::catalogue_for("mcpi(reps=3)").name, "mcpi(points=4000000,reps=3)");
    EXPECT_EQ(rngvet::catalogue_for("mcpi(points=10^6)").points, 1000000u);
    EXPECT_EQ(rngvet::battery_title(c.name), "mcpi (points = 1048576, reps = 4)");
    for (const char* bad : { "mcpi(points=99)", "mcpi(reps=0)", "mcpi(reps=101)", "mcpi(n=5)",
             "mcpi(points=2^40)", "mcpi(points=1e6)", "mcpi(", "mcpi(points=100,points=100)" })
        EXPECT_THROW(rngvet::catalogue_for(bad), rngvet::InputError) << bad;
    const auto b = rngvet::bits_read(c.name, 2);
    EXPECT_TRUE(b.all_bits);
    EXPECT_FALSE(b.resolution_matters);
    EXPECT_TRUE(rngvet::bits_read("smallcrush", 6).resolution_matters);
    EXPECT_EQ(rngvet::mcpi_statistic_names(2, 2),
        (std::vector<std::string>{ "MCPi 3-d, all points", "MCPi 3-d, ChiSq of z",
            "MCPi 3-d, AD of Phi(z)", "MCPi 3-d, rep 1", "MCPi 3-d, rep 2" }));
}

// --- Through the binary -----------------------------------------------------------------

TEST(McpiCli, KnownAnswerOnAFileStreamTheTestWrote)
{
    const std::uint64_t n = 100;
    const int reps = 2;
    const auto words = lcg_words(5 * n * reps + 17, 2026); // 17 words left over
    const std::string file = write_words("mcpi_known.bin", words);
    const std::string db = fresh("mcpi_known.sqlite");
    const auto r = run_rngvet("run --generator file:" + file
        + " --battery mcpi --mcpi-points 100 --mcpi-reps 2 --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;

    rngvet::Store store(db);
    EXPECT_EQ(store.run(1)->battery, "mcpi(points=100,reps=2)");
    EXPECT_EQ(store.run(1)->testu01_version, "rngvet mcpi 1");
    const auto tests = store.tests(1);
    ASSERT_EQ(tests.size(), 2u);
    EXPECT_EQ(tests[0].start_offset, 0u);
    EXPECT_EQ(tests[0].numbers_used, 2 * n * reps);
    EXPECT_EQ(tests[1].start_offset, 2 * n * reps);
    EXPECT_EQ(tests[1].numbers_used, 3 * n * reps);

    const auto stored = stats_of(db, 1);
    ASSERT_EQ(stored.size(), 10u);
    int index = 0;
    for (int test : { 1, 2 }) {
        const int d = test + 1;
        const auto hits = recount(words, test == 1 ? 0 : 2 * n * reps, n, reps, d);
        const Expected e = expected(hits, n, d);
        const auto names = rngvet::mcpi_statistic_names(test, reps);
        for (std::size_t k = 0; k < e.pvalues.size(); ++k) {
            const auto& s = stored.at(++index);
            EXPECT_EQ(s.test_number, test);
            EXPECT_EQ(s.test_name, names[k]);
            EXPECT_NEAR(s.pvalue, e.pvalues[k], 1e-12) << s.test_name;
        }
    }
}

TEST(McpiCli, SoundGeneratorIsNotExtremeAndABiasedStreamFails)
{
    const std::string db = fresh("mcpi_good.sqlite");
    for (int seed : { 1, 2, 3, 4 }) {
        const auto r = run_rngvet("run --generator mt19937 --seed " + std::to_string(seed)
            + " --battery mcpi --mcpi-points 10^5 --db " + db);
        ASSERT_EQ(r.status, 0) << r.err;
        const auto stored = stats_of(db, seed);
        EXPECT_EQ(stored.size(), 26u);
        for (const auto& [i, s] : stored) {
            EXPECT_GT(s.pvalue, 1e-4) << "seed " << seed << ": " << s.test_name;
            EXPECT_LT(s.pvalue, 1 - 1e-4) << "seed " << seed << ": " << s.test_name;
        }
    }

    // The same kind of numbers squeezed into [0, 0.99): points fall inside too often.
    std::mt19937 mt(12345);
    std::vector<std::uint32_t> words(5 * 100000 * 4);
    for (auto& w : words)
        w = static_cast<std::uint32_t>(static_cast<double>(mt()) * 0.99);
    const std::string file = write_words("mcpi_biased.bin", words);
    const std::string bad = fresh("mcpi_biased.sqlite");
    const auto r = run_rngvet("run --generator file:" + file
        + " --battery mcpi --mcpi-points 10^5 --mcpi-reps 4 --fail-on fail --db " + bad);
    EXPECT_EQ(r.status, 3) << r.err; // --fail-on fail: some p-value outside [1e-10, 1 - 1e-10]
    const auto stored = stats_of(bad, 1);
    ASSERT_EQ(stored.size(), 14u);
    for (int index : { 1, 2, 3, 8, 9, 10 }) // both tests: all points, ChiSq, AD
        EXPECT_LT(stored.at(index).pvalue, 1e-10) << stored.at(index).test_name;
}

TEST(McpiCli, ShardedEqualsSerialBitForBitInTheStore)
{
    const std::string db = fresh("mcpi_sharded.sqlite");
    const std::string config
        = "--generator mt19937 --seed 5 --battery mcpi --mcpi-points 20000 --mcpi-reps 3";
    ASSERT_EQ(run_rngvet("run " + config + " --mode sharded --jobs 2 --db " + db).status, 0);
    // Serially, test 1 at the start and test 2 at 2^40, where the sharded mode puts them.
    ASSERT_EQ(run_rngvet("run " + config + " --tests 1 --db " + db).status, 0);
    ASSERT_EQ(run_rngvet("run " + config + " --tests 2 --skip 1099511627776 --db " + db).status, 0);
    const auto sharded = stats_of(db, 1), first = stats_of(db, 2), second = stats_of(db, 3);
    ASSERT_EQ(sharded.size(), 12u);
    ASSERT_EQ(first.size() + second.size(), 12u);
    for (const auto& [index, s] : sharded) {
        const auto& serial = s.test_number == 1 ? first.at(index) : second.at(index);
        EXPECT_EQ(serial.test_name, s.test_name);
        EXPECT_EQ(serial.test_number, s.test_number);
        EXPECT_EQ(std::memcmp(&serial.pvalue, &s.pvalue, sizeof(double)), 0)
            << s.test_name << ": " << serial.pvalue << " serial, " << s.pvalue << " sharded";
    }
    rngvet::Store store(db);
    for (const auto& t : store.tests(1)) {
        EXPECT_EQ(t.start_offset, std::uint64_t(t.test_number - 1) << 40);
        EXPECT_EQ(t.numbers_used, std::uint64_t(t.test_number + 1) * 20000 * 3);
    }
    const auto status = run_rngvet("status --db " + db);
    ASSERT_EQ(status.status, 0) << status.err;
    EXPECT_NE(status.out.find("complete        2/2    mcpi(points=20000,reps=3) sharded"),
        std::string::npos)
        << status.out;
}

TEST(McpiCli, BackendsGiveTheSameStatisticsAndTheTransformingViewsRun)
{
    const std::string db = fresh("mcpi_backends.sqlite");
    const std::string config = "--generator ranmar48 --seed 1802,9373 --instances 4 --battery "
                               "mcpi --mcpi-points 20000 --mcpi-reps 3 --db "
        + db;
    ASSERT_EQ(run_rngvet("run " + config).status, 0);
    const bool openmp = run_rngvet("list").out.find("  openmp: host threads") != std::string::npos;
    if (openmp) {
        ASSERT_EQ(run_rngvet("run " + config + " --backend openmp").status, 0);
    }
    // 53-bit coordinates from the transforming views (sdk-float can deliver exactly 1).
    for (const char* view : { "sdk-float", "box-muller" }) {
        const auto r = run_rngvet("run " + config + " --view " + view);
        EXPECT_EQ(r.status, 0) << view << ": " << r.err;
    }
    const auto cpu = stats_of(db, 1);
    ASSERT_EQ(cpu.size(), 12u);
    if (openmp) {
        const auto omp = stats_of(db, 2);
        for (const auto& [index, s] : cpu)
            EXPECT_EQ(omp.at(index).pvalue, s.pvalue) << s.test_name;
    }
    EXPECT_EQ(stats_of(db, openmp ? 4 : 3).size(), 12u);
}

TEST(McpiCli, ARunKilledAfterItsFirstTestResumesToTheSameStatistics)
{
    const std::string config
        = "--generator mt19937 --seed 9 --battery mcpi --mcpi-points 2000000 --mcpi-reps 10";
    const std::string reference = fresh("mcpi_reference.sqlite");
    ASSERT_EQ(run_rngvet("run " + config + " --db " + reference).status, 0);

    const std::string db = fresh("mcpi_killed.sqlite");
    const pid_t pid = rngvet_test::start_rngvet("run " + config + " --db " + db);
    ASSERT_GT(pid, 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    std::size_t stored = 0;
    while (stored < 1 && std::chrono::steady_clock::now() < deadline) {
        try {
            rngvet::Store store(db);
            if (!store.runs().empty()) stored = store.tests(1).size();
        } catch (const std::exception&) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill(-pid, SIGKILL);
    for (int i = 0; i < 100 && kill(pid, 0) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    {
        rngvet::Store store(db);
        ASSERT_EQ(store.tests(1).size(), 1u) << "not killed between its two tests";
        EXPECT_EQ(store.run(1)->status, rngvet::RunStatus::running);
    }
    // The battery's parameters are the run's: resume refuses to change them, storing nothing.
    for (const char* change : { " --mcpi-points 1000", " --mcpi-reps 3", " --battery mcpi" }) {
        const auto r = run_rngvet("run --resume 1 --db " + db + change);
        EXPECT_EQ(r.status, 2) << change;
        EXPECT_EQ(rngvet_test::count_lines(r.err), 1) << r.err;
        EXPECT_EQ(rngvet::Store(db).statistics(1).size(), 13u);
    }
    const auto r = run_rngvet("run --resume 1 --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(rngvet::Store(db).run(1)->status, rngvet::RunStatus::complete);
    const auto resumed = stats_of(db, 1), whole = stats_of(reference, 1);
    ASSERT_EQ(resumed.size(), 26u);
    for (const auto& [index, s] : whole)
        EXPECT_EQ(resumed.at(index).pvalue, s.pvalue) << s.test_name;
    const auto tests = rngvet::Store(db).tests(1);
    ASSERT_EQ(tests.size(), 2u);
    EXPECT_EQ(tests[1].start_offset, 2u * 2000000 * 10); // the one stream, continued
}

TEST(McpiCli, CampaignWithMcpiMergesAndTheReportShowsIt)
{
    const std::string ini = fresh("mcpi_campaign.ini");
    std::ofstream(ini) << "[campaign]\nname = mcpi-check\nbattery = mcpi(points=10^4,reps=3)\n"
                          "shards = 2\nseeds = 1 2\n[configuration mt]\ngenerator = mt19937\n";
    const std::string dir = fresh("mcpi_campaign_dir");
    std::system(("rm -rf " + dir).c_str());
    auto r = run_rngvet("campaign run " + ini + " --jobs 2 --out " + dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string db = dir + "/campaign.sqlite";
    rngvet::Store store(db);
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs) {
        EXPECT_EQ(run.battery, "mcpi(points=10000,reps=3)");
        EXPECT_EQ(run.status, rngvet::RunStatus::complete);
        EXPECT_EQ(store.statistics(run.run_id).size(), 12u);
    }
    // The campaign's tasks read the sharded mode's segments: as one sharded run of seed 2.
    const std::string whole = fresh("mcpi_campaign_whole.sqlite");
    ASSERT_EQ(run_rngvet("run --generator mt19937 --seed 2 --battery mcpi --mcpi-points 10^4 "
                         "--mcpi-reps 3 --jobs 2 --db "
                  + whole)
                  .status,
        0);
    const auto reference = stats_of(whole, 1);
    for (const auto& run : runs) {
        if (run.seed != "2") continue;
        const auto merged = stats_of(db, run.run_id);
        ASSERT_EQ(merged.size(), reference.size());
        for (const auto& [index, s] : reference)
            EXPECT_EQ(merged.at(index).pvalue, s.pvalue) << s.test_name;
    }
    // The per-run sections (provenance, every p-value) are in a campaign report with --runs.
    r = run_rngvet("report --runs --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("| mcpi (points = 10000, reps = 3) | 2 (1; 2) |"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("### mcpi beside SmallCrush"), std::string::npos);
    EXPECT_NE(r.out.find("MCPi 2-d, all points"), std::string::npos);
}

TEST(McpiCli, ReportShowsMcpiBesideSmallCrushForTheSameConfiguration)
{
    const std::string db = fresh("mcpi_beside.sqlite");
    for (const char* seed : { "1", "2" }) {
        ASSERT_EQ(run_rngvet(std::string("run --generator mt19937 --seed ") + seed
                      + " --battery smallcrush --tests 3,7 --db " + db)
                      .status,
            0);
        ASSERT_EQ(run_rngvet(std::string("run --generator mt19937 --seed ") + seed
                      + " --battery mcpi --mcpi-points 10^4 --mcpi-reps 3 --db " + db)
                      .status,
            0);
    }
    ASSERT_EQ(run_rngvet("run --generator ranmar24 --seed 1802,9373 --battery mcpi "
                         "--mcpi-points 10^4 --mcpi-reps 3 --db "
                  + db)
                  .status,
        0);
    const auto r = run_rngvet("report --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto section = r.out.find("### mcpi beside SmallCrush");
    ASSERT_NE(section, std::string::npos) << r.out;
    const std::string rest = r.out.substr(section);
    const auto line_of = [&](const std::string& start) {
        const auto at = rest.find(start);
        return at == std::string::npos ? std::string() : rest.substr(at, rest.find('\n', at) - at);
    };
    // SmallCrush first (C1), mcpi next (C2): one row, both verdicts.
    const std::string mt = line_of("| `mt19937/1/single/increment/*` |");
    EXPECT_NE(mt.find("| C1 **sound**, 2 seeds, 0/4 p-values suspect |"), std::string::npos) << mt;
    EXPECT_NE(
        mt.find("| C2 **sound**, 2 seeds, 0/24 p-values suspect (points = 10000, reps = 3) |"),
        std::string::npos)
        << mt;
    // A 24-bit generator: SmallCrush not run, and mcpi's statistics count (no resolution excuse).
    const std::string ranmar = line_of("| `ranmar24/1/single/increment/*` |");
    EXPECT_NE(
        ranmar.find("| not run | C3 **sound**, 1 seed, 0/12 p-values suspect"), std::string::npos)
        << ranmar;
}

TEST(McpiCli, AReportOfSingleSeedsStillShowsMcpiBesideSmallCrush)
{
    const std::string db = fresh("mcpi_single.sqlite");
    ASSERT_EQ(
        run_rngvet("run --generator mt19937 --seed 1 --battery smallcrush --tests 3 --db " + db)
            .status,
        0);
    ASSERT_EQ(run_rngvet("run --generator mt19937 --seed 1 --battery mcpi --mcpi-points 10^4 "
                         "--mcpi-reps 3 --db "
                  + db)
                  .status,
        0);
    const auto r = run_rngvet("report --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("## Comparison across seeds"), std::string::npos); // one seed each
    const auto section = r.out.find("## mcpi beside SmallCrush");
    ASSERT_NE(section, std::string::npos) << r.out;
    EXPECT_LT(section, r.out.find("## Run 1:"));
    EXPECT_NE(r.out.find("| `mt19937/1/single/increment/*` | **sound**, 1 seed, 0/1 p-values "
                         "suspect | **sound**, 1 seed, 0/12 p-values suspect (points = 10000, "
                         "reps = 3) |"),
        std::string::npos)
        << r.out;
}

TEST(McpiCli, ExampleCampaignPlans)
{
    const auto r = run_rngvet(
        "campaign plan " + std::string(RNGVET_SOURCE_DIR) + "/examples/campaign-mcpi.ini");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE((r.out + r.err).find("mcpi(points="), std::string::npos) << r.out << r.err;
}

} // namespace
