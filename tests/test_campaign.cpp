// Campaigns: the file format and its errors, task expansion, shard balance, the task table, the
// merge (idempotent, refusing damaged and foreign task databases without writing anything), and a
// local `rngvet campaign run` that is killed part way and completed by running it again, and one
// stopped by SIGTERM that stops its task in flight; the GPU request of the Slurm script and the
// packing of several tasks into one array task (tasks-per-gpu); the INI reader on its own.
#include "batteries/catalogue.hpp"
#include "campaigns/campaign.hpp"
#include "campaigns/directory.hpp"
#include "campaigns/ini.hpp"
#include "campaigns/merge.hpp"
#include "generators/error.hpp"
#include "generators/sha256.hpp"
#include "reports/schema.hpp"
#include "reports/store.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <numeric>
#include <set>
#include <sqlite3.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rngvet::campaigns {
namespace {

using namespace rngvet_test;

const char* const small_campaign = R"(# two configurations x two seeds x 3 shards
[campaign]
name = small
battery = smallcrush
shards = 3
seeds = 1802,9373 17,42

[configuration single]
generator = ranmar48

[configuration x4]
generator = ranmar48x
instances = 4   # interleaved
layout = interleave

[slurm]
time = 00:10:00
cpus-per-task = 2
)";

std::string expect_error(const std::string& text)
{
    try {
        (void)parse_campaign(text, "c.ini", ".");
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "accepted:\n" << text;
    return "";
}

TEST(CampaignFile, ExpandsConfigurationsTimesSeedsTimesShardsInOrder)
{
    const Campaign c = parse_campaign(small_campaign, "c.ini", ".");
    EXPECT_EQ(c.name, "small");
    EXPECT_EQ(c.slurm.time, "00:10:00");
    EXPECT_EQ(c.slurm.cpus_per_task, 2);
    const auto tasks = expand(c);
    ASSERT_EQ(tasks.size(), 12u);
    const BatteryCatalogue& battery = smallcrush_catalogue();
    double battery_cost = 0;
    for (const auto& t : battery.tests)
        battery_cost += t.cost;
    for (std::size_t pair = 0; pair < 4; ++pair) {
        std::multiset<int> tests;
        double cost = 0;
        for (std::size_t s = 0; s < 3; ++s) {
            const CampaignTask& t = tasks[pair * 3 + s];
            EXPECT_EQ(t.id, static_cast<int>(pair * 3 + s));
            EXPECT_EQ(t.configuration, pair < 2 ? "single" : "x4");
            EXPECT_EQ(t.seed, pair % 2 == 0 ? "1802,9373" : "17,42");
            tests.insert(t.tests.begin(), t.tests.end());
            cost += t.cost;
            // The run arguments name the shard's tests and the configuration's options.
            const auto& a = t.run_arguments;
            const auto tests_at = std::find(a.begin(), a.end(), "--tests");
            ASSERT_NE(tests_at, a.end());
            EXPECT_EQ(*(tests_at + 1), join_ints(t.tests));
            EXPECT_NE(std::find(a.begin(), a.end(), pair < 2 ? "ranmar48" : "ranmar48x"), a.end());
        }
        EXPECT_EQ(tests, (std::multiset<int>{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }))
            << "each test in one shard";
        EXPECT_NEAR(cost, battery_cost, 1e-9);
    }
    EXPECT_EQ(tasks[6].config, "ranmar48x/4/interleave/increment/1802,9373");
}

// A campaign without `engine` leaves each run its battery's default engine (auto for
// SmallCrush); one that names an engine, testu01 included, passes it to every run.
TEST(CampaignFile, EngineIsPassedWhenNamedAndLeftToTheRunsDefaultOtherwise)
{
    for (const std::string engine : { "", "testu01", "auto", "native" }) {
        std::string text = small_campaign;
        if (!engine.empty()) text.replace(text.find("shards = 3"), 0, "engine = " + engine + "\n");
        const Campaign c = parse_campaign(text, "c.ini", ".");
        EXPECT_EQ(c.engine, engine);
        for (const CampaignTask& t : expand(c)) {
            const auto& a = t.run_arguments;
            const auto at = std::find(a.begin(), a.end(), "--engine");
            if (engine.empty()) {
                EXPECT_EQ(at, a.end()) << "task " << t.id;
            } else {
                ASSERT_NE(at, a.end()) << engine << ", task " << t.id;
                EXPECT_EQ(*(at + 1), engine);
            }
        }
    }
}

TEST(CampaignFile, PerConfigurationSeedsRangesAndTestSelection)
{
    const Campaign c
        = parse_campaign("[campaign]\nname = r\nbattery = crush\ntests = 1-4, 10\nshards = 2\n"
                         "seeds = 5 6\n[configuration a]\ngenerator = mt19937\n"
                         "[configuration b]\ngenerator = mt19937\nseeds = 1..4\n",
            "c.ini", ".");
    EXPECT_EQ(c.tests, (std::vector<int>{ 1, 2, 3, 4, 10 }));
    EXPECT_EQ(c.configurations[0].seeds, (std::vector<std::string>{ "5", "6" }));
    EXPECT_EQ(c.configurations[1].seeds, (std::vector<std::string>{ "1", "2", "3", "4" }));
    EXPECT_EQ(expand(c).size(), (2u + 4u) * 2u);
}

// seed-count N: the first N seeds of docs/findings.md's series (the rule of rngvet run --seeds),
// from the one seed given or the generator's default; RANMAR's IJKL is stored as IJ,KL.
TEST(CampaignFile, SeedCountDerivesTheSeriesAndIjklIsItsPair)
{
    const std::string head = "[campaign]\nname = s\nbattery = smallcrush\nseed-count = 3\n";
    const Campaign c = parse_campaign(head
            + "[configuration a]\ngenerator = ranmar48\n"
              "[configuration b]\ngenerator = mt19937\nseeds = 5\n"
              "[configuration c]\ngenerator = ranmar24\nseeds = 54217137\nseed-count = 2\n",
        "c.ini", ".");
    EXPECT_EQ(c.configurations[0].seeds,
        (std::vector<std::string>{ "1802,9373", "3355,12044", "4908,14715" }));
    EXPECT_EQ(c.configurations[1].seeds, (std::vector<std::string>{ "5", "6", "7" }));
    EXPECT_EQ(c.configurations[2].seeds, (std::vector<std::string>{ "1802,9373", "3355,12044" }));
    const std::vector<CampaignTask> tasks = expand(c);
    ASSERT_EQ(tasks.size(), 3u + 3u + 2u);
    EXPECT_EQ(tasks[6].seed, "1802,9373");
    EXPECT_EQ(tasks[6].config, "ranmar24/1/single/increment/1802,9373");
    EXPECT_NE(std::find(tasks[6].run_arguments.begin(), tasks[6].run_arguments.end(), "1802,9373"),
        tasks[6].run_arguments.end());

    const std::string plain = "[campaign]\nname = s\nbattery = smallcrush\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        { plain + "[configuration a]\ngenerator = ranmar48\nseeds = 1 2\nseed-count = 2\n",
            "c.ini:6: [configuration a]: seed-count 2 counts on from one first seed, and 'seeds' "
            "lists 2" },
        { plain + "[configuration a]\ngenerator = mt19937\nseeds = 1,2,3\nseed-count = 2\n",
            "c.ini:6: [configuration a]: seed-count: the seed 1,2,3 is a list" },
        { plain + "[configuration a]\ngenerator = ranmar48\nseed-count = 0\n",
            "c.ini:6: 'seed-count' must be an integer in 1..100000" },
        { plain + "[configuration a]\ngenerator = ranmar48\nseeds = 54217137 1802,9373\n",
            "c.ini:6: [configuration a]: seed 1802,9373 is listed twice" },
        { plain + "[configuration a]\ngenerator = ranmar48\nseeds = 900000001\n", "0..900000000" },
    };
    for (const auto& [text, expected] : cases) {
        const std::string message = expect_error(text);
        EXPECT_NE(message.find(expected), std::string::npos) << "got: " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

TEST(CampaignFile, ErrorsNameTheFileAndLine)
{
    const std::string head = "[campaign]\nname = n\nbattery = smallcrush\nseeds = 1802,9373\n";
    const std::string conf = "[configuration a]\ngenerator = ranmar48\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        { head + conf + "[runs]\n", "c.ini:7: unknown section [runs]" },
        { head + "[configuration a]\ngenerator = ranmar48\ngenrator = x\n",
            "c.ini:7: unknown key 'genrator'" },
        { head + conf + conf, "c.ini:7: configuration 'a' is defined twice (first on line 5)" },
        { "name = n\n", "c.ini:1: 'name' is outside any section" },
        { "[campaign]\nbattery = smallcrush\n" + conf, "c.ini:1: [campaign] needs 'name'" },
        { "[campaign]\nname = n\nbattery = tinycrush\n" + conf, "c.ini:3:" },
        { "[campaign]\nname = n\nbattery = smallcrush\n" + conf,
            "c.ini:4: [configuration a] has no seeds" },
        { head + "[configuration a]\ngenerator = ranmar48\nseeds = 1802,9373 99999,1\n",
            "c.ini:7: [configuration a] with seed 99999,1:" },
        { head + "[configuration a]\ngenerator = ranmar48\nseeds = 1,2 1,2\n",
            "c.ini:7: seed 1,2 is listed twice" },
        { head + "shards = 11\n" + conf, "c.ini:5: 'shards' must be an integer in 1..10" },
        { head + "shards = 2\nshards = 3\n" + conf, "c.ini:6: 'shards' is given twice" },
        { head + conf + "[slurm]\ntime = 10 minutes\n",
            "c.ini:8: 'time' goes into an #SBATCH line" },
        { head + conf + "[slurm]\ntime = 1:2:3:4\n", "c.ini:8: 'time' is a Slurm time" },
        { head + "[configuration a]\ngenerator = stdin32\n",
            "c.ini:5: [configuration a]: a campaign runs" },
        { head + "[configuration a b]\ngenerator = ranmar48\n",
            "c.ini:5: [configuration NAME] needs a name" },
        { head, "c.ini: no [configuration NAME] section" },
        { head + "[configuration a]\ngenerator = mt19937\nseeds = 1..200000\n",
            "more than 100000 seeds" },
        { head + "[configuration a]\ngenerator = ranmar48\ninstances = 0\n",
            "c.ini:7: 'instances' must be" },
        { head + "[configuration a]\ngenerator = ranmar48\nlayout = diagonal\n",
            "c.ini:5: [configuration a] with seed" },
        { head + "[configuration a]\ngenerator\n", "c.ini:6: expected 'key = value'" },
    };
    for (const auto& [text, expected] : cases) {
        const std::string message = expect_error(text);
        EXPECT_NE(message.find(expected), std::string::npos) << "got: " << message << "\nfor:\n"
                                                             << text;
        EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
    }
}

