// Plugin generators (--generator lib:PATH[:SYMBOL], library/include/rngvet/plugin.h) through the
// rngvet binary: the example plugin's stream (examples/plugin/splitmix64.c) against its own
// arithmetic written out here, word for word; sharded tests against serial runs of the same
// tests at their segments; the native engine against TestU01; the store's names, seeds and
// library hashes, and what report --compare makes of them; resume and campaigns on a library
// that changed.
#include "generators/sha256.hpp"
#include "reports/store.hpp"
#include "tests/support.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace rngvet_test;
namespace fs = std::filesystem;

const std::string example = RNGVET_EXAMPLE_PLUGIN;
const std::string faults = RNGVET_FAULT_PLUGIN;

// SplitMix64 as examples/plugin/splitmix64.c computes it (Steele, Lea and Flood 2014), written
// again here step by step: the counter advances by the golden gamma, the output mixes it.
std::vector<std::uint64_t> splitmix64(std::uint64_t x, std::size_t n)
{
    std::vector<std::uint64_t> out(n);
    for (std::uint64_t& z : out) {
        x += 0x9E3779B97F4A7C15ull;
        z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
    }
    return out;
}

// Marsaglia's xorshift32 (13, 17, 5), tests/plugin_faults.c's xorshift32_generator.
std::vector<std::uint32_t> xorshift32(std::uint32_t x, std::size_t n)
{
    std::vector<std::uint32_t> out(n);
    for (std::uint32_t& w : out) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        w = x;
    }
    return out;
}

// `rngvet generate ARGS --format u32` read back as words.
std::vector<std::uint32_t> generated(const std::string& args)
{
    const std::string out = fresh("plugin_generated.bin");
    const CliResult r = run_rngvet("generate " + args + " --format u32 --out " + out);
    EXPECT_EQ(r.status, 0) << r.err;
    std::ifstream in(out, std::ios::binary);
    std::vector<std::uint32_t> words;
    unsigned char b[4];
    while (in.read(reinterpret_cast<char*>(b), 4))
        words.push_back(std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16
            | std::uint32_t(b[3]) << 24);
    return words;
}

// stat_index -> p-value of the run's statistics, read exactly.
std::map<int, double> pvalues(const std::string& db, std::int64_t run_id)
{
    rngvet::Store store(db);
    std::map<int, double> p;
    for (const rngvet::StatisticRecord& s : store.statistics(run_id))
        p[s.stat_index] = s.pvalue;
    return p;
}

std::string lib(const std::string& path, const std::string& symbol = "")
{
    return "lib:" + path + (symbol.empty() ? "" : ":" + symbol);
}

