// The rngvet command line end to end: a SmallCrush run into a fresh database, read back with
// SQL, rendered as a report; and bad input refused with one line, a non-zero exit, and the
// database left as it was.
#include "reports/store.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace {

using namespace rngvet_test;
using Result = CliResult;

TEST(Cli, SmallCrushOnRanmar48IsStoredAndReported)
{
    const std::string db = fresh("cli_e2e.sqlite");
    const Result r
        = run_rngvet("run --generator ranmar48 --seed 1802,9373 --battery smallcrush --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("15 statistics"), std::string::npos) << r.out;

    rngvet::Store store(db);
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].config, "ranmar48/1/single/increment/1802,9373");
    EXPECT_EQ(runs[0].resolution_bits, 48);
    EXPECT_EQ(runs[0].status, rngvet::RunStatus::complete);
    EXPECT_GT(runs[0].numbers_used, 1000000u);
    const auto stats = store.statistics(runs[0].run_id);
    ASSERT_EQ(stats.size(), 15u);
    for (const auto& s : stats) {
        EXPECT_GE(s.pvalue, 0.0);
        EXPECT_LE(s.pvalue, 1.0);
    }

    const std::string md = fresh("cli_report.md");
    const Result rep = run_rngvet("report --db " + db + " --out " + md);
    ASSERT_EQ(rep.status, 0) << rep.err;
    const std::string text = slurp(md);
    EXPECT_NE(text.find("## Run 1: `ranmar48/1/single/increment/1802,9373`, SmallCrush"),
        std::string::npos);
    // Computed by the native engine (SmallCrush's default), the p-values are the installed
    // TestU01's, whose version the report names.
    EXPECT_NE(text.find("| TestU01 | TestU01"), std::string::npos);
    EXPECT_NE(text.find("RandomWalk1 C"), std::string::npos);
    // Every statistic outside [0.001, 0.999] is named in the summary.
    for (const auto& s : stats) {
        if (rngvet::verdict(s.pvalue) == rngvet::PValueVerdict::pass) continue;
        EXPECT_NE(text.find("| " + std::to_string(s.test_number) + " | " + s.test_name + " |"),
            std::string::npos)
            << s.test_name;
    }
}

// Each bad input: exit 2, exactly one line on stderr starting "rngvet: error:", no new run.
void expect_refused(const std::string& args, const std::string& db, const std::string& mention)
{
    const std::size_t before = rngvet::Store(db).runs().size();
    const Result r = run_rngvet(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("rngvet: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
    EXPECT_EQ(rngvet::Store(db).runs().size(), before) << args;
}

TEST(Cli, BadInputIsRefusedWithOneLineAndNothingStored)
{
    const std::string db = fresh("cli_bad.sqlite");
    rngvet::Store{ db };
    expect_refused(
        "run --generator nosuch --seed 1,2 --db " + db, db, "unknown generator 'nosuch'");
    expect_refused("run --generator ranmar48 --seed 40000,1 --db " + db, db, "0..31328");
    expect_refused("run --generator ranmar48 --seed 1,30082 --db " + db, db, "0..30081");
    expect_refused("run --generator ranmar48 --seed x --db " + db, db, "seed");
    expect_refused(
        "run --generator ranmar48 --seed 1,2 --battery tinycrush --db " + db, db, "tinycrush");
    expect_refused("run --generator ranmar48 --seed 1,2 --layout spiral --db " + db, db, "spiral");
    expect_refused(
        "run --generator ranmar48 --seed 1,2 --instances 0 --db " + db, db, "at least 1");
    expect_refused("run --generator ranmar48 --seed 1,2 --bogus --db " + db, db, "bogus");
    expect_refused("run --generator ranmar48 --seed 1,2 --backend warp --db " + db, db, "warp");

    const Result unwritable
        = run_rngvet("run --generator ranmar48 --seed 1,2 --db /nonexistent/dir/x.sqlite");
    EXPECT_EQ(unwritable.status, 2);
    EXPECT_EQ(count_lines(unwritable.err), 1) << unwritable.err;
    EXPECT_NE(unwritable.err.find("/nonexistent/dir/x.sqlite"), std::string::npos)
        << unwritable.err;

    const Result missing = run_rngvet("report --db " + fresh("cli_missing.sqlite"));
    EXPECT_EQ(missing.status, 2);
    EXPECT_EQ(count_lines(missing.err), 1) << missing.err;
}

// --backend auto: the run records the backend it chose (not "auto"), and the options it keeps
// for --resume name that backend; the command line keeps the request.
TEST(Cli, AutoBackendRunRecordsTheBackendItUsed)
{
    const std::string db = fresh("cli_auto.sqlite");
    const Result r = run_rngvet("run --generator ranmar48 --seed 1802,9373 --backend auto "
                                "--battery smallcrush --tests 1 --db "
        + db);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("rngvet: auto: "), std::string::npos) << r.err;
    rngvet::Store store(db);
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u);
    const std::string used = runs[0].backend;
    EXPECT_TRUE(used == "cpu" || used == "openmp" || used == "opencl" || used == "cuda") << used;
    EXPECT_NE(runs[0].options.find("--backend\n" + used + "\n"), std::string::npos)
        << runs[0].options;
    EXPECT_NE(runs[0].command_line.find("--backend auto"), std::string::npos);
}

