// Inputs that once ended as a stored false result or a damaged file that was not rngvet's
// (CTest label `robustness`; docs/reliability.md): user numbers whose sums or products overflow,
// task databases whose statistics sit at wrong positions, a file: input changed during its run,
// and names planted where rngvet writes (the disk reserve beside a store, a campaign folder).
#include "batteries/catalogue.hpp"
#include "generators/configuration.hpp"
#include "generators/sha256.hpp"
#include "runs/stored_run.hpp"
#include "tests/support.hpp"

#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using namespace rngvet_test;

// Runs `query` on `db`; the first column of the first row as text ("" when none).
std::string sql(const std::string& db, const std::string& query)
{
    sqlite3* h = nullptr;
    EXPECT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    std::string out;
    EXPECT_EQ(sqlite3_prepare_v2(h, query.c_str(), -1, &st, nullptr), SQLITE_OK)
        << sqlite3_errmsg(h);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
}

bool exists(const std::string& path)
{
    struct stat st { };
    return ::lstat(path.c_str(), &st) == 0;
}

bool is_link(const std::string& path)
{
    struct stat st { };
    return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

mode_t mode_of(const std::string& path)
{
    struct stat st { };
    ::stat(path.c_str(), &st);
    return st.st_mode & 07777;
}

// A fresh, empty folder under the test's temporary directory.
std::string fresh_dir(const std::string& name)
{
    const std::string dir = testing::TempDir() + name;
    std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
    return dir;
}

// A file that rngvet must leave alone: its content and mode 0600.
std::string victim(const std::string& path)
{
    std::ofstream(path) << "not rngvet's\n";
    ::chmod(path.c_str(), 0600);
    return path;
}

void expect_untouched(const std::string& path)
{
    EXPECT_EQ(slurp(path), "not rngvet's\n") << path;
    EXPECT_EQ(mode_of(path), mode_t{ 0600 }) << path;
}

const std::string ranmar = "--generator ranmar48 --seed 1802,9373";

// --- sums and products of user numbers ---------------------------------------------------

struct Overflow {
    const char* args; // {db} is replaced
    const char* says;
};

// Each was accepted before and ran some other stream or battery than the one named: r + s
// wrapped below 32, p wrapped onto 521, the instances of split:S met again after 2^64 numbers,
// N*K and the skip wrapped positions.
const Overflow overflows[] = {
    { "run {ranmar} --battery alphabit --nb 512 --alphabit-r 2147483647 --alphabit-s 1 "
      "--tests 1 --db {db}",
        "r + s must be at most 32" },
    { "run {ranmar} --battery 'alphabit(nb=512,r=1,s=2147483647)' --db {db}",
        "r + s must be at most 32" },
    { "run {ranmar} --battery alphabit --alphabit-r 1 --alphabit-s 2147483647 --db {db}",
        "r + s must be at most 32" },
    { "run --generator mtdc --params p=4294967817,aaa=cef725c0,maskB=a5b6dd80,maskC=ffd58000 "
      "--seed 1 --db {db}",
        "not a supported Mersenne exponent" },
    { "run {ranmar} --instances 3 --seeding split:9223372036854775808 --db {db}",
        "S*(N - 1) must be below 2^62" },
    { "run {ranmar} --instances 8 --layout block:4611686018427387904 --db {db}",
        "N*K must be below 2^62" },
    { "run {ranmar} --instances 2 --layout request:18446744073709551615 --db {db}",
        "R must be below 2^62" },
    { "run {ranmar} --skip 18446744073709551615 --db {db}", "--skip" },
    { "generate {ranmar} --instances 3 --seeding split:9223372036854775808 --count 4",
        "S*(N - 1) must be below 2^62" },
    { "generate --generator mt19937 --seed 5 --instances 2 --seeding "
      "split:18446744073709551615 --count 4",
        "S*(N - 1) must be below 2^62" },
    { "run --generator mtdc --params fixstars-mt521 --param-id 2147483647 --instances 2 "
      "--seed 1 --db {db}",
        "needs 2147483649" },
};

std::string substitute(std::string s, const std::string& key, const std::string& value)
{
    for (std::size_t at; (at = s.find(key)) != std::string::npos;)
        s.replace(at, key.size(), value);
    return s;
}

TEST(RobustnessResults, OverflowingUserNumbersAreRefusedBeforeAnythingIsStored)
{
    for (const Overflow& o : overflows) {
        const std::string db = fresh("overflow.sqlite");
        const std::string args = substitute(substitute(o.args, "{ranmar}", ranmar), "{db}", db);
        SCOPED_TRACE(args);
        const CliResult r = run_rngvet(args);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(o.says), std::string::npos) << r.err;
        EXPECT_FALSE(exists(db)) << "a store was made";
    }
    // The bounds are bounds, not refusals of the parameters: the largest r + s runs.
    const std::string db = fresh("overflow_ok.sqlite");
    const CliResult ok = run_rngvet(
        "run " + ranmar + " --battery 'alphabit(nb=512,r=31,s=1)' --tests 1 --db " + db);
    EXPECT_EQ(ok.status, 0) << ok.err;
}