TEST(Plugin, GenerateIsTheExamplesOwnArithmeticBitForBit)
{
    const std::string g = "--generator " + lib(example);
    // The packed view: every 64-bit output as its high half, then its low half.
    {
        const auto words = generated(g + " --seed 7 --view packed --count 2000");
        const auto x = splitmix64(7, 1000);
        ASSERT_EQ(words.size(), 2000u);
        for (std::size_t t = 0; t < x.size(); ++t) {
            SCOPED_TRACE(t);
            ASSERT_EQ(words[2 * t], std::uint32_t(x[t] >> 32));
            ASSERT_EQ(words[2 * t + 1], std::uint32_t(x[t]));
        }
    }
    // --skip by the library's O(1) skip, against the outputs made one by one: the default view
    // is the high halves, and 1000003 of them are skipped.
    {
        const auto words = generated(g + " --seed 12345 --skip 1000003 --count 1000");
        const auto x = splitmix64(12345, 1000003 + 1000);
        ASSERT_EQ(words.size(), 1000u);
        for (std::size_t t = 0; t < words.size(); ++t)
            ASSERT_EQ(words[t], std::uint32_t(x[1000003 + t] >> 32)) << t;
    }
    // Three instances interleaved, seeded 7, 8 and 9 (increment), their low halves.
    {
        const auto words = generated(
            g + " --seed 7 --instances 3 --layout interleave --view low32 --count 3000");
        ASSERT_EQ(words.size(), 3000u);
        for (std::uint64_t i = 0; i < 3; ++i) {
            const auto x = splitmix64(7 + i, 1000);
            for (std::size_t t = 0; t < x.size(); ++t)
                ASSERT_EQ(words[3 * t + i], std::uint32_t(x[t])) << i << " " << t;
        }
    }
    // A skip over several instances: each instance skips its own share (interleaved, 1000001
    // outputs: instance 0 skips 333334, instances 1 and 2 skip 333333 each).
    {
        const auto words = generated(g + " --seed 7 --instances 3 --skip 1000001 --count 30");
        ASSERT_EQ(words.size(), 30u);
        for (std::uint64_t t = 0; t < 30; ++t) {
            const std::uint64_t at = 1000001 + t, i = at % 3, k = at / 3;
            ASSERT_EQ(words[t], std::uint32_t(splitmix64(7 + i, k + 1)[k] >> 32)) << t;
        }
    }
    // split:S: instance 1 is the seed's stream from output S on, by the library's skip.
    {
        const auto words = generated(
            g + " --seed 3 --instances 2 --layout block:10 --seeding split:5000 --count 40");
        const auto x = splitmix64(3, 5020);
        ASSERT_EQ(words.size(), 40u);
        for (std::size_t t = 0; t < 40; ++t) {
            const std::size_t block = t / 10, k = t % 10;
            const std::size_t at = (block % 2 == 0 ? 0 : 5000) + (block / 2) * 10 + k;
            ASSERT_EQ(words[t], std::uint32_t(x[at] >> 32)) << t;
        }
    }
    // A 32-bit plugin without a skip: its low 32 bits (it sets the high ones), and --skip by
    // outputs made and dropped.
    {
        const auto words = generated("--generator " + lib(faults, "xorshift32_generator")
            + " --seed 2463534242 --skip 5000 --count 1000");
        const auto x = xorshift32(2463534242u, 6000);
        ASSERT_EQ(words.size(), 1000u);
        for (std::size_t t = 0; t < words.size(); ++t)
            ASSERT_EQ(words[t], x[5000 + t]) << t;
    }
}

TEST(Plugin, TheStoreHoldsTheNameSeedAndTheLibrarysHash)
{
    const std::string db = fresh("plugin_store.sqlite");
    const CliResult r = run_rngvet(
        "run --generator " + lib(example) + " --seed 7 --battery smallcrush --tests 1 --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    rngvet::Store store(db);
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u);
    const std::string sha = rngvet::sha256_of_file(example);
    EXPECT_EQ(runs[0].generator, "lib:" + fs::canonical(example).string());
    EXPECT_EQ(runs[0].config, "lib[splitmix64#" + sha.substr(0, 8) + "]/1/single/increment/7");
    EXPECT_EQ(runs[0].seed, "7");
    EXPECT_EQ(runs[0].input_sha256, sha);
    EXPECT_EQ(runs[0].resolution_bits, 32);
}

