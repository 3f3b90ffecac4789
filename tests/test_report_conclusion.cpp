// The report's conclusion and what supports it: "What to conclude" generated from stores with
// different batteries, seed counts and views; the start check of rngvet validate stored (schema
// 6) and shown; a campaign's report compact unless --runs; the p-value histograms of the
// passing configurations, and a sentence where nothing is suspect.
#include "generators/configuration.hpp"
#include "reports/compare.hpp"
#include "reports/conclusion.hpp"
#include "reports/report.hpp"
#include "reports/store.hpp"
#include "reports/svg.hpp"
#include "tests/support.hpp"
#include "validators/checks.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace rngvet {
namespace {

using rngvet_test::fresh;
using rngvet_test::run_rngvet;

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

// The text between a heading and the next heading of the same or a higher level.
std::string section(const std::string& md, const std::string& heading)
{
    const auto at = md.find(heading + "\n");
    if (at == std::string::npos) return "";
    const std::string level = heading.substr(0, heading.find(' ') + 1); // "## "
    auto end = md.find("\n" + level, at + heading.size());
    if (level == "### ") end = std::min(end, md.find("\n## ", at + heading.size()));
    return md.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// The stored options of a configuration, as rngvet run writes them (one word per line).
std::string options_of(const std::string& generator, const std::string& seed, int instances = 1,
    const std::string& layout = "", const std::string& view = "top32")
{
    std::string o = "--generator\n" + generator + "\n--seed\n" + seed + "\n--instances\n"
        + std::to_string(instances) + "\n";
    if (!layout.empty()) o += "--layout\n" + layout + "\n";
    o += "--seeding\nincrement\n--zero\nkeep\n--skip\n0\n--backend\ncpu\n";
    if (view != "top32") o += "--view\n" + view + "\n";
    return o;
}

const char* const ranmar_seeds[]
    = { "1802,9373", "3355,12044", "4908,14715", "6461,17386", "8014,20057" };

// 15 statistics of tests 1..10 with p-values spread inside (0.05, 0.95); `bad` (a statistic
// index) gets p = `bad_p` instead.
std::vector<StatisticRecord> statistics(int seed, int bad = 0, double bad_p = 0)
{
    std::vector<StatisticRecord> s;
    const int tests[] = { 1, 2, 3, 4, 5, 6, 6, 7, 8, 9, 10, 10, 10, 10, 10 };
    for (int i = 1; i <= 15; ++i) {
        const double p = 0.05 + 0.9 * (((i * 7 + seed * 3) % 15) + 0.5) / 15.0;
        s.push_back({ i, tests[i - 1], "Stat" + std::to_string(i), i == bad ? bad_p : p });
    }
    return s;
}

// Stores `seeds` runs of one configuration through `battery`.
void store_runs(Store& store, const std::string& generator, int bits, const std::string& battery,
    int seeds, int instances = 1, const std::string& layout = "", const std::string& view = "top32",
    int bad = 0, double bad_p = 0)
{
    for (int k = 0; k < seeds; ++k) {
        const std::string seed = ranmar_seeds[k];
        std::string config = generator + "/" + std::to_string(instances) + "/"
            + (layout.empty() ? (instances == 1 ? "single" : "interleave") : layout) + "/increment/"
            + seed;
        if (view != "top32") config += ";view=" + view;
        RunRecord r = rngvet_test::run_record(generator, config, seed, view == "top32" ? bits : 32);
        r.battery = battery;
        r.finished_at = "2026-01-01T00:00:02Z";
        r.options = options_of(generator, seed, instances, layout, view);
        store.insert_run(r, statistics(k, bad, bad_p));
    }
}

std::string conclusion_of(const std::string& path)
{
    Store store(path, Store::Access::read_only);
    const std::string md = render_report(store, path, {});
    const std::string c = section(md, "## What to conclude");
    EXPECT_FALSE(c.empty()) << md;
    EXPECT_EQ(md.find("## What to conclude"), md.find("\n## ") + 1)
        << "the conclusion is the report's first section";
    return c;
}

TEST(Conclusion, SmallCrushOnOneSeedCannotCertifyAndProposesCrush)
{
    const std::string path = fresh("conclude_smallcrush.sqlite");
    {
        Store store(path);
        store_runs(store, "ranmar48", 48, "smallcrush", 1);
    }
    const std::string c = conclusion_of(path);
    EXPECT_TRUE(contains(c, "SmallCrush (C1) on 1 seed: sound")) << c;
    EXPECT_TRUE(contains(c, "cannot certify a configuration that passes it")) << c;
    EXPECT_TRUE(contains(c,
        "TestU01 read the top 32 of the generator's 48 bits (view top32): bits 33-48 (the low 16) "
        "were never read"))
        << c;
    EXPECT_TRUE(contains(c, "One seed: run more seeds")) << c;
    EXPECT_TRUE(contains(
        c, "`rngvet run --generator ranmar48 --seed 1802,9373 --battery crush --db " + path + "`"))
        << c;
    EXPECT_TRUE(contains(c, "1 of the verdicts rests on a single seed")) << c;
}

TEST(Conclusion, BigCrushOnOneSeedIsOneObservationAndAsksForMoreSeeds)
{
    const std::string path = fresh("conclude_bigcrush.sqlite");
    {
        Store store(path);
        store_runs(store, "ranmar48", 48, "bigcrush", 1);
    }
    const std::string c = conclusion_of(path);
    EXPECT_TRUE(contains(c, "BigCrush (C1) on 1 seed: sound")) << c;
    EXPECT_TRUE(contains(c, "a BigCrush pass on one seed is one observation")) << c;
    EXPECT_FALSE(contains(c, "cannot certify a configuration")) << c;
    // Two further seeds by the rule of docs/findings.md, the configuration's own options.
    EXPECT_TRUE(contains(c,
        "`for seed in 3355,12044 4908,14715; do rngvet run --generator ranmar48 --seed \"$seed\" "
        "--battery bigcrush --db "
            + path + "; done`"))
        << c;
}

TEST(Conclusion, APackedViewOnThreeSeedsNamesItsBitsAndItsSeeds)
{
    const std::string path = fresh("conclude_packed.sqlite");
    {
        Store store(path);
        store_runs(store, "ranmar48", 48, "crush", 3, 1, "", "packed");
    }
    const std::string c = conclusion_of(path);
    EXPECT_TRUE(contains(c, "Crush (C1) on 3 seeds: sound")) << c;
    EXPECT_TRUE(contains(
        c, "every one of the generator's 48 bits, concatenated into 32-bit words (view packed)"))
        << c;
    EXPECT_TRUE(contains(c, "3 seeds: each statistic's p-values")) << c;
    EXPECT_FALSE(contains(c, "One seed")) << c;
    EXPECT_TRUE(contains(c,
        "`rngvet run --generator ranmar48 --seed 1802,9373 --view packed --battery bigcrush --db "
            + path + "`"))
        << c;
}

TEST(Conclusion, AFailureOnOneSeedIsADefectToConfirmOnMoreSeeds)
{
    const std::string path = fresh("conclude_defect.sqlite");
    {
        Store store(path);
        store_runs(store, "ranmar24", 24, "smallcrush", 1, 1, "", "low32", 2, 1e-300);
        store_runs(store, "ranmar48x", 48, "smallcrush", 2);
    }
    const std::string c = conclusion_of(path);
    EXPECT_TRUE(contains(c, "Of 2 configurations in this database, 1 shows a defect")) << c;
    EXPECT_TRUE(contains(c, "Defect shown by SmallCrush: fails Stat2 (test 2) on 1/1 seed")) << c;
    EXPECT_TRUE(contains(c, "It rests on one seed")) << c;
    EXPECT_TRUE(contains(c,
        "the generator's 24 bits with 8 constant high bits in each word "
        "(view low32)"))
        << c;
    EXPECT_TRUE(contains(c,
        "`for seed in 3355,12044 4908,14715; do rngvet run --generator ranmar24 --seed \"$seed\" "
        "--view low32 --battery smallcrush --db "))
        << c;
    // The other configuration: two seeds, too few for the second-level tests.
    EXPECT_TRUE(contains(c, "2 seeds: too few for the second-level uniformity tests")) << c;
}

// A run that did not reach the failing statistic: the defect rests on the seeds that ran it.
TEST(Conclusion, ADefectRestsOnTheSeedsItsStatisticRanOn)
{
    const std::string path = fresh("conclude_partial.sqlite");
    {
        Store store(path);
        store_runs(store, "mt19937", 32, "crush", 1, 1, "", "top32", 15, 1.0);
        RunRecord r
            = rngvet_test::run_record("mt19937", "mt19937/1/single/increment/778", "778", 32);
        r.battery = "crush";
        r.status = RunStatus::interrupted;
        r.options = options_of("mt19937", "778");
        std::vector<StatisticRecord> first = statistics(1);
        first.resize(10);
        store.insert_run(r, first);
    }
    // The seeds: a key array (1802,9373) and 778; further ones count up from the largest.
    const std::string c = conclusion_of(path);
    EXPECT_TRUE(contains(c, "Crush (C1) on 2 seeds: defective")) << c;
    EXPECT_TRUE(contains(c, "It rests on one seed")) << c;
    EXPECT_FALSE(contains(c, "several seeds")) << c;
    EXPECT_TRUE(contains(c, "1 of the verdicts rests on a single seed")) << c;
    EXPECT_TRUE(contains(c,
        "Next, 2 more seeds of Crush: `for seed in 779 780; do rngvet run "
        "--generator mt19937 --seed \"$seed\" --battery crush --db "))
        << c;
}

TEST(Conclusion, CommandWordsAndSeedsFollowTheStoredConfiguration)
{
    EXPECT_EQ(configuration_arguments(options_of("mtdc", "777", 32, "block:1000")),
        "--generator mtdc --seed 777 --instances 32 --layout block:1000");
    EXPECT_EQ(configuration_arguments("--generator\nfile:my data.bin\n"),
        "--generator 'file:my data.bin'");
    EXPECT_EQ(
        further_seeds("mt19937", { "5489", "7" }, 2), (std::vector<std::string>{ "5490", "5491" }));
    EXPECT_EQ(further_seeds("ranmar48", { "1802,9373", "4908,14715" }, 2),
        (std::vector<std::string>{ "3355,12044", "6461,17386" }));
    EXPECT_TRUE(further_seeds("stdin32", { "" }, 2).empty());
    EXPECT_EQ(bits_read_text("ranmar24", "ranmar24/1/single/increment/1,2"),
        "the generator's 24 bits, placed at the top of 32-bit words whose low 8 bits are "
        "constant (view top32): statistics reading beyond bit 24 fail as expected");
    EXPECT_EQ(bits_read_text("mt19937", "mt19937/1/single/increment/5489;view=low32"),
        "all 32 bits of each output (view low32)");
}

// --- The start check ---------------------------------------------------------------------------

TEST(StartCheck, ValidateStoresTheFiguresOfTheCheckAndTheReportShowsThem)
{
    const std::string path = fresh("conclude_start.sqlite");
    const auto r = run_rngvet("validate --generator ranmar48 --seed 1802,9373 --instances 8 "
                              "--layout interleave --quiet --db "
        + path);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "1 start check stored in " + path)) << r.out;
    std::vector<StartCheckRecord> checks;
    {
        Store store(path);
        checks = store.start_checks();
        store_runs(store, "ranmar48", 48, "smallcrush", 1, 8, "interleave");
        store_runs(store, "ranmar48x", 48, "smallcrush", 1, 8, "interleave");
    }
    ASSERT_EQ(checks.size(), 1u);
    const StartCheckRecord& s = checks.front();
    EXPECT_EQ(s.config, "ranmar48/8/interleave/increment/1802,9373");
    // The figures are those of the check itself.
    const StartCorrelation direct = start_correlation(parse_canonical_name(s.config));
    EXPECT_EQ(s.pairs, 7);
    EXPECT_EQ(s.steps, direct.steps);
    EXPECT_EQ(s.bits, direct.bits);
    EXPECT_DOUBLE_EQ(s.agreement, direct.agreement);
    EXPECT_DOUBLE_EQ(s.z, direct.z);
    EXPECT_DOUBLE_EQ(s.worst_p, direct.worst_p);
    EXPECT_EQ(s.passed, direct.p >= 0.001 && direct.worst_p >= 0.001);
    EXPECT_TRUE(contains(s.command_line, "validate --generator ranmar48")) << s.command_line;