// --backend auto in generate: the numbers are the reference's whatever it chooses, and the
// choice is the candidate with the highest rate per worker in its own report. Where no GPU is
// here, opencl (PoCL) plays its part ($RNGVET_AUTO_GPU); skipped where that is not available.
TEST(Cli, AutoBackendChoosesTheFasterMeasuredOneAndKeepsTheStream)
{
    const std::string want = fresh("cli_auto_cpu.u32"), got = fresh("cli_auto.u32");
    const std::string args
        = "generate --generator ranmar48x --seed 1802,9373 --skip 777 --count 300000 --out ";
    ASSERT_EQ(run_rngvet(args + want + " --backend cpu").status, 0);
    ::setenv("RNGVET_AUTO_GPU", "opencl", 1);
    const Result r = run_rngvet(args + got + " --backend auto");
    ::unsetenv("RNGVET_AUTO_GPU");
    if (r.err.find("is not an available backend") != std::string::npos) GTEST_SKIP() << r.err;
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(slurp(got), slurp(want));
    std::istringstream lines(r.err);
    std::string best, chosen;
    double best_share = -1, other_share = -1;
    int measured = 0;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string tag, auto_word, backend, verb;
        double rate = 0;
        words >> tag >> auto_word >> backend >> verb >> rate;
        if (backend == "chose") chosen = verb;
        if (verb != "delivers") continue;
        ++measured;
        const double share = std::strtod(line.c_str() + line.find('(') + 1, nullptr);
        EXPECT_NEAR(share, rate, 1e-3 * rate) << line; // one worker (jobs 1): its whole rate
        if (share > best_share) {
            other_share = best_share;
            best_share = share;
            best = backend;
        } else {
            other_share = share;
        }
    }
    EXPECT_EQ(measured, 2) << r.err;
    if (best_share > 1.001 * other_share) { // the report prints 4 digits
        EXPECT_EQ(chosen, best) << r.err;
    }
}

// bench --feed: each SmallCrush test on TestU01's RANMAR and on ranmar24 through the feed, which
// is the same stream, so every p-value must be identical (the command fails otherwise).
TEST(Cli, BenchFeedGivesTestU01sOwnPvaluesOnTheSameStream)
{
    const Result r = run_rngvet("bench --feed smallcrush --backend cpu --jobs 2");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("| tests (statistics) | 10 (15) |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| tests whose p-values are identical on both generators | 10 |"),
        std::string::npos)
        << r.out;

    for (const char* bad : { "bench --instances 4", "bench --feed smallcrush --instances 0",
             "bench --feed tinycrush", "bench --feed smallcrush --backend cpu,openmp" }) {
        const Result refused = run_rngvet(bad);
        EXPECT_EQ(refused.status, 2) << bad;
        EXPECT_EQ(count_lines(refused.err), 1) << bad << ": " << refused.err;
    }
}

TEST(Cli, EmptyStdinIsRefusedBeforeAnythingIsStored)
{
    const std::string db = fresh("cli_stdin.sqlite");
    rngvet::Store{ db };
    const Result r = run_rngvet("run --generator stdin32 --db " + db + " </dev/null");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("standard input is empty"), std::string::npos) << r.err;
    EXPECT_TRUE(rngvet::Store(db).runs().empty());
}

TEST(Cli, ShortStdinIsAnErrorNamingTheWordsRead)
{
    const std::string db = fresh("cli_stdin_short.sqlite");
    const std::string words = fresh("cli_stdin_short.bin");
    std::ofstream(words) << "abcdefgh";
    const Result r = run_rngvet("run --generator stdin32 --db " + db + " <" + words);
    EXPECT_EQ(r.status, 1); // the run was stored: a failure, not a refused input
    EXPECT_NE(r.err.find("ended after 2 words"), std::string::npos) << r.err;
    // The run had started: it is kept, marked failed, with no statistics.
    rngvet::Store store(db);
    ASSERT_EQ(store.runs().size(), 1u);
    EXPECT_EQ(store.runs()[0].status, rngvet::RunStatus::failed);
    EXPECT_TRUE(store.statistics(store.runs()[0].run_id).empty());
}

