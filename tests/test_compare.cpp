// The comparison across seeds: configuration families, the bits each TestU01 test reads, the
// second-level tests against known values, the verdicts on a fixture database (a 24-bit
// generator failing only beyond its resolution, a systematic failure, a clean generator with
// chance suspect values), and the markdown and SVG it renders.
#include "batteries/bits_read.hpp"
#include "reports/compare.hpp"
#include "reports/report.hpp"
#include "reports/second_level.hpp"
#include "reports/store.hpp"
#include "reports/svg.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <stdexcept>

namespace rngvet {
namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a fixed, simple source of uniform fixture values.
struct SplitMix {
    std::uint64_t x;
    double uniform()
    {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        return (static_cast<double>(z >> 11) + 0.5) * 0x1.0p-53;
    }
};

// The 15 statistics of SmallCrush: (stat_index, test_number, name), as bbattery writes them.
struct Stat {
    int index, test;
    const char* name;
};
const Stat smallcrush_stats[] = {
    { 1, 1, "BirthdaySpacings" },
    { 2, 2, "Collision" },
    { 3, 3, "Gap" },
    { 4, 4, "SimpPoker" },
    { 5, 5, "CouponCollector" },
    { 6, 6, "MaxOft" },
    { 7, 6, "MaxOft AD" },
    { 8, 7, "WeightDistrib" },
    { 9, 8, "MatrixRank" },
    { 10, 9, "HammingIndep" },
    { 11, 10, "RandomWalk1 H" },
    { 12, 10, "RandomWalk1 M" },
    { 13, 10, "RandomWalk1 J" },
    { 14, 10, "RandomWalk1 R" },
    { 15, 10, "RandomWalk1 C" },
};
constexpr int n_seeds = 10;

RunRecord run_record(
    const std::string& generator, const std::string& family_head, const std::string& seed, int bits)
{
    RunRecord r = rngvet_test::run_record(generator, family_head + "/" + seed, seed, bits);
    r.finished_at = "2026-01-01T00:00:02Z";
    r.cpu_seconds = 2.0;
    return r;
}

// p-values that are exactly stratified over the seeds: (rank + 0.5) / n_seeds, the rank a
// permutation of the seeds that differs per statistic. Never suspect.
double stratified(int stat_index, int seed)
{
    const int rank = (seed * 3 + stat_index * 7) % n_seeds; // 3 is coprime to 10
    return (rank + 0.5) / n_seeds;
}

std::string seed_name(int i)
{
    return std::to_string(100 + i) + "," + std::to_string(200 + i);
}

struct Fixture {
    std::string path;
    int chance_suspect = 0; // suspect values drawn by the clean configuration
    long clean_pvalues = 0;
};

// A: ranmar24, fails only WeightDistrib (bits 28-30), SimpPoker (25-30) and Gap (23-30)
//    on every seed: expected (resolution).
// B: ranmar48 with MatrixRank at p = 1e-15 on every seed: systematic. One seed runs twice.
// C: ranmar48x, p-values from SplitMix64: clean, with some suspect values by chance.
// D: ranmar24 (same seeding), Collision (bits 1-16, within the resolution) fails on every
//    seed: defective despite the low resolution.
Fixture make_fixture(const std::string& name)
{
    Fixture f;
    f.path = rngvet_test::fresh(name);
    Store store(f.path);
    // 20260197 is the first SplitMix64 seed from 20260101 upward whose 150 draws hold at
    // least one suspect value (it gives two), so that the report has chance suspects to
    // explain; the tests assert that the fixture has them.
    SplitMix rng{ 20260197 };
    for (int i = 0; i < n_seeds; ++i) {
        const std::string seed = seed_name(i);
        std::vector<StatisticRecord> a, b, c, d;
        for (const Stat& s : smallcrush_stats) {
            const double u = stratified(s.index, i);
            a.push_back({ s.index, s.test, s.name,
                s.test == 7                        ? 1e-20
                    : (s.test == 3 || s.test == 4) ? 0.0
                                                   : u });
            b.push_back({ s.index, s.test, s.name, s.test == 8 ? 1e-15 : u });
            const double r = rng.uniform();
            f.chance_suspect += r < 0.001 || r > 0.999;
            ++f.clean_pvalues;
            c.push_back({ s.index, s.test, s.name, r });
            d.push_back({ s.index, s.test, s.name, s.test == 2 ? 1.0 - 1e-12 : u });
        }
        store.insert_run(run_record("ranmar24", "ranmar24/1/single/increment", seed, 24), a);
        store.insert_run(run_record("ranmar48", "ranmar48/1/single/increment", seed, 48), b);
        store.insert_run(run_record("ranmar48x", "ranmar48x/8/interleave/increment", seed, 48), c);
        store.insert_run(run_record("ranmar24", "ranmar24/4/interleave/same", seed, 24), d);
        if (i == 0)
            store.insert_run(run_record("ranmar48", "ranmar48/1/single/increment", seed, 48), b);
    }
    BenchRecord bench;
    bench.config = "ranmar48x/8/interleave/increment/1802,9373";
    bench.backend = "cuda";
    bench.device = "GPU";
    bench.placement = "device";
    bench.numbers_per_second = 2.5e9;
    bench.measured_at = "2026-01-01T00:00:00Z";
    bench.command_line = "rngvet bench";
    store.insert_bench(bench);
    return f;
}

const ConfigurationSummary& find(const Comparison& c, const std::string& family)
{
    for (const auto& s : c.configurations)
        if (s.family == family) return s;
    throw std::runtime_error("no configuration " + family);
}

const StatisticSummary& stat(const ConfigurationSummary& c, int index)
{
    for (const auto& s : c.stats)
        if (s.stat_index == index) return s;
    throw std::runtime_error("no statistic " + std::to_string(index));
}

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

// Cells of a markdown table row: pipes not escaped by a backslash separate them.
int columns(const std::string& line)
{
    int pipes = 0;
    for (std::size_t i = 0; i < line.size(); ++i)
        if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++pipes;
    return pipes - 1;
}

// Checks every table of a markdown document: a header, a separator of as many columns made
// of dashes and colons, and rows of the same width. Returns the number of tables.
int check_tables(const std::string& markdown)
{
    std::istringstream in(markdown);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    int tables = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].empty() || lines[i][0] != '|') continue;
        ++tables;
        const int width = columns(lines[i]);
        EXPECT_GE(width, 2) << lines[i];
        EXPECT_TRUE(i == 0 || lines[i - 1].empty())
            << "table not preceded by a blank line: " << lines[i];
        EXPECT_LT(i + 1, lines.size());
        const std::string& sep = lines[i + 1];
        EXPECT_EQ(columns(sep), width) << sep;
        EXPECT_EQ(sep.find_first_not_of("|-: "), std::string::npos) << sep;
        std::size_t j = i + 1;
        for (; j < lines.size() && !lines[j].empty() && lines[j][0] == '|'; ++j)
            EXPECT_EQ(columns(lines[j]), width) << "row: " << lines[j] << "\nheader: " << lines[i];
        i = j;
    }
    return tables;
}