// The INI reader alone: sections with their names and lines, comments (whole lines with '#' or
// ';', and '#' after white space ending a value; a '#' inside a word is kept), values trimmed.
TEST(IniReader, SectionsEntriesCommentsAndLines)
{
    const ini::Reader reader("r.ini");
    const std::string text = "# head\n"
                             "\n"
                             "[campaign]\n"
                             "  name =  n1   # the name\n"
                             "; another comment\n"
                             "tag = a#b\n"
                             "[configuration   fast one ]   # two words\n"
                             "seeds\t=\t1 2\r\n";
    const std::vector<ini::Section> s = reader.sections(text);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].kind, "campaign");
    EXPECT_EQ(s[0].name, "");
    EXPECT_EQ(s[0].line, 3);
    ASSERT_EQ(s[0].entries.size(), 2u);
    EXPECT_EQ(s[0].entries[0].key, "name");
    EXPECT_EQ(s[0].entries[0].value, "n1");
    EXPECT_EQ(s[0].entries[0].line, 4);
    EXPECT_EQ(s[0].entries[1].value, "a#b");
    EXPECT_EQ(s[0].entries[1].line, 6);
    EXPECT_EQ(s[1].kind, "configuration");
    EXPECT_EQ(s[1].name, "fast one");
    EXPECT_EQ(s[1].line, 7);
    ASSERT_EQ(s[1].entries.size(), 1u);
    EXPECT_EQ(s[1].entries[0].key, "seeds");
    EXPECT_EQ(s[1].entries[0].value, "1 2");
    EXPECT_EQ(s[1].entries[0].line, 8);
    EXPECT_TRUE(reader.sections("").empty());
    EXPECT_TRUE(reader.sections("# only\n; comments\n").empty());

    const ini::Entry n{ "shards", "7", 12 };
    EXPECT_EQ(reader.integer(n, 1, 7), 7);
    EXPECT_EQ(reader.integer({ "skip", "-3", 1 }, -3, 0), -3);
}

// Each refusal is one line "FILE:LINE: ...", the whole message as written here.
TEST(IniReader, RefusalsNameTheFileLineAndProblem)
{
    const ini::Reader reader("r.ini");
    auto message = [&](const std::function<void()>& f) -> std::string {
        try {
            f();
        } catch (const InputError& e) {
            return e.what();
        }
        return "(accepted)";
    };
    const std::vector<std::pair<std::string, std::string>> texts = {
        { "[campaign\n", "r.ini:1: a section header ends with ']'" },
        { "[campaign]\n\nname\n", "r.ini:3: expected 'key = value' or '[section]'" },
        { "# c\nname = n\n", "r.ini:2: 'name' is outside any section" },
        { "[campaign]\n = n\n", "r.ini:2: a key is missing before '='" },
        { "[campaign]\nname =   # nothing\n", "r.ini:2: 'name' has no value" },
        { "[campaign]\nname = a\n[slurm]\nname = b\nname = c\n",
            "r.ini:5: 'name' is given twice in this section (first on line 4)" },
    };
    for (const auto& [text, expected] : texts)
        EXPECT_EQ(message([&] { (void)reader.sections(text); }), expected) << text;

    const std::vector<ini::Section> s
        = reader.sections("[configuration a]\ngenerator = x\ncolour = red\n");
    EXPECT_EQ(message([&] {
        reader.known_keys(s[0], { "generator", "seeds" });
    }),
        "r.ini:3: unknown key 'colour' in [configuration a] (valid: generator, seeds)");
    EXPECT_EQ(message([&] { reader.known_keys(s[0], { "generator", "colour" }); }), "(accepted)");
    for (const char* bad : { "8", "0", "1.5", "3x", "", "99999999999999999999" })
        EXPECT_EQ(message([&] {
            (void)reader.integer({ "shards", bad, 9 }, 1, 7);
        }),
            std::string("r.ini:9: 'shards' must be an integer in 1..7, got '") + bad + "'");
}

// Greedy longest-first: every test in exactly one shard, and no shard more than the
// costliest single test above the lightest one (so shards are as even as tests allow).
TEST(CampaignShards, EveryTestOnceAndLoadsWithinTheLargestTest)
{
    for (const BatteryCatalogue* b :
        { &smallcrush_catalogue(), &crush_catalogue(), &bigcrush_catalogue() })
        for (int k : { 1, 2, 3, 7, 10, 16, 106 }) {
            if (static_cast<std::size_t>(k) > b->tests.size()) continue;
            const auto shards = pack_shards(*b, {}, k);
            ASSERT_EQ(shards.size(), static_cast<std::size_t>(k));
            std::vector<int> all;
            std::vector<double> load;
            double largest = 0, total = 0;
            for (const auto& s : shards) {
                ASSERT_FALSE(s.empty());
                EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
                all.insert(all.end(), s.begin(), s.end());
                double l = 0;
                for (int t : s) {
                    l += b->test(t).cost;
                    largest = std::max(largest, b->test(t).cost);
                }
                load.push_back(l);
                total += l;
            }
            std::sort(all.begin(), all.end());
            std::vector<int> expected(b->tests.size());
            std::iota(expected.begin(), expected.end(), 1);
            EXPECT_EQ(all, expected) << b->name << " k=" << k;
            const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
            EXPECT_LE(*hi - *lo, largest + 1e-9) << b->name << " k=" << k;
            // Graham's bound for longest-first: at most 4/3 of the best possible.
            EXPECT_LE(*hi, 4.0 / 3.0 * std::max(total / k, largest) + 1e-9)
                << b->name << " k=" << k;
            EXPECT_NEAR(*hi,
                longest_first_makespan(
                    [&] {
                        std::vector<double> c;
                        for (int t : all)
                            c.push_back(b->test(t).cost);
                        return c;
                    }(),
                    k),
                1e-9);
        }
    EXPECT_THROW(pack_shards(smallcrush_catalogue(), {}, 11), InputError);
    EXPECT_EQ(pack_shards(smallcrush_catalogue(), { 2, 5 }, 2),
        (std::vector<std::vector<int>>{ { 2 }, { 5 } }));
}

TEST(CampaignShards, MakespanOfSimpleCases)
{
    EXPECT_DOUBLE_EQ(longest_first_makespan({ 3, 3, 2, 2, 2 }, 2), 7);
    EXPECT_DOUBLE_EQ(longest_first_makespan({ 5, 1, 1 }, 4), 5);
    EXPECT_DOUBLE_EQ(longest_first_makespan({ 1, 1, 1, 1 }, 1), 4);
}

TEST(CampaignTable, RoundTripsAndRejectsDamage)
{
    const Campaign c = parse_campaign(small_campaign, "c.ini", ".");
    const TaskTable table{ "small-1", "small", "smallcrush", "", expand(c) };
    const std::string path = fresh("tasks.tsv");
    std::ofstream(path) << write_task_table(table);
    const TaskTable back = read_task_table(path);
    EXPECT_EQ(back.campaign_id, "small-1");
    EXPECT_EQ(back.battery, "smallcrush");
    EXPECT_EQ(back.tests_selected, "");
    EXPECT_TRUE(same_tasks(back.tasks, table.tasks));
    auto other = table.tasks;
    other[4].tests.push_back(10);
    EXPECT_FALSE(same_tasks(other, table.tasks));

    std::string text = write_task_table(table);
    text.replace(text.rfind("\n11\t"), 4, "\n12\t");
    std::ofstream(path) << text;
    EXPECT_THROW(read_task_table(path), InputError);
    EXPECT_THROW(read_task_table(fresh("absent.tsv")), InputError);

    // Truncated after its first task row (a full disk, a killed copy): not a 1-task campaign.
    const std::string whole = write_task_table(table);
    const auto first_row_end = whole.find('\n', whole.find("\n0\t") + 1);
    for (const std::string& cut : { whole.substr(0, first_row_end + 1),
             whole.substr(0, whole.rfind("end\t")), whole.substr(0, whole.size() - 5) }) {
        std::ofstream(path, std::ios::trunc) << cut;
        try {
            read_task_table(path);
            ADD_FAILURE() << "a truncated table was read";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
        }
    }
}