// Bit views end to end: ranmar24's packed words start from James's first outputs (the
// known-answer table's first ranmar24 row, times 2^-24) cut into 32-bit words, and SmallCrush
// runs on a view into the store and the report with the view in the configuration's name.
TEST(Cli, BitViewsAreGeneratedStoredAndReported)
{
    const Result packed = run_rngvet("generate --generator ranmar24 --seed 1802,9373 --count 3 "
                                     "--view packed --format text-u32");
    ASSERT_EQ(packed.status, 0) << packed.err;
    const std::vector<std::uint64_t>& james
        = rngvet_test::known_answer("ranmar24", "1802,9373").values;
    ASSERT_GE(james.size(), 4u);
    const auto x0 = static_cast<std::uint32_t>(james[0]), x1 = static_cast<std::uint32_t>(james[1]),
               x2 = static_cast<std::uint32_t>(james[2]), x3 = static_cast<std::uint32_t>(james[3]);
    std::ostringstream want;
    want << (x0 << 8 | x1 >> 16) << "\n"
         << ((x1 & 0xffff) << 16 | x2 >> 8) << "\n"
         << ((x2 & 0xff) << 24 | x3) << "\n";
    EXPECT_EQ(packed.out, want.str());

    const std::string db = fresh("cli_views.sqlite");
    for (const char* args : { "--generator ranmar24 --seed 1802,9373 --view packed",
             "--generator ranmar48 --seed 1802,9373 --view low32 --jobs 2" }) {
        const Result r = run_rngvet(std::string("run ") + args + " --db " + db);
        ASSERT_EQ(r.status, 0) << r.err;
    }
    rngvet::Store store(db);
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].config, "ranmar24/1/single/increment/1802,9373;view=packed");
    EXPECT_EQ(runs[1].config, "ranmar48/1/single/increment/1802,9373;view=low32");
    for (const auto& r : runs) {
        EXPECT_EQ(r.resolution_bits, 32);
        EXPECT_EQ(store.statistics(r.run_id).size(), 15u);
    }
    const Result report = run_rngvet("report --db " + db);
    EXPECT_NE(report.out.find(";view=packed"), std::string::npos);
    EXPECT_NE(report.out.find(";view=low32"), std::string::npos);
    // Serial: test 1 reads the start of the stream; sharded: every test reads its own segment,
    // and the first test's segment is the start.
    EXPECT_NE(report.out.find("| Start of the stream read by | test 1 |"), std::string::npos);
}

// Idle OpenMP threads sleep (process/openmp_waits.hpp). With OMP_WAIT_POLICY unset, rngvet starts
// itself again with PASSIVE, so libgomp (OMP_DISPLAY_ENV=VERBOSE) shows its settings twice: first
// its default spinning, then none. A policy that is set is kept, and nothing starts again.
TEST(Cli, IdleOpenMpThreadsSleepUnlessAPolicyIsSet)
{
    auto spin_counts = [](const std::string& err) {
        std::vector<std::string> counts;
        std::istringstream lines(err);
        const std::string key = "GOMP_SPINCOUNT = '";
        for (std::string line; std::getline(lines, line);) {
            const std::size_t at = line.find(key);
            if (at == std::string::npos) continue;
            const std::size_t from = at + key.size();
            counts.push_back(line.substr(from, line.find('\'', from) - from));
        }
        return counts;
    };
    const CliResult unset
        = run_rngvet("--version", "env -u OMP_WAIT_POLICY OMP_DISPLAY_ENV=VERBOSE");
    ASSERT_EQ(unset.status, 0) << unset.err;
    EXPECT_EQ(std::count(unset.out.begin(), unset.out.end(), '\n'), 1) << unset.out;
    const std::vector<std::string> restarted = spin_counts(unset.err);
    ASSERT_EQ(restarted.size(), 2u) << unset.err;
    EXPECT_NE(restarted[0], "0");
    EXPECT_EQ(restarted[1], "0");

    const CliResult active
        = run_rngvet("--version", "env OMP_WAIT_POLICY=ACTIVE OMP_DISPLAY_ENV=VERBOSE");
    ASSERT_EQ(active.status, 0) << active.err;
    const std::vector<std::string> kept = spin_counts(active.err);
    ASSERT_EQ(kept.size(), 1u) << active.err;
    EXPECT_NE(kept[0], "0");
}