// A minimal well-formedness check of the SVG we write: balanced elements, quoted
// attributes, no bare '&' or '<' in text. Returns the number of elements with the class.
int check_svg(const std::string& svg, const std::string& count_class)
{
    EXPECT_EQ(svg.rfind("<svg ", 0), 0u) << svg.substr(0, 40);
    EXPECT_TRUE(contains(svg, "xmlns=\"http://www.w3.org/2000/svg\""));
    std::vector<std::string> stack;
    int counted = 0;
    std::size_t i = 0;
    while (i < svg.size()) {
        if (svg[i] == '&') {
            const auto semi = svg.find(';', i);
            EXPECT_NE(semi, std::string::npos);
            const std::string entity = svg.substr(i, semi - i + 1);
            EXPECT_TRUE(entity == "&amp;" || entity == "&lt;" || entity == "&gt;"
                || entity == "&quot;" || entity == "&apos;" || entity == "&#10;"
                || entity == "&#13;" || entity == "&#9;")
                << entity;
            i = semi + 1;
            continue;
        }
        if (svg[i] != '<') {
            ++i;
            continue;
        }
        const auto end = svg.find('>', i);
        if (end == std::string::npos) {
            ADD_FAILURE() << "unterminated tag";
            return counted;
        }
        std::string tag = svg.substr(i + 1, end - i - 1);
        EXPECT_EQ(std::count(tag.begin(), tag.end(), '"') % 2, 0) << tag;
        EXPECT_EQ(tag.find('<'), std::string::npos) << tag;
        if (tag[0] == '/') {
            const std::string name = tag.substr(1);
            if (stack.empty() || stack.back() != name) {
                ADD_FAILURE() << "closing " << name << " does not match";
                return counted;
            }
            stack.pop_back();
        } else {
            const std::string name = tag.substr(0, tag.find_first_of(" /"));
            if (contains(tag, "class=\"" + count_class + "\"")) ++counted;
            if (tag.back() != '/') stack.push_back(name);
        }
        i = end + 1;
    }
    EXPECT_TRUE(stack.empty()) << "unclosed elements";
    return counted;
}