// The same library with one byte more (an ELF loads with bytes appended) is another library: its
// hash, and so its configuration, differ; a run of the first cannot be resumed on the second.
TEST(Plugin, ALibraryThatChangedIsAnotherConfigurationAndResumeRefusesIt)
{
    const std::string copy = fresh("plugin_copy.so");
    fs::copy_file(example, copy);
    const std::string db = fresh("plugin_changed.sqlite");
    const std::string run = "run --generator " + lib(copy) + " --seed 7 --battery smallcrush ";
    ASSERT_EQ(run_rngvet(run + "--tests 1,2 --db " + db).status, 0);
    // What an interruption after test 1 leaves.
    sql_write(db,
        "DELETE FROM statistics WHERE run_id = 1 AND test_number = 2;"
        "DELETE FROM tests WHERE run_id = 1 AND test_number = 2;"
        "UPDATE runs SET status = 'interrupted' WHERE run_id = 1;");
    const std::string before = rngvet::sha256_of_file(copy);
    std::ofstream(copy, std::ios::app | std::ios::binary) << 'x';
    const std::string after = rngvet::sha256_of_file(copy);
    ASSERT_NE(before, after);
    const CliResult refused = run_rngvet("run --resume 1 --db " + db);
    EXPECT_EQ(refused.status, 2) << refused.err;
    EXPECT_EQ(count_lines(refused.err), 1) << refused.err;
    EXPECT_NE(refused.err.find(before), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find(after), std::string::npos) << refused.err;
    {
        rngvet::Store store(db);
        EXPECT_EQ(store.tests(1).size(), 1u);
        EXPECT_EQ(store.run(1)->status, rngvet::RunStatus::interrupted);
    }
    // A new run on the changed library is a configuration of its own.
    ASSERT_EQ(run_rngvet(run + "--tests 1 --db " + db).status, 0);
    rngvet::Store store(db);
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].input_sha256, before);
    EXPECT_EQ(runs[1].input_sha256, after);
    EXPECT_NE(runs[0].config, runs[1].config);
    EXPECT_NE(runs[1].config.find("#" + after.substr(0, 8) + "]"), std::string::npos);
    RecordProperty("faults", 1);
}

// Two plugins, one of them with two seeds, and a library of the same name that differs: three
// configurations, each counting its own seeds.
TEST(Plugin, ReportCompareKeepsPluginsAndLibrariesApartAndCountsTheirSeeds)
{
    const std::string db = fresh("plugin_compare.sqlite");
    const std::string copy = fresh("plugin_compare_copy.so");
    fs::copy_file(example, copy);
    std::ofstream(copy, std::ios::app | std::ios::binary) << 'x';
    const std::string tail = " --battery smallcrush --tests 1 --db " + db;
    for (const std::string& args :
        { "--generator " + lib(example) + " --seed 7", "--generator " + lib(example) + " --seed 8",
            "--generator " + lib(faults, "xorshift32_generator") + " --seed 1",
            "--generator " + lib(faults, "xorshift32_generator") + " --seed 2",
            "--generator " + lib(copy) + " --seed 7" }) {
        const CliResult r = run_rngvet("run " + args + tail);
        ASSERT_EQ(r.status, 0) << args << ": " << r.err;
    }
    const std::string h_example = rngvet::sha256_of_file(example).substr(0, 8);
    const std::string h_copy = rngvet::sha256_of_file(copy).substr(0, 8);
    const std::string h_faults = rngvet::sha256_of_file(faults).substr(0, 8);
    const CliResult report = run_rngvet("report --compare --db " + db);
    ASSERT_EQ(report.status, 0) << report.err;
    const std::string& out = report.out;
    EXPECT_NE(out.find("`lib[splitmix64#" + h_example
                  + "]/1/single/increment/*` | SmallCrush | 2 (7; 8)"),
        std::string::npos)
        << out;
    EXPECT_NE(
        out.find("`lib[splitmix64#" + h_copy + "]/1/single/increment/*` | SmallCrush | 1 (7)"),
        std::string::npos)
        << out;
    EXPECT_NE(out.find("`lib[xorshift32#" + h_faults
                  + ":xorshift32_generator]/1/single/increment/*` | SmallCrush | 2 (1; 2)"),
        std::string::npos)
        << out;
    EXPECT_EQ(out.find("already counted"), std::string::npos) << out;
}