TEST(Cli, ListNamesGeneratorsBatteriesAndBackends)
{
    const Result r = run_rngvet("list");
    ASSERT_EQ(r.status, 0);
    for (const char* s : { "ranmar24", "ranmar48x", "smallcrush", "bigcrush", "cpu" })
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

// Each backend other than cpu is listed once: available here, or not available with the reason
// the probe found (not built, no NVIDIA driver, no device); cpu is always available.
TEST(Cli, ListGivesEveryBackendAvailableOrNotWithAReason)
{
    const Result r = run_rngvet("list");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto section = [&](const std::string& heading) {
        std::vector<std::string> lines;
        std::istringstream in(r.out);
        bool on = false;
        for (std::string line; std::getline(in, line);) {
            if (!line.empty() && line[0] != ' ')
                on = line == heading;
            else if (on && line.size() > 2)
                lines.push_back(line.substr(2));
        }
        return lines;
    };
    const auto available = section("backends (available here):");
    const auto missing = section("backends (not available here):");
    ASSERT_FALSE(available.empty()) << r.out;
    EXPECT_EQ(available.front(), "cpu");
    for (const std::string backend : { "openmp", "opencl", "cuda" }) {
        int listed = 0;
        for (const auto& line : available)
            listed += line == backend || line.rfind(backend + ": ", 0) == 0;
        for (const auto& line : missing)
            if (line.rfind(backend + ": ", 0) == 0) {
                ++listed;
                EXPECT_GT(line.size(), backend.size() + 2) << line;
            }
        EXPECT_EQ(listed, 1) << backend << "\n" << r.out;
    }
}

} // namespace