TEST(ConfigurationFamily, ReplacesTheSeedFieldAndKeepsOptions)
{
    EXPECT_EQ(configuration_family("ranmar48x/8/interleave/increment/1802,9373"),
        "ranmar48x/8/interleave/increment/*");
    EXPECT_EQ(configuration_family("ranmar48/1/single/increment/1,2;zero=smallest;skip=1000"),
        "ranmar48/1/single/increment/*;zero=smallest;skip=1000");
    EXPECT_EQ(configuration_family("mtdc[fixstars-mt521#1a2b3c4d@0]/32/interleave/same/777"),
        "mtdc[fixstars-mt521#1a2b3c4d@0]/32/interleave/same/*");
    EXPECT_EQ(configuration_family("stdin32"), "stdin32");
    EXPECT_EQ(configuration_family("file:/a/b/c/d/e.bin"), "file:/a/b/c/d/e.bin");
    // An external stream's recorded seed is its seed field; its name (or path) and the other
    // options stay.
    EXPECT_EQ(configuration_family("stdin32[xorshift];seed=7"), "stdin32[xorshift];seed=*");
    EXPECT_EQ(configuration_family("file64[splitmix64];seed=0x9e37;skip=8;view=low32"),
        "file64[splitmix64];seed=*;skip=8;view=low32");
    EXPECT_EQ(configuration_family("file:/a;b/w.bin;seed=3"), "file:/a;b/w.bin;seed=*");
    EXPECT_EQ(configuration_family("stdin64;view=packed"), "stdin64;view=packed");
}

// Named external streams with recorded seeds: two generators piped in through stdin32, two
// seeds each, are two configurations of two seeds, none of the runs left out as a repeat.
TEST(Compare, NamedExternalStreamsAreConfigurationsWithTheirOwnSeeds)
{
    const std::string path = rngvet_test::fresh("compare_named_streams.sqlite");
    Store store(path);
    std::vector<StatisticRecord> stats;
    for (const Stat& s : smallcrush_stats)
        stats.push_back({ s.index, s.test, s.name, 0.5 });
    for (const char* name : { "xorshift", "lcg" })
        for (const char* seed : { "1", "2" })
            store.insert_run(rngvet_test::run_record("stdin32",
                                 "stdin32[" + std::string(name) + "];seed=" + seed, seed, 32),
                stats);
    const Comparison c = compare_runs(store, store.runs());
    ASSERT_EQ(c.configurations.size(), 2u);
    for (const char* family : { "stdin32[xorshift];seed=*", "stdin32[lcg];seed=*" }) {
        const ConfigurationSummary& one = find(c, family);
        EXPECT_EQ(one.seeds, (std::vector<std::string>{ "1", "2" })) << family;
        EXPECT_EQ(one.duplicate_runs, 0) << family;
        EXPECT_EQ(one.run_ids.size(), 2u) << family;
    }
    EXPECT_TRUE(c.repeated_seeds());
}

TEST(BitsRead, EveryTestOfTheThreeBatteriesHasAnEntryInTestU01Order)
{
    const std::map<std::string, int> tests
        = { { "smallcrush", 10 }, { "crush", 96 }, { "bigcrush", 106 } };
    for (const auto& [battery, count] : tests) {
        for (int t = 1; t <= count; ++t) {
            const BitsRead b = bits_read(battery, t);
            SCOPED_TRACE(battery + " test " + std::to_string(t) + ": " + b.call);
            EXPECT_GE(b.first_bit, 1);
            EXPECT_GE(b.highest_bit, b.first_bit);
            EXPECT_LE(b.highest_bit, 32);
            EXPECT_EQ(b.all_bits,
                b.highest_bit == 32 && std::string(b.call).find('(') != std::string::npos);
            // The call's r is the number of dropped bits.
            const std::string call = b.call, r = " r=" + std::to_string(b.first_bit - 1);
            const auto at = call.find(r);
            ASSERT_NE(at, std::string::npos) << call;
            ASSERT_LT(at + r.size(), call.size());
            EXPECT_TRUE(call[at + r.size()] == ',' || call[at + r.size()] == ' ') << call;
        }
        EXPECT_THROW(bits_read(battery, count + 1), std::out_of_range);
        EXPECT_THROW(bits_read(battery, 0), std::out_of_range);
    }
    EXPECT_THROW(bits_read("tinycrush", 1), std::out_of_range);
}