// Every cut of the table and a changed byte in every line are refused (the end line's count
// and SHA-256).
TEST(CampaignTable, EveryTruncationAndEveryChangedByteIsRefused)
{
    const Campaign c = parse_campaign(small_campaign, "c.ini", ".");
    const TaskTable table{ "small-1", "small", "smallcrush", "", expand(c) };
    const std::string text = write_task_table(table);
    ASSERT_EQ(text.substr(text.rfind('\n', text.size() - 2) + 1, 7), "end\t12\t");
    const std::string path = fresh("truncated.tsv");
    auto refused = [&](const std::string& content, const std::string& what) {
        std::ofstream(path, std::ios::trunc | std::ios::binary) << content;
        try {
            (void)read_task_table(path);
            ADD_FAILURE() << "read " << what;
            return 0;
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
            return 1;
        }
    };
    int n = 0;
    for (std::size_t cut = 0; cut < text.size(); ++cut)
        n += refused(text.substr(0, cut), "cut at " + std::to_string(cut));
    EXPECT_EQ(n, static_cast<int>(text.size()));
    // A changed byte in every line (a digit of a test, a seed, the count, the checksum).
    int changed = 0;
    for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
        std::string copy = text;
        copy[at] = copy[at] == '1' ? '2' : '1';
        changed += refused(copy, "changed at " + std::to_string(at));
        if (text.find('\n', at) + 1 >= text.size()) break;
    }
    EXPECT_GE(changed, 15);
    std::ofstream(path, std::ios::trunc) << text;
    EXPECT_TRUE(same_tasks(read_task_table(path).tasks, table.tasks));
}

TEST(CampaignText, RangesQuotingAndScripts)
{
    EXPECT_EQ(id_ranges({ 0, 1, 2, 3, 5, 7, 8, 9 }), "0-3,5,7-9");
    EXPECT_EQ(id_ranges({ 4 }), "4");
    EXPECT_EQ(shell_quote("1802,9373"), "1802,9373");
    EXPECT_EQ(shell_quote("a b'c"), "'a b'\\''c'");
    const Campaign c = parse_campaign(small_campaign, "c.ini", ".");
    const TaskTable table{ "small-1", "small", "smallcrush", "", expand(c) };
    const std::string script = array_script(c, table, { "/opt/rngvet", "/scratch/c" });
    for (const char* line :
        { "#SBATCH --array=0-11\n", "#SBATCH --time=00:10:00\n", "#SBATCH --cpus-per-task=2\n",
            "#SBATCH --output=/scratch/c/logs/task-%a.job-%A.out\n", "RNGVET=/opt/rngvet\n",
            "campaign prepare \"$DIR\" \"$TASK\"", "--mode sharded --jobs \"$JOBS\" --db \"$DB\"" })
        EXPECT_NE(script.find(line), std::string::npos) << line;
    EXPECT_NE(script.find("  11) RUN=(--generator ranmar48x --seed 17,42"), std::string::npos);
    const std::string merge = merge_script(c, table, { "/opt/rngvet", "/scratch/c" });
    EXPECT_NE(merge.find("exec /opt/rngvet campaign merge /scratch/c\n"), std::string::npos);
}

// ---- GPUs on Slurm ---------------------------------------------------------------------

// small_campaign with the configurations' backend and [slurm] keys added.
std::string gpu_campaign(const std::string& backend, const std::string& slurm_keys)
{
    std::string text = small_campaign;
    for (const char* conf : { "generator = ranmar48\n", "layout = interleave\n" })
        text.replace(text.find(conf), std::string(conf).size(),
            std::string(conf) + "backend = " + backend + "\n");
    return text + slurm_keys;
}

std::string script_of(const Campaign& c)
{
    TaskTable table{ "small-1", "small", "smallcrush", "", expand(c) };
    table.tasks_per_array_task = slurm_shape(c).tasks_per_array_task;
    return array_script(c, table, { "/opt/rngvet", "/scratch/c" });
}

bool asks_for_gpu(const std::string& script)
{
    return script.find("#SBATCH --gres") != std::string::npos
        || script.find("#SBATCH --gpus") != std::string::npos;
}

TEST(CampaignGpu, OnlyTasksThatNeedAGpuAskForOne)
{
    // Backend cpu: no GPU line, and the script is the one-task-per-array-task script.
    const std::string cpu = script_of(parse_campaign(small_campaign, "c.ini", "."));
    EXPECT_FALSE(asks_for_gpu(cpu)) << cpu;
    EXPECT_EQ(cpu.find("GPU"), std::string::npos) << cpu;
    EXPECT_NE(cpu.find("#SBATCH --array=0-11\n"), std::string::npos);
    // Backend cuda: one --gres=gpu:1 line by default, for the array tasks and not the merge.
    const Campaign cuda = parse_campaign(gpu_campaign("cuda", ""), "c.ini", ".");
    const std::string gpu = script_of(cuda);
    EXPECT_NE(gpu.find("#SBATCH --gres=gpu:1\n"), std::string::npos) << gpu;
    EXPECT_EQ(gpu.find("#SBATCH --gres"), gpu.rfind("#SBATCH --gres"));
    EXPECT_FALSE(asks_for_gpu(merge_script(
        cuda, { "small-1", "small", "smallcrush", "", {} }, { "/opt/rngvet", "/scratch/c" })));
    // The site's forms; gres beside [slurm] gres goes into one --gres line.
    const std::vector<std::pair<std::string, std::string>> forms = {
        { "gpu-request = gres=gpu:h100:1\n", "#SBATCH --gres=gpu:h100:1\n" },
        { "gpu-request = gres=gpu:h100:1\ngres = tmpfs:10G\n",
            "#SBATCH --gres=tmpfs:10G,gpu:h100:1\n" },
        { "gpu-request = gpus-per-task=1\n", "#SBATCH --gpus-per-task=1\n" },
        { "gpu-request = gpus=a100:1\n", "#SBATCH --gpus=a100:1\n" },
        { "gpu-request = gpus-per-node=2\n", "#SBATCH --gpus-per-node=2\n" },
    };
    for (const auto& [keys, line] : forms) {
        const std::string script
            = script_of(parse_campaign(gpu_campaign("cuda", keys), "c.ini", "."));
        EXPECT_NE(script.find(line), std::string::npos) << keys << script;
        EXPECT_EQ(script.find("#SBATCH --gres=gpu:1\n"), std::string::npos) << keys;
    }
    // none: the script asks for no GPU. gpu = yes: backend auto (or cpu) asks; gpu = no: none.
    EXPECT_FALSE(asks_for_gpu(
        script_of(parse_campaign(gpu_campaign("cuda", "gpu-request = none\n"), "c.ini", "."))));
    EXPECT_NE(script_of(parse_campaign(gpu_campaign("auto", "gpu = yes\n"), "c.ini", "."))
                  .find("#SBATCH --gres=gpu:1\n"),
        std::string::npos);
    EXPECT_FALSE(asks_for_gpu(
        script_of(parse_campaign(gpu_campaign("auto", "gpu = auto\n"), "c.ini", "."))));
    EXPECT_FALSE(
        asks_for_gpu(script_of(parse_campaign(gpu_campaign("cpu", "gpu = no\n"), "c.ini", "."))));
}

TEST(CampaignGpu, BadKeysAndCampaignsThatCannotBeOneArrayAreOneLineErrors)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        { "gpu-request = gpu:1\n", "c.ini:21: GPU request 'gpu:1' is none of gres=SPEC" },
        { "gpu-request = gres=\n", "c.ini:21: GPU request 'gres=': '' is not a Slurm resource" },
        { "gpu-request = mem=4G\n", "c.ini:21: GPU request 'mem=4G': 'mem' is no GPU option" },
        { "gpu-request = gpus-per-task=0\n",
            "c.ini:21: GPU request 'gpus-per-task=0': "
            "gpus-per-task takes [TYPE:]N" },
        { "gpu-request = gpus=h100\n", "gpus takes [TYPE:]N" },
        { "gpu-request = gres=gpu;1\n", "is not a Slurm resource" },
        { "gpu-request = gres=gpu:1 \"x\"\n", "c.ini:21: 'gpu-request' goes into an #SBATCH line" },
        { "gpu = maybe\n", "c.ini:21: 'gpu' is auto (tasks of backend cuda ask for a GPU), yes" },
        { "tasks-per-gpu = 0\n", "c.ini:21: 'tasks-per-gpu' must be an integer in 1..1024" },
        { "tasks-per-gpu = two\n", "c.ini:21: 'tasks-per-gpu' must be an integer" },
        { "gpu-reqest = none\n", "c.ini:21: unknown key 'gpu-reqest' in [slurm]" },
    };
    for (const auto& [keys, expected] : cases) {
        const std::string message = expect_error(gpu_campaign("cuda", keys));
        EXPECT_NE(message.find(expected), std::string::npos) << "got: " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    // Parsed, but not one Slurm array: refused by slurm_shape (and so by submit and the script).
    const std::vector<std::pair<std::string, std::string>> shapes = {
        { gpu_campaign("cpu", "tasks-per-gpu = 2\n"),
            "[slurm] tasks-per-gpu = 2 packs tasks onto a GPU, and no task of this campaign asks "
            "for one" },
        { gpu_campaign("cuda", "gpu = no\n"),
            "[configuration single] runs on backend cuda and needs a GPU" },
        { std::string(small_campaign)
                .replace(std::string(small_campaign).find("layout = "), 0, "backend = cuda\n"),
            "[configuration x4] needs a GPU (backend cuda) and [configuration single] none "
            "(backend cpu)" },
    };
    for (const auto& [text, expected] : shapes) {
        const Campaign c = parse_campaign(text, "c.ini", ".");
        try {
            (void)slurm_shape(c);
            ADD_FAILURE() << "accepted: " << expected;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
        }
        EXPECT_THROW((void)script_of(c), InputError);
    }
    // A mixed campaign that asks for nothing and packs nothing is one array.
    const std::string mixed
        = std::string(small_campaign)
              .replace(std::string(small_campaign).find("layout = "), 0, "backend = cuda\n")
        + "gpu-request = none\n";
    EXPECT_FALSE(slurm_shape(parse_campaign(mixed, "c.ini", ".")).gpu);
    EXPECT_EQ(check_gpu_request("gpus-per-task=h100:2"), "gpus-per-task=h100:2");
    EXPECT_THROW((void)check_gpu_request(""), InputError);
}