namespace {

// A 32-bit configuration written by `rngvet generate` and read back through stdin32 is the same
// stream TestU01 sees: a serial SmallCrush gives the very same p-values both ways.
TEST(Cli, GeneratedStreamPipedThroughStdinGivesTheSameBattery)
{
    const std::string db = fresh("cli_pipe.sqlite");
    const std::string config = "--generator mtdc --params fixstars-mt521 --seed 0 --instances 32 "
                               "--layout block:1000 --seeding stride:0x33ff";
    ASSERT_EQ(run_rngvet("run " + config + " --mode serial --db " + db).status, 0);
    const Result piped = run_rngvet("generate " + config + " --count inf --format u32 | "
        + std::string(RNGVET_BINARY) + " run --generator stdin32 --mode serial --db " + db);
    ASSERT_EQ(piped.status, 0) << piped.err;
    rngvet::Store store(db);
    const auto a = store.statistics(1), b = store.statistics(2);
    ASSERT_EQ(a.size(), 15u);
    ASSERT_EQ(b.size(), 15u);
    for (std::size_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(a[i].pvalue, b[i].pvalue) << a[i].test_name;
    EXPECT_EQ(store.run(1)->params_sha256.size(), 64u);
    EXPECT_NE(store.run(1)->config.find("mtdc[fixstars-mt521#"), std::string::npos);
}

// Users' own generators keep their names and seeds: two generators piped in through stdin32,
// each under its --name and run with two --seed values (recorded as given, commas and all),
// are stored as stdin32[NAME];seed=S and compared as two configurations of two seeds.
TEST(Cli, NamedStdinGeneratorsWithSeedsAreComparedAsTwoConfigurations)
{
    const std::string db = fresh("cli_named_streams.sqlite");
    const std::string bin = RNGVET_BINARY;
    struct Piped {
        const char* producer; // rngvet generate's configuration
        const char* name;
        const char* seed;
    };
    const Piped runs[] = {
        { "--generator mt19937 --seed 1", "mt", "1" },
        { "--generator mt19937 --seed 2", "mt", "2" },
        { "--generator ranmar48 --seed 1802,9373", "ranmar-x.48", "1802,9373" },
        { "--generator ranmar48 --seed 1802,9374", "ranmar-x.48", "1802,9374" },
    };
    for (const Piped& p : runs) {
        const Result r = run_rngvet(std::string("generate ") + p.producer
            + " --count inf --format u32 | " + bin + " run --generator stdin32 --name " + p.name
            + " --seed " + p.seed + " --battery smallcrush --tests 1 --db " + db);
        ASSERT_EQ(r.status, 0) << r.err;
    }
    rngvet::Store store(db);
    const auto stored = store.runs();
    ASSERT_EQ(stored.size(), 4u);
    for (std::size_t i = 0; i < stored.size(); ++i) {
        EXPECT_EQ(stored[i].generator, "stdin32");
        EXPECT_EQ(stored[i].seed, runs[i].seed);
        EXPECT_EQ(
            stored[i].config, "stdin32[" + std::string(runs[i].name) + "];seed=" + runs[i].seed);
    }
    const Result report = run_rngvet("report --compare --db " + db);
    ASSERT_EQ(report.status, 0) << report.err;
    EXPECT_NE(report.out.find("stdin32[mt];seed=*"), std::string::npos) << report.out;
    EXPECT_NE(report.out.find("stdin32[ranmar-x.48];seed=*"), std::string::npos) << report.out;
    EXPECT_NE(report.out.find("2 (1; 2)"), std::string::npos) << report.out;
    EXPECT_NE(report.out.find("2 (1802,9373; 1802,9374)"), std::string::npos) << report.out;
    EXPECT_EQ(report.out.find("already counted"), std::string::npos) << report.out;

    // --name belongs to external streams, and holds only what a canonical name can.
    for (const char* bad :
        { "run --generator ranmar48 --seed 1802,9373 --name x",
            "run --generator stdin32 --name 'a b'", "run --generator stdin32 --name 'a]'",
            "run --generator stdin32 --seed 'x;view=low32'", "run --generator stdin32 --seed -" }) {
        const Result refused = run_rngvet(std::string(bad) + " --db " + db + " </dev/null");
        EXPECT_EQ(refused.status, 2) << bad << ": " << refused.err;
        EXPECT_EQ(count_lines(refused.err), 1) << bad << ": " << refused.err;
    }
    EXPECT_EQ(rngvet::Store(db).runs().size(), 4u);
}

// SplitMix64 outputs (Steele, Lea & Flood 2014) as a known 64-bit stream.
std::vector<std::uint64_t> splitmix64_words(std::size_t n)
{
    std::vector<std::uint64_t> out;
    std::uint64_t x = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        out.push_back(z ^ (z >> 31));
    }
    return out;
}

// The words as stdin64 and file64: read them: 8 bytes each, little-endian.
void write_le64(const std::string& path, const std::vector<std::uint64_t>& words)
{
    std::string bytes;
    for (std::uint64_t w : words)
        for (int k = 0; k < 8; ++k)
            bytes += static_cast<char>((w >> (8 * k)) & 0xff);
    std::ofstream(path, std::ios::binary) << bytes;
}

// A 64-bit stream read through stdin64 and file64: is its high halves by default (top32), its
// low halves with --view low32 and both, high first, with --view packed: bit for bit the
// halves of the words written, as the 32-bit words TestU01 would read.
TEST(Cli, SixtyFourBitStreamsAreReadAsTheirHalves)
{
    const std::vector<std::uint64_t> words = splitmix64_words(1000);
    const std::string file = fresh("cli_sm64.bin");
    write_le64(file, words);
    std::ostringstream high, low, packed;
    for (std::uint64_t w : words) {
        high << (w >> 32) << "\n";
        low << (w & 0xffffffffu) << "\n";
        packed << (w >> 32) << "\n" << (w & 0xffffffffu) << "\n";
    }
    for (const std::string& source : { "--generator file64:" + file,
             "--generator stdin64 --name splitmix64 --seed 0 <" + file }) {
        const std::string g = "generate --format text-u32 " + source;
        const Result top = run_rngvet(g + " --count 1000");
        ASSERT_EQ(top.status, 0) << top.err;
        EXPECT_EQ(top.out, high.str()) << source;
        const Result bottom = run_rngvet(g + " --count 1000 --view low32");
        ASSERT_EQ(bottom.status, 0) << bottom.err;
        EXPECT_EQ(bottom.out, low.str()) << source;
        const Result both = run_rngvet(g + " --count 2000 --view packed");
        ASSERT_EQ(both.status, 0) << both.err;
        EXPECT_EQ(both.out, packed.str()) << source;
    }
    // --skip counts the view's words: two packed words are one 64-bit word.
    const Result skipped = run_rngvet("generate --format text-u32 --generator file64:" + file
        + " --view packed --skip 3 --count 1");
    ASSERT_EQ(skipped.status, 0) << skipped.err;
    EXPECT_EQ(skipped.out, std::to_string(words[1] & 0xffffffffu) + "\n");

    // A run stores the named configuration with its view, and resumes from the path its
    // generator column records.
    const std::string db = fresh("cli_sm64.sqlite");
    const Result run = run_rngvet("run --generator file64:" + file
        + " --name splitmix64 --seed 0 --view low32 --battery 'mcpi(points=100,reps=2)' --db "
        + db);
    ASSERT_EQ(run.status, 0) << run.err;
    rngvet::Store store(db);
    ASSERT_EQ(store.runs().size(), 1u);
    const auto r = store.runs()[0];
    EXPECT_EQ(r.config, "file64[splitmix64];seed=0;view=low32");
    EXPECT_EQ(r.generator, "file64:" + file);
    EXPECT_EQ(r.seed, "0");
    EXPECT_EQ(r.resolution_bits, 32);
    EXPECT_EQ(r.status, rngvet::RunStatus::complete);
}

// A 64-bit file that ends in the middle of a word is refused before anything is stored (a
// 32-bit file: alike); a 64-bit stream that ends there fails its run, saying so.
TEST(Cli, StreamsThatEndInTheMiddleOfAWordAreErrors)
{
    const std::string db = fresh("cli_midword.sqlite");
    const std::string twelve = fresh("cli_midword12.bin");
    const std::string six = fresh("cli_midword6.bin");
    std::ofstream(twelve) << "abcdefghijkl";
    std::ofstream(six) << "abcdef";
    const Result wide = run_rngvet("run --generator file64:" + twelve + " --db " + db);
    EXPECT_EQ(wide.status, 2);
    EXPECT_EQ(count_lines(wide.err), 1) << wide.err;
    EXPECT_NE(wide.err.find("ends in the middle of a 64-bit word (12 bytes: 1 words and 4 bytes)"),
        std::string::npos)
        << wide.err;
    const Result narrow = run_rngvet("run --generator file:" + six + " --db " + db);
    EXPECT_EQ(narrow.status, 2);
    EXPECT_EQ(count_lines(narrow.err), 1) << narrow.err;
    EXPECT_NE(narrow.err.find("ends in the middle of a 32-bit word"), std::string::npos)
        << narrow.err;
    EXPECT_TRUE(rngvet::Store(db).runs().empty());

    const Result piped = run_rngvet("run --generator stdin64 --db " + db + " <" + twelve);
    EXPECT_EQ(piped.status, 1) << piped.err;
    EXPECT_NE(piped.err.find("ended in the middle of a 64-bit word (after 1 words and 4 more "
                             "bytes)"),
        std::string::npos)
        << piped.err;
    rngvet::Store store(db);
    ASSERT_EQ(store.runs().size(), 1u);
    EXPECT_EQ(store.runs()[0].status, rngvet::RunStatus::failed);
    EXPECT_TRUE(store.statistics(store.runs()[0].run_id).empty());

    const Result generated
        = run_rngvet("generate --generator file64:" + twelve + " --count 2 --format text-u32");
    EXPECT_NE(generated.status, 0);
    EXPECT_NE(generated.err.find("in the middle of a 64-bit word"), std::string::npos)
        << generated.err;
}

TEST(Cli, GenerateWritesEveryFormatOfTheSameNumbers)
{
    const std::string base = testing::TempDir() + "gen";
    const std::string config = "generate --generator ranmar24 --seed 1802,9373 --count 5";
    ASSERT_EQ(run_rngvet(config + " --format u32 --out " + base + ".u32").status, 0);
    ASSERT_EQ(run_rngvet(config + " --format text-u32 --out " + base + ".txt").status, 0);
    ASSERT_EQ(run_rngvet(config + " --format text-double --out " + base + ".dtxt").status, 0);
    const std::string raw = slurp(base + ".u32");
    ASSERT_EQ(raw.size(), 20u);
    // James (1990): the first output is 0.11639106273651123 (the known-answer table's first
    // ranmar24 value times 2^-24); GetBits is x << 8.
    const auto first = static_cast<std::uint32_t>(
        rngvet_test::known_answer("ranmar24", "1802,9373").values.at(0));
    const auto* b = reinterpret_cast<const unsigned char*>(raw.data());
    EXPECT_EQ(b[0] | b[1] << 8 | b[2] << 16 | static_cast<std::uint32_t>(b[3]) << 24, first << 8);
    EXPECT_EQ(slurp(base + ".txt").substr(0, 10), std::to_string(first << 8) + "\n");
    EXPECT_EQ(std::strtod("0.11639106273651123", nullptr) * 0x1p24, first);
    EXPECT_EQ(slurp(base + ".dtxt").substr(0, 20), "0.11639106273651123\n");
    const Result head = run_rngvet(
        "generate --generator ranmar48 --seed 1,2 --count inf | head -c 100 >/dev/null");
    EXPECT_EQ(head.status, 0) << head.err;
    EXPECT_EQ(head.err, "");
}

// RANMAR's one-number seed IJKL (CERNLIB's and CORSIKA's) is the IJ,KL it splits into: the same
// numbers, and a run stores the same configuration, seed and options under either spelling.
TEST(Cli, RanmarIjklSeedIsItsIjKlPair)
{
    // 54217137 = 1802 * 30082 + 9373.
    for (const char* g : { "ranmar24", "ranmar48", "ranmar48x" }) {
        const std::string generate
            = std::string("generate --generator ") + g + " --count 1000 --format text-u32 --seed ";
        const Result ijkl = run_rngvet(generate + "54217137");
        const Result pair = run_rngvet(generate + "1802,9373");
        ASSERT_EQ(ijkl.status, 0) << ijkl.err;
        ASSERT_EQ(pair.status, 0) << pair.err;
        EXPECT_EQ(count_lines(ijkl.out), 1000);
        EXPECT_EQ(ijkl.out, pair.out) << g;
    }
    const std::string db = fresh("cli_ijkl.sqlite");
    for (const char* seed : { "54217137", "1802,9373" })
        ASSERT_EQ(run_rngvet(std::string("run --generator ranmar48 --seed ") + seed
                      + " --battery smallcrush --tests 1 --db " + db)
                      .status,
            0);
    const auto runs = rngvet::Store(db).runs();
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs) {
        EXPECT_EQ(run.config, "ranmar48/1/single/increment/1802,9373");
        EXPECT_EQ(run.seed, "1802,9373");
        EXPECT_NE(run.options.find("--seed\n1802,9373\n"), std::string::npos) << run.options;
    }
    // The largest IJKL is 29918,6724; one more is refused.
    const Result top = run_rngvet("generate --generator ranmar24 --seed 900000000 --count 3 "
                                  "--format text-u32");
    const Result top_pair = run_rngvet("generate --generator ranmar24 --seed 29918,6724 "
                                       "--count 3 --format text-u32");
    EXPECT_EQ(top.status, 0) << top.err;
    EXPECT_EQ(top.out, top_pair.out);
    expect_refused("run --generator ranmar48x --seed 900000001 --db " + db, db, "0..900000000");
}