TEST(BitsRead, KnownEntriesFromBbattery)
{
    // SmallCrush 7: svaria_WeightDistrib r = 27, beta = 1/8: bits 28-30.
    EXPECT_EQ(bits_read("smallcrush", 7).first_bit, 28);
    EXPECT_EQ(highest_bit_read("smallcrush", 7), 30);
    // SmallCrush 2: sknuth_Collision r = 0, d = 2^16.
    EXPECT_EQ(highest_bit_read("smallcrush", 2), 16);
    // Crush 54: WeightDistrib r = 24; Crush 11: BirthdaySpacings d = 2^31 (64-bit build).
    EXPECT_EQ(highest_bit_read("crush", 54), 27);
    EXPECT_EQ(highest_bit_read("crush", 11), 31);
    // Crush 71: LinearComp r = 0, s = 1 reads only the top bit.
    EXPECT_EQ(highest_bit_read("crush", 71), 1);
    // BigCrush 92: HammingCorr r = 10, s = 10; BigCrush 37: Gap r = 20, beta = 1/1024.
    EXPECT_EQ(bits_read("bigcrush", 92).first_bit, 11);
    EXPECT_EQ(highest_bit_read("bigcrush", 92), 20);
    EXPECT_EQ(highest_bit_read("bigcrush", 37), 30);
    // Real-valued tests read every bit.
    EXPECT_TRUE(bits_read("bigcrush", 53).all_bits); // SampleMean
    EXPECT_EQ(highest_bit_read("smallcrush", 6), 32); // MaxOft
    // Within 24 bits: exactly the tests a 24-bit generator can pass by construction.
    int within = 0;
    for (int t = 1; t <= 10; ++t)
        within += highest_bit_read("smallcrush", t) <= 24;
    EXPECT_EQ(within, 1); // only Collision
}

TEST(SecondLevel, KolmogorovSmirnovAndAndersonDarlingMatchKnownValues)
{
    // Hand-computed: {0.1, 0.4, 0.7}: D+ = max(1/3 - 0.1, 2/3 - 0.4, 1 - 0.7) = 0.3,
    // D- = max(0.1, 0.4 - 1/3, 0.7 - 2/3) = 0.1, so D = 0.3.
    const UniformityTest t = uniformity_test({ 0.7, 0.1, 0.4 });
    EXPECT_EQ(t.n, 3u);
    EXPECT_NEAR(t.ks, 0.3, 1e-12);
    // A2 by its definition (Anderson & Darling 1954):
    // -n - (1/n) sum_i (2i - 1) [ln u_(i) + ln(1 - u_(n+1-i))].
    const double u[] = { 0.1, 0.4, 0.7 };
    double sum = 0;
    for (int i = 1; i <= 3; ++i)
        sum += (2 * i - 1) * (std::log(u[i - 1]) + std::log(1 - u[3 - i]));
    EXPECT_NEAR(t.ad, -3 - sum / 3, 1e-12);

    // n = 1: D = max(u, 1 - u), P(D >= x) = 2 (1 - x); A2 = -1 - ln(u (1 - u)) and
    // P(A2 >= a) = P(u (1 - u) <= u0 (1 - u0)) = 2 min(u0, 1 - u0).
    const UniformityTest one = uniformity_test({ 0.2 });
    EXPECT_NEAR(one.ks, 0.8, 1e-12);
    EXPECT_NEAR(one.ks_p, 0.4, 1e-6);
    EXPECT_NEAR(one.ad, -1 - std::log(0.2 * 0.8), 1e-12);
    EXPECT_NEAR(one.ad_p, 0.4, 1e-3);

    // Under H0 both p-values are uniform: the fraction below 0.05 over 2000 samples of 10
    // is 0.05 within four standard deviations (0.0049 each).
    SplitMix rng{ 7 };
    int ks_low = 0, ad_low = 0;
    const int samples = 2000;
    for (int k = 0; k < samples; ++k) {
        std::vector<double> v(10);
        for (double& x : v)
            x = rng.uniform();
        const UniformityTest s = uniformity_test(v);
        ks_low += s.ks_p < 0.05;
        ad_low += s.ad_p < 0.05;
    }
    EXPECT_NEAR(ks_low / double(samples), 0.05, 0.02);
    EXPECT_NEAR(ad_low / double(samples), 0.05, 0.02);

    // And a clearly non-uniform sample is rejected by both.
    const UniformityTest bad = uniformity_test(std::vector<double>(10, 1e-15));
    EXPECT_LT(bad.ad_p, 1e-6);
    EXPECT_LT(bad.ks_p, 1e-6);
    EXPECT_THROW(uniformity_test({}), std::invalid_argument);
    EXPECT_THROW(uniformity_test({ 1.5 }), std::invalid_argument);
}