// --- merge: every statistic at its position, under its name --------------------------------

class MergePositions : public testing::Test {
protected:
    void SetUp() override
    {
        const std::string file = write_file("positions.ini",
            "[campaign]\nname = positions\nbattery = smallcrush\ntests = 1,3,6\nshards = 2\n"
            "seeds = 1802,9373\n[configuration r48]\ngenerator = ranmar48\n");
        // Each test its own folder: ctest runs the tests of this fixture at once (-j).
        name_ = testing::UnitTest::GetInstance()->current_test_info()->name();
        dir_ = fresh_dir("positions_dir_" + name_);
        ASSERT_EQ(run_rngvet("campaign run " + file + " --jobs 2 --out " + dir_).status, 0);
        task0_ = dir_ + "/tasks/task-0.sqlite";
        task1_ = dir_ + "/tasks/task-1.sqlite";
        ASSERT_EQ(std::system(("cp " + task0_ + " " + task0_ + ".good").c_str()), 0);
    }

    // Merges into a new database: the exit status, and task 0 refused with `says` while task 1
    // merges.
    void expect_task0_refused(const std::string& says)
    {
        const std::string db = fresh("positions_merged_" + name_ + ".sqlite");
        const CliResult r = run_rngvet("campaign merge " + dir_ + " --db " + db);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_NE(r.err.find("task 0"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
        EXPECT_EQ(sql(db, "SELECT count(*) FROM campaign_tasks WHERE task_id = 0"), "0");
        EXPECT_EQ(sql(db, "SELECT count(*) FROM campaign_tasks WHERE task_id = 1"), "1");
        EXPECT_EQ(sql(db, "SELECT count(*) FROM statistics WHERE test_name = 'Fake'"), "0");
        ASSERT_EQ(std::system(("cp " + task0_ + ".good " + task0_).c_str()), 0);
    }

    std::string name_, dir_, task0_, task1_;
};

TEST_F(MergePositions, AnAddedStatisticIsRefused)
{
    // SmallCrush test 9 (index 9 in the battery) is no test this campaign ran.
    sql(task0_,
        "INSERT INTO statistics (run_id, stat_index, test_number, test_name, pvalue) "
        "VALUES (1, 9, 9, 'Fake', 0)");
    expect_task0_refused("which no finished test of smallcrush has");
    // Nor may a task hold a statistic of its own battery's test that its sibling ran.
    const std::string other = sql(task1_, "SELECT min(stat_index) FROM statistics");
    const std::string test = sql(task1_, "SELECT min(test_number) FROM statistics");
    sql(task0_,
        "INSERT INTO statistics (run_id, stat_index, test_number, test_name, pvalue) "
        "SELECT 1, "
            + other + ", " + test + ", test_name, 0 FROM statistics LIMIT 1");
    expect_task0_refused("which no finished test of smallcrush has");
}

TEST_F(MergePositions, AShiftedStatisticIsRefusedNotDropped)
{
    // Task 0's last statistic moved onto the first position of task 1's test: before, the
    // merge kept one of the two and dropped the other without a word.
    const std::string last = sql(task0_, "SELECT max(stat_index) FROM statistics");
    const std::string onto = sql(task1_, "SELECT min(stat_index) FROM statistics");
    sql(task0_, "UPDATE statistics SET stat_index = " + onto + " WHERE stat_index = " + last);
    expect_task0_refused("which no finished test of smallcrush has");
    // A statistic renamed in place.
    sql(task0_,
        "UPDATE statistics SET test_name = 'Fake' WHERE stat_index = (SELECT min(stat_index) "
        "FROM statistics)");
    expect_task0_refused("where smallcrush names it");
}

TEST_F(MergePositions, AStatisticUnderAnotherTestOrNameIsRefused)
{
    const std::string first = sql(task0_, "SELECT min(stat_index) FROM statistics");
    sql(task0_, "UPDATE statistics SET test_number = 2 WHERE stat_index = " + first);
    expect_task0_refused("has a statistic of test");
    // The test's first word kept, the rest changed: still the catalogue's name or refused.
    sql(task0_,
        "UPDATE statistics SET test_name = test_name || ' again' WHERE stat_index = " + first);
    expect_task0_refused("where smallcrush names it");
}

TEST_F(MergePositions, TheUndamagedTasksMerge)
{
    const std::string db = fresh("positions_good.sqlite");
    const CliResult r = run_rngvet("campaign merge " + dir_ + " --db " + db);
    EXPECT_EQ(r.status, 0) << r.err;
    // SmallCrush tests 1, 3 and 6 write 1, 1 and 2 statistics, at 1, 3 and 6, 7.
    EXPECT_EQ(sql(db, "SELECT count(*) FROM statistics"), "4");
    EXPECT_EQ(sql(db,
                  "SELECT group_concat(stat_index) FROM (SELECT stat_index FROM statistics "
                  "ORDER BY stat_index)"),
        "1,3,6,7");
}

// --- a file: input changed while its run reads it -----------------------------------------

// The run recorded the hash of `before`; the file holds `now` when its tests read it.
rngvet::StoredRunResult run_on_changed_file(
    const std::string& name, const std::string& before, const std::string& now)
{
    const std::string path = fresh(name + ".bin"), db = fresh(name + ".sqlite");
    std::ofstream(path, std::ios::binary) << now;
    rngvet::ConfigurationText text;
    text.generator = "file:" + path;
    rngvet::NewRun start;
    start.config = rngvet::resolve_configuration(text);
    start.battery = &rngvet::catalogue_for("mcpi(points=100,reps=1)");
    start.tests = { 1 };
    start.mode = rngvet::RunMode::serial;
    start.input_sha256 = rngvet::sha256_hex(before);
    rngvet::Store store(db);
    const rngvet::RunRecord run = rngvet::new_run_record(start);
    const std::int64_t id = rngvet::open_run(store, run, 0);
    rngvet::RunnerOptions options;
    options.mode = rngvet::RunMode::serial;
    std::ostringstream lines;
    rngvet::Progress progress(*start.battery, start.tests, lines, false);
    rngvet::StoredRunResult result = rngvet::run_stored_tests(
        store, id, run, start.config, *start.battery, start.tests, options, progress);
    EXPECT_EQ(store.run(id)->status, result.status);
    return result;
}

TEST(RobustnessResults, AFileInputChangedDuringItsRunFailsTheRun)
{
    // mcpi's test 1 at 100 points reads 200 words.
    std::string words(4 * 256, '\0');
    for (std::size_t i = 0; i < words.size(); ++i)
        words[i] = static_cast<char>(i * 2654435761u >> 13);
    std::string changed = words;
    changed[17] = static_cast<char>(changed[17] ^ 0x40);

    const rngvet::StoredRunResult same = run_on_changed_file("input_same", words, words);
    EXPECT_EQ(same.status, rngvet::RunStatus::complete);
    EXPECT_EQ(same.input_changed, "");
    const rngvet::StoredRunResult other = run_on_changed_file("input_changed", words, changed);
    EXPECT_EQ(other.status, rngvet::RunStatus::failed);
    EXPECT_NE(other.input_changed.find("changed during the run"), std::string::npos)
        << other.input_changed;
    EXPECT_NE(other.input_changed.find(rngvet::sha256_hex(changed)), std::string::npos);
}

// --- the disk reserve beside a store --------------------------------------------------------

// Paths in `dir` whose names start with `prefix`.
std::vector<std::string> named(const std::string& dir, const std::string& prefix)
{
    std::vector<std::string> out;
    const std::string list = testing::TempDir() + "named.txt";
    std::system(("ls -a '" + dir + "' > '" + list + "'").c_str());
    std::istringstream lines(slurp(list));
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(prefix, 0) == 0) out.push_back(line);
    return out;
}

TEST(RobustnessResults, TheDiskReserveTouchesNoFileItDidNotCreate)
{
    const std::string dir = fresh_dir("reserve_dir");
    const std::string db = dir + "/r.sqlite";
    // The user's own file at the name the reserve once had, and a link there to another file.
    victim(db + "-reserve");
    const std::string target = victim(dir + "/target");
    ASSERT_EQ(::symlink(target.c_str(), (db + "-reserve-linked").c_str()), 0);
    // A reserve of a live run (locked), and one a killed run left behind (not locked).
    std::string live = db + "-reserve-LIVE00";
    {
        std::ofstream(live).close();
        ASSERT_EQ(::truncate(live.c_str(), rngvet::DiskReserve::bytes), 0);
    }
    const int held = ::open(live.c_str(), O_RDONLY);
    ASSERT_EQ(::flock(held, LOCK_EX), 0);
    const std::string abandoned = db + "-reserve-DEAD00";
    {
        std::ofstream(abandoned).close();
        ASSERT_EQ(::truncate(abandoned.c_str(), rngvet::DiskReserve::bytes), 0);
    }

    const CliResult r = run_rngvet("run " + ranmar + " --tests 1,2 --db " + db);
    EXPECT_EQ(r.status, 0) << r.err;
    expect_untouched(db + "-reserve");
    expect_untouched(target);
    EXPECT_TRUE(is_link(db + "-reserve-linked"));
    EXPECT_TRUE(exists(live)) << "a live run's reserve was removed";
    EXPECT_FALSE(exists(abandoned)) << "a killed run's reserve was kept";
    // What is left is what was there before the run, less the abandoned reserve.
    EXPECT_EQ(named(dir, "r.sqlite-reserve").size(), 3u);
    ::close(held);
}

// --- campaign folders that others can write --------------------------------------------------

TEST(RobustnessResults, ACampaignFolderIsNeverWrittenThroughAPlantedLink)
{
    const std::string file = write_file("planted.ini",
        "[campaign]\nname = planted\nbattery = smallcrush\ntests = 1,2\nshards = 2\n"
        "seeds = 1802,9373\n[configuration r48]\ngenerator = ranmar48\n");
    const std::string victims = fresh_dir("planted_victims");
    const std::string dir = fresh_dir("planted_dir");
    ASSERT_EQ(std::system(("mkdir -p " + dir + "/tasks " + dir + "/logs").c_str()), 0);
    const std::vector<std::string> planted
        = { "campaign.sbatch.tmp", "merge.sbatch.tmp", "campaign.ini.tmp", "tasks.tsv.tmp",
              "tasks/.rngvet-write-test", "tasks/task-0.sqlite-reserve",
              "tasks/task-1.sqlite-reserve", ".campaign-run.lock", "jobs.tsv" };
    std::vector<std::string> targets;
    for (std::size_t i = 0; i < planted.size(); ++i) {
        targets.push_back(victim(victims + "/v" + std::to_string(i)));
        ASSERT_EQ(::symlink(targets.back().c_str(), (dir + "/" + planted[i]).c_str()), 0);
    }
    // The scripts, the table and the copy of the file, written as a Slurm campaign would be.
    CliResult r = run_rngvet("campaign submit " + file + " --slurm --dry-run --out " + dir);
    EXPECT_EQ(r.status, 0) << r.err;
    for (const std::string& t : targets)
        expect_untouched(t);
    EXPECT_EQ(mode_of(dir + "/campaign.sbatch"), mode_t{ 0755 });

    // Run here: a lock that is a link is refused before any task runs.
    r = run_rngvet("campaign run " + file + " --jobs 2 --out " + dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(".campaign-run.lock' as a file of its own"), std::string::npos) << r.err;
    EXPECT_FALSE(exists(dir + "/tasks/task-1.sqlite"));
    ::unlink((dir + "/.campaign-run.lock").c_str());
    // The task whose log name is a link is not run (and the link's target is untouched); the
    // other task runs.
    const std::string log_target = victim(victims + "/log");
    ASSERT_EQ(::symlink(log_target.c_str(), (dir + "/logs/task-0.local.out").c_str()), 0);
    r = run_rngvet("campaign run " + file + " --jobs 2 --out " + dir);
    EXPECT_NE(r.status, 0) << r.out;
    expect_untouched(log_target);
    for (const std::string& t : targets)
        expect_untouched(t);
    EXPECT_TRUE(exists(dir + "/tasks/task-1.sqlite"));
    EXPECT_EQ(sql(dir + "/tasks/task-1.sqlite", "SELECT status FROM runs"), "complete");

    // A task database that is a link to another store is not written.
    const std::string store = fresh("planted_store.sqlite");
    ASSERT_EQ(run_rngvet("run " + ranmar + " --tests 1 --db " + store).status, 0);
    const std::string before = slurp(store);
    ::unlink((dir + "/logs/task-0.local.out").c_str());
    std::system(("rm -f " + dir + "/tasks/task-0.sqlite*").c_str());
    ASSERT_EQ(::symlink(store.c_str(), (dir + "/tasks/task-0.sqlite").c_str()), 0);
    r = run_rngvet("campaign run " + file + " --jobs 2 --out " + dir);
    EXPECT_NE(r.status, 0);
    EXPECT_NE((r.out + r.err).find("not a file of its own"), std::string::npos) << r.out << r.err;
    EXPECT_TRUE(slurp(store) == before) << "the linked store changed";
}

} // namespace

namespace {

// A campaign's merged run keeps the provenance its task runs recorded: how the parameter sets
// were checked (the column that schema 4 added was once left out of the merge and came back '').
TEST(RobustnessResults, AMergedRunKeepsItsParameterCheck)
{
    const std::string file = write_file("provenance.ini",
        "[campaign]\nname = provenance\nbattery = smallcrush\ntests = 1,3\nshards = 2\n"
        "[configuration book]\ngenerator = mtdc\nparams = fixstars-mt521\ninstances = 2\n"
        "seeds = 7\n");
    const std::string dir = fresh_dir("provenance_dir");
    const CliResult r = run_rngvet("campaign run " + file + " --jobs 2 --out " + dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string task = sql(dir + "/tasks/task-0.sqlite", "SELECT params_check FROM runs");
    EXPECT_EQ(task.rfind("verified", 0), 0u) << task;
    EXPECT_EQ(sql(dir + "/campaign.sqlite", "SELECT params_check FROM runs"), task);
}

} // namespace