// rngvet run --seeds N: N stored runs on the series of docs/findings.md, the exit status the
// worst of them; refused with a resumed run, an external stream and a key array.
TEST(Cli, RunSeedsStoresOneRunPerSeedOfTheSeries)
{
    const std::string db = fresh("cli_seeds.sqlite");
    const Result ranmar = run_rngvet(
        "run --generator ranmar24 --seeds 3 --battery smallcrush --tests 1 --db " + db);
    ASSERT_EQ(ranmar.status, 0) << ranmar.err;
    EXPECT_NE(ranmar.out.find("runs 1, 2, 3 in"), std::string::npos) << ranmar.out;
    const Result mt = run_rngvet(
        "run --generator mt19937 --seed 777 --seeds 2 --battery smallcrush --tests 1 --db " + db);
    ASSERT_EQ(mt.status, 0) << mt.err;
    // IJKL 100937154 is 3355,12044, the series' second seed, so its run counts on from there.
    const Result ijkl = run_rngvet(
        "run --generator ranmar24 --seed 100937154 --seeds 2 --battery smallcrush --tests 1 "
        "--db "
        + db);
    ASSERT_EQ(ijkl.status, 0) << ijkl.err;
    std::vector<std::string> seeds;
    for (const auto& run : rngvet::Store(db).runs()) {
        seeds.push_back(run.seed);
        EXPECT_EQ(run.status, rngvet::RunStatus::complete);
        EXPECT_EQ(run.config.substr(0, run.config.rfind('/') + 1),
            run.seed.find(',') == std::string::npos ? "mt19937/1/single/increment/"
                                                    : "ranmar24/1/single/increment/");
    }
    EXPECT_EQ(seeds,
        (std::vector<std::string>{
            "1802,9373", "3355,12044", "4908,14715", "777", "778", "3355,12044", "4908,14715" }));

    expect_refused("run --resume 1 --seeds 2 --db " + db, db, "--resume");
    expect_refused("run --generator stdin32 --seeds 2 --db " + db, db, "stdin32");
    expect_refused("run --generator stdin64 --seeds 2 --db " + db, db, "stdin64");
    expect_refused("run --generator mt19937 --seed 1,2,3 --seeds 2 --db " + db, db, "1,2,3");
    expect_refused("run --generator mt19937 --seeds 0 --db " + db, db, "1..100000");
    // The last seed of the series is checked before the first run starts.
    expect_refused(
        "run --generator mt19937 --seed 4294967295 --seeds 2 --db " + db, db, "4294967296");
}