TEST(CampaignGpu, PackingMapsCampaignTasksOntoArrayTasks)
{
    EXPECT_EQ(array_tasks_of({ 1, 5, 6, 7 }, 2), (std::vector<int>{ 0, 2, 3 }));
    EXPECT_EQ(array_tasks_of({ 1, 5, 6, 7 }, 1), (std::vector<int>{ 1, 5, 6, 7 }));
    EXPECT_EQ(tasks_of_array_tasks({ 0, 2, 3 }, 2, 7), (std::vector<int>{ 0, 1, 4, 5, 6 }));
    EXPECT_EQ(tasks_of_array_tasks({ 3 }, 4, 13), (std::vector<int>{ 12 }));

    // 12 tasks, 5 per GPU: array tasks 0-2, the last with 2 tasks.
    const Campaign c = parse_campaign(gpu_campaign("cuda", "tasks-per-gpu = 5\n"), "c.ini", ".");
    EXPECT_EQ(slurm_shape(c).tasks_per_array_task, 5);
    const std::string script = script_of(c);
    for (const char* line : { "#SBATCH --array=0-2\n", "#SBATCH --gres=gpu:1\n", "PER=5 ",
             "TASKS=12\n", "#SBATCH --output=/scratch/c/logs/array-%a.job-%A.out\n" })
        EXPECT_NE(script.find(line), std::string::npos) << line << "\n" << script;
    EXPECT_EQ(std::system(("bash -n <<'EOF'\n" + script + "EOF\n").c_str()), 0);

    // The table keeps the packing; an unpacked table's text is as before (no such line).
    TaskTable table{ "small-1", "small", "smallcrush", "", expand(c) };
    table.tasks_per_array_task = 5;
    const std::string path = fresh("packed.tsv");
    std::ofstream(path) << write_task_table(table);
    EXPECT_EQ(read_task_table(path).tasks_per_array_task, 5);
    table.tasks_per_array_task = 1;
    EXPECT_EQ(write_task_table(table).find("tasks-per-array-task"), std::string::npos);
    EXPECT_EQ(read_task_table((std::ofstream(path) << write_task_table(table), path))
                  .tasks_per_array_task,
        1);
    // A script for a table of another packing is refused.
    EXPECT_THROW(array_script(c, table, { "/opt/rngvet", "/scratch/c" }), InputError);
}

// The packed script run by hand as Slurm would run array task 1 of tasks-per-gpu = 5: tasks 5
// to 9 run at once (five 2-second tasks in well under 10 s), each its own process with its own log
// and database; a task that fails fails the array task, the others still finish.
TEST(CampaignGpu, APackedArrayTaskRunsItsTasksAtOnce)
{
    const std::string dir = fresh("packed_run");
    ASSERT_EQ(std::system(("mkdir -p " + dir + "/logs " + dir + "/tasks").c_str()), 0);
    // A stand-in for rngvet: `campaign prepare` prints nothing (no run to resume); `run` notes
    // its task database and when it started and ended; task 7's run fails.
    const std::string fake = dir + "/fake-rngvet";
    std::ofstream(fake) << "#!/bin/bash\n"
                           "[ \"$1\" = campaign ] && exit 0\n"
                           "db=${@: -1}\n"
                           "echo \"start $db $(date +%s.%N)\" >>"
            + dir
            + "/calls\n"
              "sleep 2\n"
              "echo \"end $db $(date +%s.%N)\" >>"
            + dir
            + "/calls\n"
              "echo \"args $*\"\n"
              "case $db in *task-7.sqlite) exit 3 ;; esac\n";
    ASSERT_EQ(::chmod(fake.c_str(), 0755), 0);
    const Campaign c = parse_campaign(gpu_campaign("cuda", "tasks-per-gpu = 5\n"), "c.ini", ".");
    TaskTable table{ "small-1", "small", "smallcrush", "", expand(c) };
    table.tasks_per_array_task = 5;
    const std::string script = dir + "/campaign.sbatch";
    std::ofstream(script) << array_script(c, table, { fake, dir });
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(("SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_JOB_ID=77 "
                                    "SLURM_CPUS_PER_TASK=10 bash "
        + script + " >" + dir + "/out 2>&1")
                                       .c_str());
    const double seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
    EXPECT_LT(seconds, 8) << "five 2-second tasks did not run at once";
    std::ifstream calls(dir + "/calls");
    std::multiset<std::string> started;
    for (std::string what, db, when; calls >> what >> db >> when;)
        if (what == "start") started.insert(db.substr(db.rfind('/') + 1));
    EXPECT_EQ(started,
        (std::multiset<std::string>{
            "task-5.sqlite", "task-6.sqlite", "task-7.sqlite", "task-8.sqlite", "task-9.sqlite" }));
    for (int t = 5; t <= 9; ++t) {
        std::ifstream log(dir + "/logs/task-" + std::to_string(t) + ".job-77.out");
        const std::string text((std::istreambuf_iterator<char>(log)), {});
        // Task t's own arguments, its own database, 10 CPUs / 5 tasks each.
        EXPECT_NE(text.find("--seed " + table.tasks[t].seed), std::string::npos) << text;
        EXPECT_NE(
            text.find("--jobs 2 --db " + dir + "/tasks/task-" + std::to_string(t) + ".sqlite"),
            std::string::npos)
            << text;
    }
    std::ifstream out(dir + "/out");
    const std::string text((std::istreambuf_iterator<char>(out)), {});
    EXPECT_NE(text.find("task 7: exit status 3"), std::string::npos) << text;
    EXPECT_NE(text.find("task 9: done"), std::string::npos) << text;
    // Array task 3 is past the campaign's 12 tasks.
    EXPECT_NE(
        std::system(("SLURM_ARRAY_TASK_ID=3 bash " + script + " >/dev/null 2>&1").c_str()), 0);
}