TEST(SecondLevel, BinomialTailMatchesClosedForms)
{
    EXPECT_NEAR(binomial_tail(10, 0.5, 8), 56.0 / 1024.0, 1e-15); // (45 + 10 + 1) / 2^10
    EXPECT_NEAR(binomial_tail(150, 0.002, 1), 1 - std::pow(0.998, 150), 1e-13);
    EXPECT_NEAR(binomial_tail(10, 0.002, 10), std::pow(0.002, 10), 1e-40);
    EXPECT_EQ(binomial_tail(10, 0.002, 0), 1.0);
    EXPECT_EQ(binomial_tail(10, 0.002, 11), 0.0);
    EXPECT_NEAR(binomial_tail(1600, 0.002, 0) - binomial_tail(1600, 0.002, 1),
        std::pow(0.998, 1600), 1e-13);
    // Far tail, summed upward: P(X >= 3) for n = 3 is p^3.
    EXPECT_NEAR(binomial_tail(3, 0.002, 3) / 8e-9, 1.0, 1e-12);
}

// The words of the report, the keys of the machine reports (docs/reports.md) and the severity
// order (pass to systematic, sound to defective) of every class and verdict.
TEST(Compare, ClassesAndVerdictsHaveTheirWordsKeysAndSeverities)
{
    const struct {
        StatisticClass c;
        const char* text;
        const char* key;
    } classes[] = {
        { StatisticClass::pass, "pass", "pass" },
        { StatisticClass::chance, "consistent with chance", "chance" },
        { StatisticClass::resolution, "expected (resolution)", "resolution" },
        { StatisticClass::nonuniform, "p-values not uniform", "nonuniform" },
        { StatisticClass::some_seeds, "seed-dependent", "some_seeds" },
        { StatisticClass::systematic, "systematic", "systematic" },
    };
    int severity_before = -1;
    for (const auto& row : classes) {
        EXPECT_STREQ(to_string(row.c), row.text);
        EXPECT_STREQ(to_key(row.c), row.key);
        EXPECT_GT(severity(row.c), severity_before) << row.key;
        severity_before = severity(row.c);
    }
    EXPECT_EQ(severity(StatisticClass::pass), 0);
    const struct {
        Verdict v;
        const char* text;
        const char* key;
    } verdicts[] = {
        { Verdict::sound, "sound", "sound" },
        { Verdict::resolution, "sound within its resolution", "resolution" },
        { Verdict::suspect, "suspect", "suspect" },
        { Verdict::defective, "defective", "defective" },
    };
    severity_before = -1;
    for (const auto& row : verdicts) {
        EXPECT_STREQ(to_string(row.v), row.text);
        EXPECT_STREQ(to_key(row.v), row.key);
        EXPECT_GT(severity(row.v), severity_before) << row.key;
        severity_before = severity(row.v);
    }
    EXPECT_EQ(severity(Verdict::sound), 0);
    // A value that is none of the enumerators has no words.
    EXPECT_STREQ(to_key(static_cast<Verdict>(99)), "?");
    EXPECT_EQ(severity(static_cast<StatisticClass>(99)), 0);
}