// The worst exit status: a tripped --fail-on on every run gives 3.
TEST(Cli, RunSeedsGivesTheGateStatusWhenEveryRunTripsIt)
{
    const std::string db = fresh("cli_seeds_gate.sqlite");
    // ranmar24's 24 bits fail BirthdaySpacings on every seed.
    const Result r = run_rngvet("run --generator ranmar24 --seeds 2 --battery smallcrush "
                                "--tests 1 --fail-on fail --db "
        + db);
    EXPECT_EQ(r.status, 3) << r.err;
    EXPECT_EQ(rngvet::Store(db).runs().size(), 2u);
}

TEST(Cli, BadParameterFilesAreRefusedWithOneLine)
{
    const std::string db = fresh("cli_params.sqlite");
    rngvet::Store{ db };
    const std::string truncated = testing::TempDir() + "truncated.dat";
    {
        std::ofstream f(truncated, std::ios::binary);
        f << std::string(100, '\x01'); // not a multiple of 16 bytes
    }
    expect_refused(
        "run --generator mtdc --params " + truncated + " --seed 1 --db " + db, db, "truncated.dat");
    const std::string malformed = testing::TempDir() + "malformed.txt";
    std::ofstream(malformed) << "p=521 w=32\n0 zzzz 1 2\n";
    expect_refused(
        "run --generator mtdc --params " + malformed + " --seed 1 --db " + db, db, "malformed.txt");
    expect_refused("run --generator mtdc --params fixstars-mt521 --seed 1 --instances 40 --layout "
                   "interleave --db "
            + db,
        db, "32 sets");
}