    Store store(path, Store::Access::read_only);
    const std::string md = render_report(store, path, {});
    char z[32];
    std::snprintf(z, sizeof z, "z = %.2f", direct.z);
    const std::string table = section(md, "## Start checks");
    EXPECT_TRUE(contains(table, "| `ranmar48/8/interleave/increment/1802,9373` |")) << table;
    EXPECT_TRUE(contains(table, "| 32 x 2048 x 7 |")) << table;
    const std::string c = section(md, "## What to conclude");
    EXPECT_TRUE(
        contains(c, "Start check (rngvet validate, `ranmar48/8/interleave/increment/1802,9373`)"))
        << c;
    EXPECT_TRUE(contains(c, z)) << c;
    // The configuration without one is told how to get it.
    EXPECT_TRUE(contains(c,
        "No start check of its 8 instances is stored: `rngvet validate --generator ranmar48x "
        "--seed 1802,9373 --instances 8 --layout interleave --db "
            + path + "` adds it"))
        << c;
}

TEST(StartCheck, ASchemaFiveStoreGainsTheTableAndKeepsItsRuns)
{
    const std::string path = fresh("conclude_schema5.sqlite");
    {
        Store store(path);
        store_runs(store, "ranmar48", 48, "smallcrush", 2);
    }
    // What a store written before the start checks looked like.
    rngvet_test::sql_write(path, "DROP TABLE start_checks; PRAGMA user_version = 5");
    EXPECT_THROW(Store(path, Store::Access::read_only), InputError);
    Store store(path);
    EXPECT_EQ(store.schema_version(), 6);
    EXPECT_EQ(store.runs().size(), 2u);
    EXPECT_EQ(store.statistics(store.runs().front().run_id).size(), 15u);
    EXPECT_TRUE(store.start_checks().empty());
    StartCheckRecord s;
    s.config = "ranmar48/8/interleave/increment/1802,9373";
    s.pairs = 7;
    s.steps = 2048;
    s.checked_at = "2026-01-01T00:00:00Z";
    store.insert_start_check(s);
    EXPECT_EQ(store.start_checks().size(), 1u);
}