TEST(Compare, ClassifiesResolutionSystematicAndChance)
{
    const Fixture f = make_fixture("compare_verdicts.sqlite");
    ASSERT_GE(f.chance_suspect, 1) << "fixture: the clean configuration should draw suspect values";
    Store store(f.path);
    const Comparison c = compare_runs(store, store.runs());
    ASSERT_EQ(c.configurations.size(), 4u);
    EXPECT_TRUE(c.repeated_seeds());

    const auto& a = find(c, "ranmar24/1/single/increment/*");
    EXPECT_EQ(a.seeds.size(), 10u);
    EXPECT_EQ(a.resolution_bits, 24);
    EXPECT_EQ(a.verdict, Verdict::resolution) << a.verdict_line;
    EXPECT_EQ(stat(a, 8).cls, StatisticClass::resolution);
    EXPECT_TRUE(stat(a, 8).beyond_resolution);
    EXPECT_EQ(stat(a, 8).suspect, 10);
    EXPECT_EQ(stat(a, 3).cls, StatisticClass::resolution);
    EXPECT_EQ(stat(a, 2).cls, StatisticClass::pass);
    EXPECT_FALSE(stat(a, 2).beyond_resolution);
    EXPECT_EQ(a.testable_suspect, 0);
    EXPECT_EQ(a.resolution_suspect, 30);
    EXPECT_TRUE(contains(a.verdict_line, "expected (resolution)")) << a.verdict_line;
    EXPECT_FALSE(contains(a.verdict_line, "fails")) << a.verdict_line;
    EXPECT_EQ(a.bench.size(), 0u);

    const auto& b = find(c, "ranmar48/1/single/increment/*");
    EXPECT_EQ(b.seeds.size(), 10u);
    EXPECT_EQ(b.duplicate_runs, 1);
    EXPECT_EQ(b.verdict, Verdict::defective);
    EXPECT_EQ(stat(b, 9).cls, StatisticClass::systematic);
    EXPECT_EQ(b.verdict_line,
        "fails MatrixRank (test 8) on 10/10 seeds (clear failure, p = "
        "1.0e-15): systematic");
    ASSERT_TRUE(stat(b, 9).uniformity);
    EXPECT_LT(stat(b, 9).uniformity->ad_p, 1e-6); // the systematic statistic: rejected
    ASSERT_TRUE(stat(b, 3).uniformity);
    EXPECT_GT(stat(b, 3).uniformity->ad_p, 0.5); // stratified p-values: uniform
    EXPECT_GT(stat(b, 3).uniformity->ks_p, 0.5);
    EXPECT_DOUBLE_EQ(b.cpu_seconds, 20.0);

    const auto& clean = find(c, "ranmar48x/8/interleave/increment/*");
    EXPECT_EQ(clean.verdict, Verdict::sound) << clean.verdict_line;
    EXPECT_EQ(clean.testable_suspect, f.chance_suspect);
    EXPECT_EQ(clean.testable_pvalues, f.clean_pvalues);
    EXPECT_DOUBLE_EQ(clean.expected_suspect, 0.002 * static_cast<double>(f.clean_pvalues));
    EXPECT_TRUE(contains(clean.verdict_line, std::to_string(f.chance_suspect) + " suspect value"))
        << clean.verdict_line;
    EXPECT_TRUE(contains(clean.verdict_line, "in 15 statistics x 10 seeds: consistent with chance"))
        << clean.verdict_line;
    ASSERT_EQ(clean.bench.size(), 1u);
    for (const auto& s : clean.stats)
        EXPECT_TRUE(s.cls == StatisticClass::pass || s.cls == StatisticClass::chance)
            << s.label() << ": " << to_string(s.cls);

    const auto& d = find(c, "ranmar24/4/interleave/same/*");
    EXPECT_EQ(d.verdict, Verdict::defective) << d.verdict_line;
    EXPECT_EQ(stat(d, 2).cls, StatisticClass::systematic);
    EXPECT_TRUE(contains(d.verdict_line, "fails Collision (test 2) on 10/10 seeds"));

    // Report order: defective first, then resolution-only, then sound.
    EXPECT_EQ(c.configurations.front().verdict, Verdict::defective);
    EXPECT_EQ(c.configurations.back().verdict, Verdict::sound);
    EXPECT_EQ(c.configurations.front().id, "C1");
}

TEST(Compare, OneSeedWithAClearFailureIsDefectiveAndOneSuspectValueIsNot)
{
    const std::string path = rngvet_test::fresh("compare_single.sqlite");
    Store store(path);
    std::vector<StatisticRecord> clear, suspect;
    for (const Stat& s : smallcrush_stats) {
        clear.push_back({ s.index, s.test, s.name, s.index == 2 ? 1e-15 : 0.5 });
        suspect.push_back({ s.index, s.test, s.name, s.index == 2 ? 2e-4 : 0.5 });
    }
    store.insert_run(run_record("ranmar48", "ranmar48/1/single/increment", "1,2", 48), clear);
    store.insert_run(run_record("ranmar48", "ranmar48/1/single/same", "1,2", 48), suspect);
    const Comparison c = compare_runs(store, store.runs());
    EXPECT_FALSE(c.repeated_seeds());
    EXPECT_EQ(find(c, "ranmar48/1/single/increment/*").verdict, Verdict::defective);
    EXPECT_EQ(find(c, "ranmar48/1/single/same/*").verdict, Verdict::sound);
    // Without several seeds, the comparison appears only on request.
    EXPECT_FALSE(contains(render_report(store, "x", {}), "## Comparison across seeds"));
    ReportOptions options;
    options.compare_only = true;
    const RenderedReport r = render_validation_report(store, "x", {}, options);
    EXPECT_TRUE(contains(r.markdown, "## Comparison across seeds"));
    EXPECT_FALSE(contains(r.markdown, "## Run 1"));
    EXPECT_TRUE(r.files.empty());
    check_tables(r.markdown);
}