// submit --gpu-request takes the place of the file's key; a bad one, or a campaign that cannot
// be one array, is refused with one line before anything is written.
TEST(CampaignGpu, SubmitGpuRequestOptionIsCheckedBeforeAnythingIsWritten)
{
    const std::string file
        = rngvet_test::write_file("gpu.ini", gpu_campaign("cuda", "tasks-per-gpu = 3\n"));
    const std::string dir = fresh("gpu_submit");
    for (const char* bad : { "gpu:1", "gres=", "gpus-per-task=0", "cpus=1", "gres=gpu:1'" }) {
        const auto r = run_rngvet("campaign submit " + file + " --slurm --dry-run --out " + dir
            + " --gpu-request \"" + bad + "\"");
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_EQ(r.err.rfind("rngvet: error: --gpu-request: GPU request", 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_FALSE(exists(dir)) << bad;
    }
    const std::string mixed = rngvet_test::write_file("mixed.ini",
        std::string(small_campaign)
            .replace(std::string(small_campaign).find("layout = "), 0, "backend = cuda\n"));
    auto r = run_rngvet("campaign submit " + mixed + " --slurm --dry-run --out " + dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("split the campaign in two"), std::string::npos) << r.err;
    EXPECT_FALSE(exists(dir));
    r = run_rngvet("campaign submit " + file + " --slurm --dry-run --out " + dir
        + " --gpu-request gpus-per-task=h100:1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("runs 3 tasks at once on it: 4 array tasks"), std::string::npos) << r.out;
    std::ifstream in(dir + "/campaign.sbatch");
    const std::string script((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(script.find("#SBATCH --gpus-per-task=h100:1\n"), std::string::npos) << script;
    EXPECT_NE(script.find("#SBATCH --array=0-3\n"), std::string::npos);
    EXPECT_FALSE(script.find("#SBATCH --gres") != std::string::npos);
    EXPECT_EQ(read_task_table(dir + "/tasks.tsv").tasks_per_array_task, 3);
    // status reads the packed table.
    r = run_rngvet("campaign status " + dir);
    EXPECT_NE(r.out.find("12 tasks: 0 done, 0 running, 0 failed, 12 missing"), std::string::npos);
}

// squeue answers for array task 1 of job 16, which runs campaign tasks 2 and 3 with two tasks
// per array task (and would be task 1 alone without packing).
TEST(CampaignGpu, AQueuedArrayTaskCountsForEachOfItsTasks)
{
    const std::string dir = fresh("packed_queue");
    ASSERT_EQ(std::system(("mkdir -p " + dir + "/bin").c_str()), 0);
    std::ofstream(dir + "/bin/squeue") << "#!/bin/sh\necho '16_1 RUNNING'\n";
    ASSERT_EQ(::chmod((dir + "/bin/squeue").c_str(), 0755), 0);
    std::ofstream(dir + "/jobs.tsv") << "array\t16\t0-3\t2026-11-26T00:00:00Z\n";
    const char* old_path = std::getenv("PATH");
    const std::string saved = old_path ? old_path : "";
    ::setenv("PATH", (dir + "/bin:" + saved).c_str(), 1);
    const QueueState packed = queue_state(dir, 2);
    const QueueState single = queue_state(dir, 1);
    ::setenv("PATH", saved.c_str(), 1);
    ASSERT_TRUE(packed.known);
    EXPECT_EQ(packed.tasks, (std::map<int, std::string>{ { 2, "RUNNING" }, { 3, "RUNNING" } }));
    EXPECT_EQ(single.tasks, (std::map<int, std::string>{ { 1, "RUNNING" } }));
    const Campaign c = parse_campaign(small_campaign, "c.ini", ".");
    TaskTable table{ "small-1", "small", "smallcrush", "", expand(c) };
    table.tasks_per_array_task = 2;
    const TaskState s = inspect(dir, table, table.tasks[3], packed);
    EXPECT_EQ(s.state, State::running);
    EXPECT_EQ(s.detail, "job 16_1 RUNNING");
}

// ---- merge ---------------------------------------------------------------------------

std::string dump(const std::string& db)
{
    sqlite3* h = nullptr;
    sqlite3_open(db.c_str(), &h);
    std::string out;
    for (const char* table : { "runs", "tests", "statistics", "campaign_runs", "campaign_tasks" }) {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(h, (std::string("SELECT * FROM ") + table + " ORDER BY 1, 2, 3").c_str(),
            -1, &st, nullptr);
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int i = 0; i < sqlite3_column_count(st); ++i) {
                const auto* t = sqlite3_column_text(st, i);
                out += t ? reinterpret_cast<const char*>(t) : "NULL";
                out += '|';
            }
            out += '\n';
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

CampaignTaskSpec spec_for(const std::string& campaign, int task, const std::string& tests)
{
    return { { campaign, task, "single", "1802,9373", tests },
        "ranmar48/1/single/increment/1802,9373", "smallcrush", "", 10 };
}

// A task database like `rngvet run` writes one: stamped, one sharded run, `done` of its tests.
// `provenance` (when given) fills the run's description and each test's columns beyond the ones
// set here.
void write_task_db(const std::string& path, const CampaignTaskSpec& spec,
    const std::vector<int>& done, RunStatus status,
    void (*provenance)(RunRecord&, TestRecord&) = nullptr)
{
    Store s(path);
    s.stamp_campaign_task(spec.stamp);
    RunRecord r = run_record("ranmar48", spec.config, spec.stamp.seed, 48);
    r.mode = RunMode::sharded;
    r.status = RunStatus::running;
    r.host = "node7";
    r.started_at = "2026-11-22T00:00:0" + std::to_string(spec.stamp.task_id) + "Z";
    r.tests_selected = spec.stamp.tests;
    TestRecord no_test;
    if (provenance) provenance(r, no_test);
    const auto id = s.runs().empty() ? s.create_run(r) : s.runs().back().run_id;
    std::set<int> stored;
    for (const auto& t : s.tests(id))
        stored.insert(t.test_number);
    for (int n : done) {
        if (stored.count(n)) continue;
        TestRecord t{ n, static_cast<std::uint64_t>(n - 1) << 40, 1000u * n, 0.5, "node7:1", 1, 0,
            "2026-11-22T00:00:10Z", "2026-11-22T00:00:1" + std::to_string(n % 10) + "Z" };
        RunRecord no_run;
        if (provenance) provenance(no_run, t);
        std::vector<StatisticRecord> stats;
        const auto& entry = smallcrush_catalogue().test(n);
        int first = 1;
        for (const auto& e : smallcrush_catalogue().tests)
            if (e.number < n) first += e.statistics;
        for (int k = 0; k < entry.statistics; ++k)
            stats.push_back({ first + k, n, entry.name, 0.01 * n + 0.001 * k });
        s.insert_test(id, t, stats);
    }
    s.finish_run(id, status, status == RunStatus::complete ? "2026-11-22T00:01:00Z" : "");
}

TEST(CampaignMerge, FoldsShardsIntoOneRunOnceAndMergingAgainChangesNothing)
{
    const std::string campaign_db = fresh("campaign.sqlite"), t0 = fresh("t0.sqlite"),
                      t1 = fresh("t1.sqlite");
    write_task_db(t0, spec_for("c1", 0, "1,2,3,4,5"), { 1, 2, 3 }, RunStatus::interrupted);
    write_task_db(t1, spec_for("c1", 1, "6,7,8,9,10"), { 6, 7, 8, 9, 10 }, RunStatus::complete);
    Store store(campaign_db);
    auto m0 = merge_campaign_task(store, t0, spec_for("c1", 0, "1,2,3,4,5"), "now");
    auto m1 = merge_campaign_task(store, t1, spec_for("c1", 1, "6,7,8,9,10"), "now");
    EXPECT_EQ(m0.run_id, m1.run_id);
    EXPECT_EQ(m0.statistics_added, 3);
    EXPECT_EQ(m1.statistics_added, 10); // test 6 has 2 statistics, 10 has 5
    EXPECT_EQ(store.run(m0.run_id)->status, rngvet::RunStatus::interrupted);
    EXPECT_EQ(store.run(m0.run_id)->tests_selected, "");

    const std::string before = dump(campaign_db);
    m0 = merge_campaign_task(store, t0, spec_for("c1", 0, "1,2,3,4,5"), "later");
    m1 = merge_campaign_task(store, t1, spec_for("c1", 1, "6,7,8,9,10"), "later");
    EXPECT_EQ(m0.statistics_added + m1.statistics_added + m0.tests_added + m1.tests_added, 0);
    EXPECT_EQ(dump(campaign_db), before);

    // The task is resumed and finishes: merging adds exactly its missing tests.
    write_task_db(t0, spec_for("c1", 0, "1,2,3,4,5"), { 1, 2, 3, 4, 5 }, RunStatus::complete);
    m0 = merge_campaign_task(store, t0, spec_for("c1", 0, "1,2,3,4,5"), "later");
    EXPECT_EQ(m0.tests_added, 2);
    EXPECT_EQ(m0.statistics_added, 2);
    const auto run = store.run(m0.run_id);
    EXPECT_EQ(run->status, rngvet::RunStatus::complete);
    EXPECT_EQ(run->finished_at, "2026-11-22T00:00:19Z");
    EXPECT_EQ(run->numbers_used, 55000u);
    EXPECT_EQ(store.runs().size(), 1u);
    const auto stats = store.statistics(m0.run_id);
    ASSERT_EQ(stats.size(), 15u);
    for (std::size_t i = 0; i < stats.size(); ++i)
        EXPECT_EQ(stats[i].stat_index, static_cast<int>(i + 1));
}

// The rows of `table` in the store at `db`, each column by name as SQLite holds it (its type
// and value, NULL as NULL), so that a column added to the store later is compared as well.
std::vector<std::map<std::string, std::string>> rows(
    const std::string& db, const std::string& table)
{
    sqlite3* h = nullptr;
    EXPECT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(
                  h, ("SELECT * FROM " + table + " ORDER BY 1, 2").c_str(), -1, &st, nullptr),
        SQLITE_OK);
    std::vector<std::map<std::string, std::string>> out;
    while (sqlite3_step(st) == SQLITE_ROW) {
        std::map<std::string, std::string> row;
        for (int i = 0; i < sqlite3_column_count(st); ++i) {
            const int type = sqlite3_column_type(st, i);
            const auto* text = sqlite3_column_text(st, i);
            row[sqlite3_column_name(st, i)] = type == SQLITE_NULL
                ? "NULL"
                : std::to_string(type) + ":" + reinterpret_cast<const char*>(text);
        }
        out.push_back(row);
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
}

// A run's provenance with no column at its default: the parameter check of a run whose sets
// were taken from the cache, the input's hash, the machine, the engine.
void full_provenance(RunRecord& r, TestRecord& t)
{
    r.backend = "openmp";
    r.params_sha256 = "5e7a";
    r.jobs = 3;
    r.cpu_model = "cpu model";
    r.gpu_model = "gpu model";
    r.options = "--generator ranmar48\n--seed 1802,9373";
    r.input_sha256 = "0f1e2d";
    r.params_check = "verified (cached)";
    r.engine = "native";
    t.engine = "native";
    t.wall_seconds = 0.75;
    t.refills = 4;
    t.refill_waits = 2;
}

// A campaign of two tasks merged: the campaign store's rows are the task stores' rows in every
// column. The folded run's description (every column but its id, the status, the selection and
// what the fold sums over its tests) equals each task run's, provenance included; each test and
// statistic row equals the task's but for the run it belongs to.
TEST(CampaignMerge, MergedRowsEqualTheTaskRowsInEveryColumn)
{
    const std::string campaign_db = fresh("campaign_columns.sqlite"), t0 = fresh("columns0.sqlite"),
                      t1 = fresh("columns1.sqlite");
    write_task_db(t0, spec_for("c1", 0, "1,2,3,4,5"), { 1, 2, 3, 4, 5 }, RunStatus::complete,
        full_provenance);
    write_task_db(t1, spec_for("c1", 1, "6,7,8,9,10"), { 6, 7, 8, 9, 10 }, RunStatus::complete,
        full_provenance);
    {
        Store store(campaign_db);
        merge_campaign_task(store, t0, spec_for("c1", 0, "1,2,3,4,5"), "now");
        merge_campaign_task(store, t1, spec_for("c1", 1, "6,7,8,9,10"), "now");
    }
    const auto merged = rows(campaign_db, "runs");
    ASSERT_EQ(merged.size(), 1u);
    const std::set<std::string> folded{ "run_id", "status", "tests_selected", "numbers_used",
        "cpu_seconds", "started_at", "finished_at" };

    // What a record left at its defaults stores: a column full_provenance left so would pass
    // below whether the merge copied it or not, so every listed column must differ from it.
    const std::string plain = fresh("columns_plain.sqlite");
    {
        Store p(plain);
        const auto id = p.create_run(RunRecord{});
        p.insert_test(id, TestRecord{}, {});
    }
    const auto plain_run = rows(plain, "runs").at(0), plain_test = rows(plain, "tests").at(0);

    for (const std::string& task : { t0, t1 }) {
        const auto task_runs = rows(task, "runs");
        ASSERT_EQ(task_runs.size(), 1u);
        ASSERT_EQ(
            task_runs[0].at("params_check"), std::to_string(SQLITE_TEXT) + ":verified (cached)");
        ASSERT_EQ(task_runs[0].size(), merged[0].size());
        // Every column of the store's list of the runs table (reports/schema.cpp), so that a
        // column added there is merged, or this fails, with no other change to the merge.
        const auto listed = schema::columns_of("runs");
        ASSERT_EQ(listed.size(), task_runs[0].size());
        for (const schema::ColumnInfo& c : listed) {
            SCOPED_TRACE("runs." + c.name);
            ASSERT_EQ(task_runs[0].count(c.name), 1u);
            if (folded.count(c.name)) continue;
            EXPECT_NE(task_runs[0].at(c.name), plain_run.at(c.name))
                << "full_provenance leaves it at its default; give it a value there";
            EXPECT_EQ(merged[0].at(c.name), task_runs[0].at(c.name));
        }
        for (const schema::ColumnInfo& c : schema::columns_of("tests")) {
            if (c.name == "run_id") continue;
            EXPECT_NE(rows(task, "tests").back().at(c.name), plain_test.at(c.name))
                << "tests." << c.name << ": full_provenance leaves it at its default";
        }
    }
    EXPECT_EQ(merged[0].at("status"), std::to_string(SQLITE_TEXT) + ":complete");
    EXPECT_EQ(merged[0].at("numbers_used"), std::to_string(SQLITE_INTEGER) + ":55000");

    for (const char* table : { "tests", "statistics" }) {
        std::vector<std::map<std::string, std::string>> expected;
        for (const std::string& task : { t0, t1 })
            for (auto row : rows(task, table)) {
                row["run_id"] = merged[0].at("run_id");
                expected.push_back(row);
            }
        const auto have = rows(campaign_db, table);
        ASSERT_EQ(have.size(), expected.size()) << table;
        for (std::size_t i = 0; i < have.size(); ++i)
            EXPECT_EQ(have[i], expected[i]) << table << " row " << i;
    }
}

// The columns of `t` that schema `version` has.
template <class R> schema::Table<R> as_of(const schema::Table<R>& t, int version)
{
    schema::Table<R> old = t;
    old.columns.clear();
    for (const auto& c : t.columns)
        if (c.since <= version) old.columns.push_back(c);
    return old;
}

// A task database written as rngvet of schema `version` wrote one (its tables as the column
// lists build them for that version, which the store test checks against the shipped SQL):
// stamped, one sharded run, tests 1 to 5 with their statistics.
void write_old_task_db(const std::string& path, const CampaignTaskSpec& spec, int version)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    for (int v = 1; v <= version; ++v)
        ASSERT_EQ(sqlite3_exec(db, schema::migration_tables(v).c_str(), nullptr, nullptr, nullptr),
            SQLITE_OK)
            << sqlite3_errmsg(db);
    sqlite3_exec(db, ("PRAGMA user_version = " + std::to_string(version)).c_str(), nullptr, nullptr,
        nullptr);
    schema::insert(db, as_of(schema::campaign_stamp(), version), spec.stamp);
    RunRecord r = run_record("ranmar48", spec.config, spec.stamp.seed, 48);
    TestRecord unused;
    full_provenance(r, unused);
    r.mode = RunMode::sharded;
    r.status = RunStatus::complete;
    r.tests_selected = spec.stamp.tests;
    const std::int64_t id = schema::insert(db, as_of(schema::runs(), version), r);
    int first = 1;
    for (const auto& entry : smallcrush_catalogue().tests) {
        if (entry.number <= 5) {
            TestRecord t{ entry.number, static_cast<std::uint64_t>(entry.number - 1) << 40,
                1000u * entry.number, 0.5, "node7:1", 1, 0, "2026-11-22T00:00:10Z",
                "2026-11-22T00:00:11Z" };
            full_provenance(r, t);
            schema::insert(db, as_of(schema::tests(), version), t, id);
            for (int k = 0; k < entry.statistics; ++k)
                schema::insert(db, as_of(schema::statistics(), version),
                    Statistic{ first + k, entry.number, entry.name, 0.01 * entry.number }, id);
        }
        first += entry.statistics;
    }
    sqlite3_close(db);
}

// A task database of every schema a task database can have (campaigns came with version 3)
// merges: each column its schema has is copied, each newer one takes the store's default.
TEST(CampaignMerge, MergesATaskDatabaseOfEveryEarlierSchema)
{
    for (int version = 3; version <= store_schema_version; ++version) {
        SCOPED_TRACE(version);
        const std::string campaign_db = fresh("campaign_old.sqlite"), task = fresh("old.sqlite");
        write_old_task_db(task, spec_for("c1", 0, "1,2,3,4,5"), version);
        Store store(campaign_db);
        const auto m = merge_campaign_task(store, task, spec_for("c1", 0, "1,2,3,4,5"), "now");
        EXPECT_EQ(m.tests_added, 5);
        EXPECT_EQ(m.task_status, RunStatus::complete);
        const auto run = store.run(m.run_id);
        ASSERT_TRUE(run);
        EXPECT_EQ(run->mode, RunMode::sharded);
        EXPECT_EQ(run->jobs, 3);
        EXPECT_EQ(run->cpu_model, "cpu model");
        // Schema 4 added the input's hash and the parameter check, 5 the engine.
        EXPECT_EQ(run->input_sha256, version >= 4 ? "0f1e2d" : "");
        EXPECT_EQ(run->params_check, version >= 4 ? "verified (cached)" : "");
        EXPECT_EQ(run->engine, version >= 5 ? "native" : "testu01");
        const auto tests = store.tests(m.run_id);
        ASSERT_EQ(tests.size(), 5u);
        for (const TestRecord& t : tests) {
            EXPECT_EQ(t.refills, 4u);
            EXPECT_EQ(t.engine, version >= 5 ? "native" : "testu01");
            EXPECT_EQ(t.wall_seconds, version >= 5 ? 0.75 : 0);
        }
        EXPECT_EQ(store.statistics(m.run_id).size(), 5u);
    }
}

TEST(CampaignMerge, RefusesDamagedForeignAndMismatchedTaskDatabasesWithoutWriting)
{
    const std::string campaign_db = fresh("campaign_refuse.sqlite");
    const std::string good = fresh("good.sqlite");
    write_task_db(good, spec_for("c1", 0, "1,2,3,4,5"), { 1, 2 }, RunStatus::running);
    Store store(campaign_db);
    merge_campaign_task(store, good, spec_for("c1", 0, "1,2,3,4,5"), "now");
    const std::string before = dump(campaign_db);

    auto refused
        = [&](const std::string& path, const CampaignTaskSpec& spec, const std::string& why) {
              try {
                  merge_campaign_task(store, path, spec, "now");
                  ADD_FAILURE() << "merged " << path;
              } catch (const InputError& e) {
                  EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
              }
              EXPECT_EQ(dump(campaign_db), before) << path;
          };
    // Another campaign's task, and another task of this campaign.
    const std::string foreign = fresh("foreign.sqlite");
    write_task_db(foreign, spec_for("c2", 1, "6,7,8,9,10"), { 6 }, RunStatus::running);
    refused(foreign, spec_for("c1", 1, "6,7,8,9,10"), "belongs to campaign c2 task 1");
    refused(good, spec_for("c1", 1, "6,7,8,9,10"), "belongs to campaign c1 task 0");
    // Random bytes; an rngvet store without a stamp; a file that is no rngvet store.
    const std::string noise = fresh("noise.sqlite");
    {
        std::ofstream out(noise, std::ios::binary);
        for (int i = 0; i < 8192; ++i)
            out.put(static_cast<char>(i * 37 + 11));
    }
    refused(noise, spec_for("c1", 0, "1,2,3,4,5"), "refused");
    const std::string plain = fresh("plain.sqlite");
    {
        Store s(plain);
    }
    refused(plain, spec_for("c1", 0, "1,2,3,4,5"), "no campaign stamp");
    const std::string other = fresh("other.sqlite");
    {
        sqlite3* h = nullptr;
        sqlite3_open(other.c_str(), &h);
        sqlite3_exec(h, "CREATE TABLE x (a); INSERT INTO x VALUES (1);", nullptr, nullptr, nullptr);
        sqlite3_close(h);
    }
    refused(other, spec_for("c1", 0, "1,2,3,4,5"), "not an rngvet task database");
    // A stamped database whose pages were overwritten in the middle.
    const std::string damaged = fresh("damaged.sqlite");
    write_task_db(damaged, spec_for("c1", 0, "1,2,3,4,5"), { 1, 2, 3, 4 }, RunStatus::running);
    {
        Store checkpoint(damaged); // the WAL is folded in when the last connection closes
    }
    struct stat st { };
    ASSERT_EQ(stat(damaged.c_str(), &st), 0);
    {
        std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
        // Every page after the first (the b-tree pages of the tables) becomes garbage.
        f.seekp(4096);
        for (std::streamoff at = 4096; at < st.st_size; ++at)
            f.put(static_cast<char>(0xA5));
    }
    refused(damaged, spec_for("c1", 0, "1,2,3,4,5"), "refused");
    EXPECT_THROW(
        merge_campaign_task(store, fresh("absent.sqlite"), spec_for("c1", 0, "1,2,3,4,5"), "now"),
        InputError);
    struct stat none { };
    EXPECT_NE(stat(fresh("absent.sqlite").c_str(), &none), 0)
        << "merge must not create a missing task database";
}

TEST(CampaignMerge, StampIsWrittenOnceAndAnotherIsRefused)
{
    const std::string db = fresh("stamp.sqlite");
    Store s(db);
    EXPECT_FALSE(s.campaign_stamp());
    const CampaignStamp a{ "c1", 3, "single", "1802,9373", "1,2" };
    s.stamp_campaign_task(a);
    s.stamp_campaign_task(a);
    EXPECT_EQ(s.campaign_stamp()->task_id, 3);
    EXPECT_THROW(s.stamp_campaign_task({ "c1", 4, "single", "1802,9373", "1,2" }), InputError);
    EXPECT_THROW(s.stamp_campaign_task({ "c2", 3, "single", "1802,9373", "1,2" }), InputError);
}

// ---- the binary ----------------------------------------------------------------------

bool exists(const std::string& path)
{
    struct stat st { };
    return stat(path.c_str(), &st) == 0;
}

TEST(CampaignCli, SubmitRefusesBeforeWritingOrSubmittingAnything)
{
    const std::string file = rngvet_test::write_file("c.ini", small_campaign);
    const std::string dir = fresh("submit_dir");
    // No sbatch on PATH.
    auto r = run_rngvet("campaign submit " + file + " --slurm --out " + dir, "PATH=/nonexistent");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("rngvet: error: sbatch is not on PATH"), std::string::npos) << r.err;
    EXPECT_FALSE(exists(dir));
    // A malformed file, an unknown queue, a directory that cannot be made.
    const std::string bad = rngvet_test::write_file(
        "bad.ini", std::string(small_campaign) + "[configuration y]\ngenerator = nope\n");
    r = run_rngvet("campaign submit " + bad + " --slurm --dry-run --out " + dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("bad.ini:19: [configuration y]"), std::string::npos) << r.err;
    EXPECT_EQ(run_rngvet("campaign submit " + file + " --dry-run --out " + dir).status, 2);
    EXPECT_FALSE(exists(dir));
    r = run_rngvet("campaign submit " + file + " --slurm --dry-run --out " + file + "/sub");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    // --dry-run writes the scripts and the table, and a second submit to the same place is refused.
    ASSERT_EQ(run_rngvet("campaign submit " + file + " --slurm --dry-run --out " + dir).status, 0);
    for (const char* f : { "/campaign.sbatch", "/merge.sbatch", "/tasks.tsv", "/campaign.ini" })
        EXPECT_TRUE(exists(dir + f)) << f;
    EXPECT_EQ(
        std::system(
            ("bash -n " + dir + "/campaign.sbatch && bash -n " + dir + "/merge.sbatch").c_str()),
        0);
    EXPECT_FALSE(exists(dir + "/jobs.tsv"));
    r = run_rngvet("campaign submit " + file + " --slurm --dry-run --out " + dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("already holds campaign small-"), std::string::npos) << r.err;
    // Status of a campaign that has not started.
    const CliResult status = run_rngvet("campaign status " + dir);
    EXPECT_EQ(status.status, 0);
    EXPECT_NE(
        status.out.find("12 tasks: 0 done, 0 running, 0 failed, 12 missing"), std::string::npos)
        << status.out;
}

int count(const std::string& db, const std::string& sql)
{
    sqlite3* h = nullptr;
    sqlite3_open(db.c_str(), &h);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr);
    const int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

// Killed with SIGKILL while a task runs, then run again: every statistic exactly once, and the
// same p-values as one sharded run of the whole battery.
TEST(CampaignCli, LocalRunKilledPartWayCompletesWithEveryStatisticOnce)
{
    const std::string file = rngvet_test::write_file("local.ini",
        "[campaign]\nname = local\nbattery = smallcrush\nshards = 3\n"
        "[configuration a]\ngenerator = ranmar48\nseeds = 1802,9373\n");
    const std::string dir = fresh("local_dir");
    const pid_t pid = start_rngvet("campaign run " + file + " --jobs 1 --out " + dir);
    ASSERT_GT(pid, 0);
    // Kill as soon as some task has stored part of its tests.
    bool partial = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!partial && std::chrono::steady_clock::now() < deadline) {
        for (int t = 0; t < 3 && !partial; ++t) {
            const std::string db = dir + "/tasks/task-" + std::to_string(t) + ".sqlite";
            if (!exists(db)) continue;
            const int n = count(db, "SELECT count(*) FROM tests");
            const int of = count(db,
                "SELECT length(tests_selected) - length(replace(tests_selected, ',', '')) + 1 FROM "
                "runs");
            partial = n >= 1 && n < of;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill(-pid, SIGKILL);
    ASSERT_TRUE(partial) << "no task was seen part way";
    for (int i = 0; i < 100 && kill(pid, 0) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));

    auto r = run_rngvet("campaign status " + dir);
    EXPECT_EQ(r.status, 0);
    r = run_rngvet("campaign run " + file + " --jobs 2 --out " + dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("of 3 tasks to run"), std::string::npos) << r.err;
    const std::string db = dir + "/campaign.sqlite";
    EXPECT_EQ(count(db, "SELECT count(*) FROM runs"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM statistics"), 15);
    EXPECT_EQ(count(db, "SELECT count(DISTINCT stat_index) FROM statistics"), 15);
    EXPECT_EQ(count(db, "SELECT count(*) FROM tests"), 10);

    // One sharded run of the whole battery reads the same segments: the same p-values.
    const std::string whole = fresh("whole.sqlite");
    ASSERT_EQ(run_rngvet("run --generator ranmar48 --seed 1802,9373 --battery smallcrush --mode "
                         "sharded --jobs 2 --db "
                  + whole)
                  .status,
        0);
    Store a(db), b(whole);
    const auto merged = a.statistics(1), reference = b.statistics(1);
    ASSERT_EQ(merged.size(), reference.size());
    for (std::size_t i = 0; i < merged.size(); ++i) {
        EXPECT_EQ(merged[i].stat_index, reference[i].stat_index);
        EXPECT_EQ(merged[i].pvalue, reference[i].pvalue) << merged[i].test_name;
    }

    // Running the finished campaign again runs nothing and changes nothing; another file
    // cannot reuse the directory.
    const std::string before = dump(db);
    r = run_rngvet("campaign run " + file + " --jobs 2 --out " + dir);
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.err.find("0 of 3 tasks to run"), std::string::npos) << r.err;
    EXPECT_EQ(dump(db), before);
    const std::string other = rngvet_test::write_file("other.ini",
        "[campaign]\nname = local\nbattery = smallcrush\nshards = 2\n"
        "[configuration a]\ngenerator = ranmar48\nseeds = 1802,9373\n");
    r = run_rngvet("campaign run " + other + " --out " + dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("whose tasks differ"), std::string::npos) << r.err;

    // A task database of another campaign put in place of task 1 is refused by merge, and the
    // rest is still merged.
    const std::string dir2 = fresh("local_dir2");
    ASSERT_EQ(run_rngvet("campaign submit " + file + " --slurm --dry-run --out " + dir2).status, 0);
    ASSERT_EQ(std::system(("mkdir -p " + dir2 + "/tasks && cp " + dir + "/tasks/task-1.sqlite "
                  + dir2 + "/tasks/")
                              .c_str()),
        0);
    r = run_rngvet("campaign merge " + dir2);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("rngvet: error: task 1 (a, seed 1802,9373"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("belongs to campaign local-"), std::string::npos) << r.err;
    EXPECT_EQ(count(dir2 + "/campaign.sqlite", "SELECT count(*) FROM statistics"), 0);
}

// SIGTERM to the campaign process alone, as `kill PID` sends it, stops the task in flight too:
// the campaign ends long before the task's test would (Crush test 76 takes over a minute), and
// the task's run is marked interrupted, so that running the campaign again resumes it.
TEST(CampaignCli, LocalRunStoppedBySigtermStopsTheTaskInFlight)
{
    const std::string file = rngvet_test::write_file("stop.ini",
        "[campaign]\nname = stop\nbattery = crush\ntests = 76\nshards = 1\n"
        "[configuration a]\ngenerator = ranmar48\nseeds = 1802,9373\n");
    const std::string dir = fresh("stop_dir");
    const std::string db = dir + "/tasks/task-0.sqlite";
    const pid_t pid = start_rngvet("campaign run " + file + " --jobs 1 --out " + dir);
    ASSERT_GT(pid, 0);
    bool started = false;
    for (int i = 0; i < 600 && !started; ++i) {
        started = exists(db) && count(db, "SELECT count(*) FROM runs") == 1;
        if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_TRUE(started) << "the task's run did not start";
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // its worker is under way
    const auto stop = std::chrono::steady_clock::now();
    kill(pid, SIGTERM);
    for (int i = 0; i < 600 && kill(pid, 0) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const bool ended = kill(pid, 0) != 0;
    if (!ended) kill(-pid, SIGKILL);
    ASSERT_TRUE(ended) << "the campaign was still running 30 s after SIGTERM";
    EXPECT_LT(std::chrono::steady_clock::now() - stop, std::chrono::seconds(30));
    EXPECT_EQ(count(db, "SELECT count(*) FROM runs WHERE status = 'interrupted'"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM tests"), 0);
    const auto r = run_rngvet("campaign status " + dir);
    EXPECT_NE((r.out + r.err).find("0 done, 0 running, 1 failed"), std::string::npos)
        << r.out << r.err;
}

// `campaign run --gpus G` spreads the tasks over G GPUs, tasks-per-gpu at once on each: each
// task's process sees its GPU alone, named as this process's CUDA_VISIBLE_DEVICES names it (a
// Slurm allocation's devices 5 and 7 here, so the tasks get 5 and 7, not 0 and 1). More GPUs
// than the list holds, or --tasks-per-gpu without --gpus, are refused in one line.
TEST(CampaignCli, RunOnGpusGivesEachTaskOneOfTheVisibleDevices)
{
    const std::string file = rngvet_test::write_file("gpus.ini",
        "[campaign]\nname = gpus\nbattery = smallcrush\ntests = 1\n"
        "[configuration r]\ngenerator = ranmar24\nbackend = cpu\n"
        "seeds = 1802,9373 3355,12044 4908,14715 6461,17386 8014,20057\n");
    const std::string dir = fresh("gpus_campaign_dir");
    const char* before = std::getenv("CUDA_VISIBLE_DEVICES");
    const std::string saved = before ? before : "";
    setenv("CUDA_VISIBLE_DEVICES", "5,7", 1);
    CliResult refused = run_rngvet("campaign run " + file + " --gpus 3 --out " + dir);
    const CliResult r = run_rngvet("campaign run " + file + " --jobs 2 --gpus 2 --out " + dir);
    if (before)
        setenv("CUDA_VISIBLE_DEVICES", saved.c_str(), 1);
    else
        unsetenv("CUDA_VISIBLE_DEVICES");
    EXPECT_EQ(refused.status, 2);
    EXPECT_EQ(count_lines(refused.err), 1) << refused.err;
    EXPECT_NE(refused.err.find("--gpus 3: this process sees 2 (CUDA_VISIBLE_DEVICES=5,7)"),
        std::string::npos)
        << refused.err;
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(
        r.err.find("2 at a time with 1 job(s) each, 1 on each of 2 GPU(s)"), std::string::npos)
        << r.err;
    std::map<std::string, int> tasks_on;
    for (int task = 0; task < 5; ++task) {
        const std::string log = slurp(dir + "/logs/task-" + std::to_string(task) + ".local.out");
        const std::string head = "rngvet campaign: task " + std::to_string(task) + " on GPU ";
        ASSERT_EQ(log.rfind(head, 0), 0u) << log;
        ++tasks_on[log.substr(head.size(), log.find('\n') - head.size())];
    }
    EXPECT_EQ(tasks_on.size(), 2u);
    EXPECT_EQ(tasks_on["5"] + tasks_on["7"], 5);
    EXPECT_EQ(
        count(dir + "/campaign.sqlite", "SELECT count(*) FROM runs WHERE status = 'complete'"), 5);

    refused = run_rngvet("campaign run " + file + " --tasks-per-gpu 2 --out " + dir);
    EXPECT_EQ(refused.status, 2);
    EXPECT_EQ(count_lines(refused.err), 1) << refused.err;
    EXPECT_NE(refused.err.find("--tasks-per-gpu goes with --gpus"), std::string::npos)
        << refused.err;
}

// A campaign on a plugin (examples/plugin) records its library's SHA-256 in every task's
// arguments, and a task refuses the library once it changed: a resumed task (its run recorded the
// hash), a task not started yet (--library-sha256), and the campaign file read again (the name
// holds the hash). A plugin without a skip cannot run a campaign's sharded tests.
TEST(CampaignCli, APluginCampaignRecordsItsLibraryAndRefusesItOnceChanged)
{
    const std::string lib = fresh("campaign_plugin.so");
    std::filesystem::copy_file(RNGVET_EXAMPLE_PLUGIN, lib);
    const std::string sha = rngvet::sha256_of_file(lib);
    const std::string file = rngvet_test::write_file("plugin.ini",
        "[campaign]\nname = plugin\nbattery = smallcrush\ntests = 1,2\n"
        "[configuration s]\ngenerator = lib:campaign_plugin.so\nseeds = 7 8\n");
    const std::string dir = fresh("plugin_campaign_dir");
    CliResult r = run_rngvet("campaign run " + file + " --jobs 2 --out " + dir);
    ASSERT_EQ(r.status, 0) << r.err;
    // The library named relative to the campaign file is found beside it, and recorded with its
    // absolute path and its hash.
    const TaskTable table = read_task_table(dir + "/tasks.tsv");
    ASSERT_EQ(table.tasks.size(), 2u);
    for (const CampaignTask& t : table.tasks) {
        EXPECT_EQ(
            t.config, "lib[splitmix64#" + sha.substr(0, 8) + "]/1/single/increment/" + t.seed);
        const std::string args = slurp(dir + "/tasks.tsv");
        EXPECT_NE(args.find("--generator lib:" + std::filesystem::canonical(lib).string()),
            std::string::npos)
            << args;
        EXPECT_NE(args.find("--library-sha256 " + sha), std::string::npos) << args;
    }
    const std::string db = dir + "/campaign.sqlite";
    EXPECT_EQ(count(db, "SELECT count(*) FROM runs WHERE input_sha256 = '" + sha + "'"), 2);

    // Task 1 cut short after its first test, task 0 never run; then the library changes.
    const std::string task1 = dir + "/tasks/task-1.sqlite";
    sql_write(task1,
        "DELETE FROM statistics WHERE test_number = 2; DELETE FROM tests WHERE test_number = 2;"
        "UPDATE runs SET status = 'interrupted'");
    std::remove((dir + "/tasks/task-0.sqlite").c_str());
    std::ofstream(lib, std::ios::app | std::ios::binary) << 'x';
    const std::string now = rngvet::sha256_of_file(lib);
    const std::string task1_before = dump(task1);

    r = run_rngvet("campaign run " + file + " --jobs 1 --out " + dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("its library or parameter file changed"), std::string::npos) << r.err;
    // What the Slurm array script runs for each task: campaign prepare, then the resume or the
    // task's own arguments.
    r = run_rngvet("campaign prepare " + dir + " 1");
    ASSERT_EQ(r.status, 0) << r.err;
    r = run_rngvet("run --resume 1 --mode sharded --db " + task1);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(sha), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(now), std::string::npos) << r.err;
    EXPECT_EQ(dump(task1), task1_before);
    // Task 0's arguments, the last column of its row (the table keeps them as shell words).
    std::istringstream rows(slurp(dir + "/tasks.tsv"));
    std::string args;
    for (std::string row; std::getline(rows, row);)
        if (row.rfind("0\t", 0) == 0) args = row.substr(row.rfind('\t') + 1);
    ASSERT_NE(args.find("--library-sha256"), std::string::npos) << args;
    r = run_rngvet("run " + args + " --mode sharded --db " + dir + "/tasks/task-0.sqlite");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("not " + sha + " (--library-sha256)"), std::string::npos) << r.err;
    EXPECT_FALSE(exists(dir + "/tasks/task-0.sqlite"));

    // No skip function: no sharded tests, so no campaign.
    const std::string noskip
        = "[campaign]\nname = n\nbattery = smallcrush\nseeds = 1\n"
          "[configuration x]\ngenerator = lib:" RNGVET_FAULT_PLUGIN ":xorshift32_generator\n";
    EXPECT_NE(expect_error(noskip).find(
                  "c.ini:5: [configuration x]: a campaign runs its tests sharded, and the plugin "
                  "'xorshift32' has no skip function"),
        std::string::npos);
    RecordProperty("faults", 1);
}

} // namespace
} // namespace rngvet::campaigns