TEST(StartCheck, ValidateRefusesDbWithTheNativeEngineCheck)
{
    const std::string path = fresh("conclude_native.sqlite");
    const auto r = run_rngvet("validate --engine native --tests 1 --db " + path);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(rngvet_test::count_lines(r.err), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(path));
}

// --- A campaign's report: compact unless --runs -----------------------------------------------

std::string campaign_store(const std::string& name)
{
    const std::string path = fresh(name);
    {
        Store store(path);
        store_runs(store, "ranmar48", 48, "smallcrush", 5);
        store_runs(store, "ranmar48x", 48, "smallcrush", 5);
    }
    rngvet_test::sql_write(path,
        "INSERT INTO campaign_runs SELECT run_id, 'c', CASE generator WHEN 'ranmar48' THEN "
        "'rm48-single' ELSE 'rm48x-single' END, seed FROM runs");
    return path;
}

TEST(CompactReport, ACampaignReportLeavesTheRunsOutUnlessAsked)
{
    const std::string path = campaign_store("conclude_campaign.sqlite");
    Store store(path, Store::Access::read_only);
    const std::string compact = render_validation_report(store, path, {}, {}).markdown;
    ReportOptions with_runs;
    with_runs.runs = true;
    const std::string full = render_validation_report(store, path, {}, with_runs).markdown;

    EXPECT_FALSE(contains(compact, "## Run 1:")) << compact;
    EXPECT_FALSE(contains(compact, "### All p-values"));
    EXPECT_TRUE(contains(compact, "`rngvet report --runs` adds one section per run")) << compact;
    for (int id = 1; id <= 10; ++id)
        EXPECT_TRUE(contains(full, "## Run " + std::to_string(id) + ": ")) << id;
    // Each run's p-values once, after everything else.
    std::size_t dumps = 0;
    for (auto at = full.find("### All p-values"); at != std::string::npos;
         at = full.find("### All p-values", at + 1))
        ++dumps;
    EXPECT_EQ(dumps, 10u);
    EXPECT_GT(full.find("## Appendix: the runs"), full.find("## Comparison across seeds"));
    // Everything of the compact report is in the full one, ahead of the appendix.
    EXPECT_EQ(
        full.substr(0, compact.find("## Runs\n")), compact.substr(0, compact.find("## Runs\n")));
    EXPECT_LT(compact.size() * 2, full.size());
    // The campaign's names label the configurations.
    EXPECT_TRUE(contains(compact, "| C1 | **rm48-single** `ranmar48/1/single/increment/*` |")
        || contains(compact, "| C1 | **rm48x-single** `ranmar48x/1/single/increment/*` |"))
        << compact;
    EXPECT_TRUE(contains(section(compact, "## What to conclude"),
        "- **rm48x-single** `ranmar48x/1/single/increment/*`: "));
}