// Runs of one seed with disjoint tests (a follow-up that runs other statistics of the seed
// with --tests) count together: the second run's clear failure makes the configuration
// defective and neither run is left out. A run that repeats statistics already counted is.
TEST(Compare, RunsOfOneSeedWithDisjointTestsCountTogether)
{
    const std::string path = rngvet_test::fresh("compare_disjoint.sqlite");
    Store store(path);
    std::vector<StatisticRecord> first, second;
    for (const Stat& s : smallcrush_stats)
        (s.test <= 5 ? first : second)
            .push_back({ s.index, s.test, s.name, s.test == 7 ? 1e-20 : 0.5 });
    for (const char* seed : { "1,2", "3,4", "5,6" }) {
        store.insert_run(run_record("ranmar48", "ranmar48/1/single/increment", seed, 48), first);
        store.insert_run(run_record("ranmar48", "ranmar48/1/single/increment", seed, 48), second);
    }
    store.insert_run(run_record("ranmar48", "ranmar48/1/single/increment", "1,2", 48), first);
    const Comparison c = compare_runs(store, store.runs());
    const auto& a = find(c, "ranmar48/1/single/increment/*");
    EXPECT_EQ(a.seeds.size(), 3u);
    EXPECT_EQ(a.run_ids.size(), 6u);
    EXPECT_EQ(a.duplicate_runs, 1);
    EXPECT_EQ(a.stats.size(), 15u);
    EXPECT_DOUBLE_EQ(a.cpu_seconds, 12.0);
    EXPECT_EQ(a.verdict, Verdict::defective) << a.verdict_line;
    EXPECT_EQ(stat(a, 8).cls, StatisticClass::systematic);
    EXPECT_EQ(stat(a, 8).pvalues.size(), 3u);
    EXPECT_EQ(stat(a, 1).pvalues.size(), 3u);

    // A whole run of a seed counted from two runs replaces both: two more left out.
    std::vector<StatisticRecord> whole = first;
    whole.insert(whole.end(), second.begin(), second.end());
    store.insert_run(run_record("ranmar48", "ranmar48/1/single/increment", "5,6", 48), whole);
    const Comparison again = compare_runs(store, store.runs());
    const auto& b = find(again, "ranmar48/1/single/increment/*");
    EXPECT_EQ(b.run_ids.size(), 5u);
    EXPECT_EQ(b.duplicate_runs, 3);
    EXPECT_EQ(stat(b, 8).pvalues.size(), 3u);
}