TEST(Plugin, APluginWithoutSkipRunsSeriallyAndIsRefusedSharded)
{
    const std::string db = fresh("plugin_noskip.sqlite");
    const std::string g = "--generator " + lib(faults, "xorshift32_generator") + " --seed 1";
    ASSERT_EQ(run_rngvet("run " + g + " --tests 1,2 --db " + db).status, 0);
    const std::string before = slurp(db);
    for (const std::string& extra : { std::string(" --jobs 2"), std::string(" --mode sharded"),
             std::string(" --seeding split:10") }) {
        SCOPED_TRACE(extra);
        const CliResult r = run_rngvet("run " + g + " --tests 1" + extra + " --db " + db);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("xorshift32' has no skip function"), std::string::npos) << r.err;
        EXPECT_TRUE(slurp(db) == before) << "a refusal changed the store";
    }
    // Nor can a serial run of it be resumed sharded.
    sql_write(db,
        "DELETE FROM statistics WHERE run_id = 1 AND test_number = 2;"
        "DELETE FROM tests WHERE run_id = 1 AND test_number = 2;"
        "UPDATE runs SET status = 'interrupted', mode = 'sharded' WHERE run_id = 1;"
        "UPDATE tests SET start_offset = 0 WHERE run_id = 1;");
    const CliResult r = run_rngvet("run --resume 1 --db " + db);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("has no skip function"), std::string::npos) << r.err;
}

// Sharded mode runs test k on the segment from (k - 1) x 2^40 on, which the plugin's skip reaches:
// each sharded test equals a serial run of that test alone skipped to its segment, bit for bit.
TEST(Plugin, SmallCrushShardedTestsAreTheSerialTestsAtTheirSegments)
{
    const std::string db = fresh("plugin_sharded.sqlite");
    const std::string g = "--generator " + lib(example) + " --seed 7 --battery smallcrush";
    ASSERT_EQ(run_rngvet("run " + g + " --jobs 2 --db " + db).status, 0);
    const std::map<int, double> sharded = pvalues(db, 1);
    ASSERT_EQ(sharded.size(), 15u);
    // One worker or two: the same segments, the same p-values.
    ASSERT_EQ(run_rngvet("run " + g + " --mode sharded --jobs 1 --db " + db).status, 0);
    EXPECT_EQ(pvalues(db, 2), sharded);
    std::map<int, double> serial;
    for (int k = 1; k <= 10; ++k) {
        const std::string one = fresh("plugin_serial_" + std::to_string(k) + ".sqlite");
        const CliResult r = run_rngvet("run " + g + " --tests " + std::to_string(k) + " --skip "
            + std::to_string(std::uint64_t(k - 1) << 40) + " --db " + one);
        ASSERT_EQ(r.status, 0) << r.err;
        rngvet::Store store(one);
        for (const rngvet::StatisticRecord& s : store.statistics(1))
            serial[s.stat_index] = s.pvalue;
    }
    ASSERT_EQ(serial.size(), sharded.size());
    for (const auto& [index, p] : sharded)
        EXPECT_EQ(serial.at(index), p) << "statistic " << index;
    // And the whole serial run starts where sharded test 1 does: their first tests agree.
    ASSERT_EQ(run_rngvet("run " + g + " --db " + db).status, 0);
    EXPECT_EQ(pvalues(db, 3).at(1), sharded.at(1));
}

// The native engine reads the plugin's stream as TestU01 does: the same p-values, bit for bit.
TEST(Plugin, SmallCrushNativeEngineGivesTestU01sPvalues)
{
    const std::string db = fresh("plugin_native.sqlite");
    const std::string g = "--generator " + lib(example) + " --seed 7 --battery smallcrush";
    ASSERT_EQ(run_rngvet("run " + g + " --engine testu01 --db " + db).status, 0);
    ASSERT_EQ(run_rngvet("run " + g + " --engine native --db " + db).status, 0);
    rngvet::Store store(db);
    EXPECT_EQ(store.run(1)->engine, "testu01");
    EXPECT_EQ(store.run(2)->engine, "native");
    const auto testu01 = pvalues(db, 1), native = pvalues(db, 2);
    ASSERT_EQ(testu01.size(), 15u);
    EXPECT_EQ(native, testu01);
}

} // namespace