TEST(Cli, DcVerifyPassesTheBookTableAndFailsAnAlteredSet)
{
    EXPECT_EQ(run_rngvet("dc verify fixstars-mt521").status, 0);
    std::string table = slurp(std::string(RNGVET_DATA_DIR) + "/mt521_fixstars32.txt");
    const auto at = table.find("\n3 c2ae2083");
    ASSERT_NE(at, std::string::npos);
    table.replace(at + 3, 8, "c2ae2183"); // one bit of set 3's aaa flipped
    const std::string altered = testing::TempDir() + "altered.txt";
    std::ofstream(altered) << table;
    const Result r = run_rngvet("dc verify " + altered);
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("set 3"), std::string::npos) << r.out << r.err;

    const std::string created = testing::TempDir() + "created.txt";
    ASSERT_EQ(run_rngvet("dc create --p 521 --count 2 --seed 4172 --out " + created).status, 0);
    EXPECT_EQ(run_rngvet("dc verify " + created).status, 0);
}

// dcmt 0.6.1's own sets (tests/data/dcmt_0.6.1_sets.txt), the header's provenance, the report's
// comparison with dcmt, and one-line input errors that never wrap negative numbers.
TEST(Cli, DcCreateCompatWritesDcmtSetsAndVerifyNamesTheCreator)
{
    const std::string made = testing::TempDir() + "dcmt_compat.txt";
    ASSERT_EQ(
        run_rngvet("dc create --p 521 --count 2 --seed 4172 --compat dcmt-0.6.1 --out " + made)
            .status,
        0);
    const std::string text = slurp(made);
    EXPECT_NE(text.find("creator=dcmt-0.6.1 dc_seed=4172"), std::string::npos) << text;
    EXPECT_NE(text.find("\n0 e84e0000 f4f2db80 ff770000"), std::string::npos) << text;
    EXPECT_NE(text.find("\n1 916b0001 77353b80 ffe50000"), std::string::npos) << text;
    const Result v = run_rngvet("dc verify --verbose " + made);
    EXPECT_EQ(v.status, 0) << v.out << v.err;
    EXPECT_NE(v.out.find("creator:        dcmt-0.6.1, DC seed 4172"), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("dcmt 0.6.1 for p=521 (32 sets"), std::string::npos) << v.out;
    for (const char* bad :
        { "dc create --p 521 --count 2 --seed -1", "dc create --p 521 --count -2 --seed 1",
            "dc create --p 521 --count 2 --seed 1 --start-id -1",
            "dc create --p 521 --count 2 --seed 4294967296",
            "dc create --p 521 --count 2 --seed 1 --compat dcmt-0.5",
            "dc create --p 523 --count 2 --seed 1", "dc verify fixstars-mt521 --max-defect -1",
            "dc verify fixstars-mt521 --threads -3" }) {
        const Result r = run_rngvet(bad);
        EXPECT_EQ(r.status, 2) << bad << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << bad << ": " << r.err;
    }
}

} // namespace

namespace {

// The comparison across seeds through the command line: markdown plus the SVG plots beside it.
TEST(Cli, ReportComparesSeedsAndWritesItsPlotsBesideTheMarkdown)
{
    const std::string db = fresh("cli_compare.sqlite");
    for (const char* seed : { "1802,9373", "17,42", "5,5" })
        ASSERT_EQ(run_rngvet("run --generator ranmar24 --seed " + std::string(seed)
                      + " --tests 1,7,8 --jobs 2 --db " + db)
                      .status,
            0);
    const std::string dir = testing::TempDir() + "cli_compare_out";
    std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str());
    const Result r = run_rngvet("report --compare --db " + db + " --out " + dir + "/report.md");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string md = slurp(dir + "/report.md");
    EXPECT_NE(md.find("ranmar24/1/single/increment/*"), std::string::npos) << md.substr(0, 2000);
    EXPECT_NE(md.find("3 seeds"), std::string::npos) << md.substr(0, 2000);
    const std::string svg = slurp(dir + "/report-heatmap-smallcrush.svg");
    EXPECT_EQ(svg.rfind("<svg", 0), 0u) << "heat map missing or malformed";
    EXPECT_NE(md.find("report-heatmap-smallcrush.svg"), std::string::npos);
}

} // namespace