TEST(Compare, RendersMatrixVerdictsChanceAndPlots)
{
    const Fixture f = make_fixture("compare_render.sqlite");
    Store store(f.path);
    ReportOptions options;
    options.plot_prefix = "report";
    const RenderedReport r = render_validation_report(store, "fixture.sqlite", {}, options);
    const std::string& md = r.markdown;

    EXPECT_TRUE(contains(md, "## Comparison across seeds"));
    EXPECT_FALSE(contains(md, "## Run 1: `ranmar24/1/single/increment/100,200`, SmallCrush"))
        << "the per-run sections go behind --runs when the comparison is shown";
    // Matrix cells: counts over seeds and the most extreme p-value.
    EXPECT_TRUE(contains(md, "**10/10 (1.0e-15)**")) << md;
    EXPECT_TRUE(contains(md, "10/10 (1.0e-20) res.")) << md;
    EXPECT_TRUE(contains(md, "10/10 (eps) res.")) << md;
    EXPECT_TRUE(contains(md, "| 8 | 7 | WeightDistrib | 28-30 |")) << md;
    // Verdict lines, cost beside quality.
    EXPECT_TRUE(contains(md, "fails MatrixRank (test 8) on 10/10 seeds")) << md;
    EXPECT_TRUE(contains(md,
        "3 statistics read beyond bit 24: expected (resolution), not a "
        "defect; otherwise 0 suspect values in 1 statistic x 10 seeds"))
        << md;
    EXPECT_TRUE(contains(md, "2.5e+09 numbers/s (cuda, GPU, device)")) << md;
    EXPECT_TRUE(contains(md, "not measured"));
    EXPECT_TRUE(contains(md, "| 2.0 s |")) << "CPU time per seed";
    // The chance expectation: testable p-values of all four configurations.
    long testable = 0, suspect = 0;
    const Comparison c = compare_runs(store, store.runs());
    for (const auto& s : c.configurations) {
        testable += s.testable_pvalues;
        suspect += s.testable_suspect;
    }
    EXPECT_EQ(suspect, f.chance_suspect + 10 + 10); // chance + MatrixRank (B) + Collision (D)
    char expected[160];
    std::snprintf(expected, sizeof expected,
        "about %.2f suspect values are expected (0.002 x %ld); %ld were observed",
        0.002 * static_cast<double>(testable), testable, suspect);
    EXPECT_TRUE(contains(md, expected)) << expected << "\n" << md;
    // Second level: the systematic statistic rejects, a uniform one does not.
    EXPECT_TRUE(contains(md, "MatrixRank (test 8) | 10 |")) << md;
    EXPECT_TRUE(contains(md, "| rejects |"));
    EXPECT_TRUE(contains(md, "| uniform |"));
    // Expected failures list the bits and the TestU01 call.
    EXPECT_TRUE(contains(md, "`svaria_WeightDistrib r=27, [0, 1/8)`")) << md;

    EXPECT_GE(check_tables(md), 6);

    // Plots: one heat map, histograms for the non-passing statistics (at most 10).
    ASSERT_FALSE(r.files.empty());
    EXPECT_EQ(r.files.front().name, "report-heatmap-smallcrush.svg");
    EXPECT_TRUE(contains(md, "](report-heatmap-smallcrush.svg)"));
    // The heat map has one cell per configuration and matrix row.
    const auto start = md.find("| # | Test | Statistic | Bits read | C1 |");
    ASSERT_NE(start, std::string::npos) << md;
    int matrix_rows = 0;
    std::istringstream in(md.substr(start));
    std::string line;
    std::getline(in, line);
    std::getline(in, line);
    while (std::getline(in, line) && !line.empty())
        ++matrix_rows;
    EXPECT_GE(matrix_rows, 5); // WeightDistrib, SimpPoker, Gap, MatrixRank, Collision
    EXPECT_EQ(check_svg(r.files.front().content, "cell"), 4 * matrix_rows);
    std::size_t histograms = 0;
    for (const auto& file : r.files) {
        if (file.name.rfind("report-hist-", 0) != 0) continue;
        ++histograms;
        EXPECT_EQ(check_svg(file.content, "bar"), 10) << file.name;
        EXPECT_TRUE(contains(md, "](" + file.name + ")")) << file.name;
    }
    EXPECT_GE(histograms, 5u);
    EXPECT_LE(histograms, 10u);
    // One histogram of all p-values for each passing configuration (A within its resolution,
    // C sound).
    std::size_t passing = 0;
    for (const auto& s : c.configurations)
        passing += s.verdict == Verdict::sound || s.verdict == Verdict::resolution;
    EXPECT_EQ(passing, 2u);
    std::size_t passing_plots = 0;
    for (const auto& file : r.files)
        if (file.name.rfind("report-pass-", 0) == 0) {
            ++passing_plots;
            EXPECT_EQ(check_svg(file.content, "bar"), 10) << file.name;
        }
    EXPECT_EQ(passing_plots, passing);
    EXPECT_EQ(r.files.size(), histograms + passing_plots + 1);
}

TEST(Svg, EscapesTextAndRefusesAMismatchedGrid)
{
    EXPECT_EQ(xml_escape("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&apos;");
    // The same escape as the JUnit report's: line breaks kept as references, what XML 1.0
    // cannot hold (a C0 control, a byte of no UTF-8 sequence, U+FFFF) as U+FFFD.
    const std::string r = "\xEF\xBF\xBD";
    EXPECT_EQ(xml_escape("a\nb\tc\rd"), "a&#10;b&#9;c&#13;d");
    EXPECT_EQ(xml_escape(std::string("x\x01y\x80z\xEF\xBF\xBF")), "x" + r + "y" + r + "z" + r);
    HeatMap map;
    map.title = "t <&>";
    map.row_labels = { "mtdc[x#1@0]/32/interleave/same/*" };
    map.column_labels = { "#1 A", "#2 B" };
    map.cells = { { HeatCell{}, HeatCell{} } };
    map.cells[0][0].kind = HeatCell::Kind::value;
    map.cells[0][0].value = 0.5;
    map.cells[0][0].tooltip = "p < 0.001 & more";
    EXPECT_EQ(check_svg(heat_map_svg(map), "cell"), 2);
    map.cells[0].pop_back();
    EXPECT_THROW(heat_map_svg(map), std::invalid_argument);
}

} // namespace
} // namespace rngvet