TEST(CompactReport, TheCommandLineTakesRunsAndRefusesItWithCompare)
{
    const std::string path = campaign_store("conclude_campaign_cli.sqlite");
    const auto compact = run_rngvet("report --db " + path);
    ASSERT_EQ(compact.status, 0) << compact.err;
    EXPECT_FALSE(contains(compact.out, "### All p-values"));
    const auto full = run_rngvet("report --runs --db " + path);
    ASSERT_EQ(full.status, 0) << full.err;
    EXPECT_TRUE(contains(full.out, "### All p-values"));
    const auto both = run_rngvet("report --runs --compare --db " + path);
    EXPECT_EQ(both.status, 2);
    EXPECT_EQ(rngvet_test::count_lines(both.err), 1) << both.err;
}

// --- Histograms of the passing configurations ---------------------------------------------------

TEST(PassingHistograms, CountsAreTheStoredPvaluesBinnedAndNothingSuspectIsSaid)
{
    const std::string path = campaign_store("conclude_hist.sqlite");
    Store store(path, Store::Access::read_only);
    ReportOptions options;
    options.plot_prefix = "r";
    const RenderedReport report = render_validation_report(store, path, {}, options);
    const std::string& md = report.markdown;
    EXPECT_TRUE(contains(section(md, "### p-value histograms"), "there is nothing suspect to plot"))
        << md;
    const std::string passing = section(md, "### p-values of the passing configurations");
    ASSERT_FALSE(passing.empty()) << md;
    const Comparison comparison = compare_runs(store, store.runs());
    ASSERT_EQ(comparison.configurations.size(), 2u);
    for (const ConfigurationSummary& c : comparison.configurations) {
        // Binned here from the stored p-values of the configuration's runs.
        int bins[10] = {};
        int n = 0;
        for (std::int64_t id : c.run_ids)
            for (const StatisticRecord& s : store.statistics(id)) {
                ++bins[std::min(9, static_cast<int>(std::floor(s.pvalue * 10)))];
                ++n;
            }
        std::string row = "| " + c.id + " | " + std::to_string(n) + " |";
        for (int b : bins)
            row += " " + std::to_string(b) + " |";
        EXPECT_TRUE(contains(passing, row)) << row << "\n" << passing;
        // The SVG's bars carry the same counts.
        const std::string name = "r-pass-" + c.id.substr(1) + ".svg";
        const auto file = std::find_if(report.files.begin(), report.files.end(),
            [&](const ReportFile& f) { return f.name == name; });
        ASSERT_NE(file, report.files.end()) << name;
        EXPECT_TRUE(contains(passing, "](" + name + ")"));
        const std::regex bar(R"(<title>(\d+) in \[)");
        std::vector<int> drawn;
        for (auto it = std::sregex_iterator(file->content.begin(), file->content.end(), bar);
             it != std::sregex_iterator(); ++it)
            drawn.push_back(std::stoi((*it)[1]));
        EXPECT_EQ(drawn, std::vector<int>(bins, bins + 10)) << name;
    }
    EXPECT_EQ(histogram_counts({ 0.0, 0.05, 0.1, 0.999, 1.0 }, 10),
        (std::vector<int>{ 2, 1, 0, 0, 0, 0, 0, 0, 0, 2 }));
}

} // namespace
} // namespace rngvet
