// Stores and the inputs around them, driven through the rngvet binary (CTest label
// `robustness`): numbers and files that cannot end a command are refused, a --db that is not
// a regular file is refused before it is opened, every exit of a run leaves one whole store
// file, a finished campaign reads on a read-only copy, the names of stored runs parse back, and
// a damaged stored run is refused by --resume. docs/reliability.md lists what each test shows.
#include "generators/configuration.hpp"
#include "reports/store.hpp"
#include "tests/support.hpp"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#ifndef RNGVET_DATA_DIR
#error "define RNGVET_DATA_DIR (the repository's generators/params folder)"
#endif

namespace {

using namespace rngvet_test;
using Result = CliResult;
namespace fs = std::filesystem;

bool exists(const std::string& path)
{
    struct stat st { };
    return ::lstat(path.c_str(), &st) == 0;
}

// Everything the store holds, row by row, as text.
std::string contents(const std::string& db)
{
    sqlite3* h = nullptr;
    std::string out;
    if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return "?";
    std::vector<std::string> tables;
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(
        h, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW)
        tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    for (const std::string& t : tables) {
        out += "[" + t + "]\n";
        sqlite3_prepare_v2(
            h, ("SELECT * FROM \"" + t + "\" ORDER BY 1, 2").c_str(), -1, &st, nullptr);
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                const auto* v = sqlite3_column_text(st, c);
                out += (v ? reinterpret_cast<const char*>(v) : "NULL") + std::string("|");
            }
            out += "\n";
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

// A one-line refusal: exit 2, one line starting "rngvet: error: " that holds `says`.
void expect_refused(const Result& r, const std::string& says)
{
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("rngvet: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
}

// Commands that could run forever or fill the memory run under these bounds: 20 s, then
// `timeout` ends them with 124; 4 GiB of address space.
const std::string bounded = "ulimit -v 4194304; timeout 20";

const std::string ranmar = "--generator ranmar48 --seed 1802,9373 --battery smallcrush";

// Starts `rngvet ARGS` in the background in a process group of its own, standard input from
// `input` (or /dev/null); returns its process id.
pid_t start(const std::string& args, const std::string& input = "/dev/null")
{
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        const std::string cmd
            = std::string(RNGVET_BINARY) + " " + args + " <" + input + " >/dev/null 2>&1";
        execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

int wait_status(pid_t pid)
{
    int raw = 0;
    waitpid(pid, &raw, 0);
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

// What a run's exit left: the store is one file (no -wal, no -reserve beside it), and a copy
// of that file alone holds run 1 with `status` and its tests.
void expect_one_whole_file(const std::string& db, const std::string& status)
{
    EXPECT_FALSE(exists(db + "-wal")) << "a -wal file was left beside the store";
    EXPECT_FALSE(exists(db + "-reserve")) << "the disk reserve was left beside the store";
    const std::string copy = fresh(fs::path(db).filename().string() + ".copy");
    std::ofstream(copy, std::ios::binary) << slurp(db);
    std::string error;
    EXPECT_EQ(sql_readonly(copy, "SELECT status FROM runs WHERE run_id = 1", &error), status)
        << error;
}

// --- numbers ---------------------------------------------------------------------------------

TEST(Stores, BenchSecondsMustBeAFiniteNumberInItsRange)
{
    for (const std::string seconds : { "inf", "nan", "1e308", "-inf", "0", "-1", "1e5" }) {
        SCOPED_TRACE(seconds);
        const Result r = run_rngvet("bench --backend cpu --seconds " + seconds, bounded);
        expect_refused(r, "--seconds");
    }
}

// --- files that are not regular, or too large --------------------------------------------------

TEST(Stores, InputFilesMustBeRegularAndBounded)
{
    const std::string huge = fresh("stores_huge.txt");
    std::ofstream(huge).close();
    fs::resize_file(huge, (std::uintmax_t(64) << 20) + 1); // sparse: nothing written
    const std::string db = fresh("stores_files.sqlite");
    const std::string mtdc = "run --generator mtdc --seed 5 --tests 1 --db " + db + " --params ";
    for (const std::string& args :
        std::vector<std::string>{ mtdc + "/dev/zero", mtdc + huge, "dc verify /dev/zero",
            "dc verify " + huge, "campaign plan /dev/zero", "campaign plan " + huge,
            "campaign run /dev/zero --out " + fresh("stores_files_campaign") }) {
        SCOPED_TRACE(args);
        const Result r = run_rngvet(args, bounded);
        expect_refused(r, args.find(huge) == std::string::npos ? "not a regular file" : "64 MiB");
    }
    EXPECT_FALSE(exists(db)) << "a refused run stored something";
}

// --- --db that is not a regular file -----------------------------------------------------------

TEST(Stores, ADbThatIsNotARegularFileIsRefusedBeforeItIsOpened)
{
    const std::string fifo = fresh("stores_fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string folder = fresh("stores_folder");
    fs::create_directory(folder);
    // A campaign directory for merge: its table is read before the database is opened.
    const std::string file = write_file("stores_db.ini",
        "[campaign]\nname = db\nbattery = smallcrush\ntests = 1\nshards = 1\n"
        "[configuration a]\ngenerator = ranmar48\nseeds = 1802,9373\n");
    const std::string dir = fresh("stores_db_campaign");
    ASSERT_EQ(run_rngvet("campaign submit " + file + " --slurm --dry-run --out " + dir).status, 0);
    std::error_code ignored;
    fs::remove("/dev/null-journal", ignored);
    for (const std::string& db : { fifo, std::string("/dev/null"), folder }) {
        for (const std::string& args :
            { "status --db " + db, "report --db " + db, "run " + ranmar + " --tests 1 --db " + db,
                "run --resume 1 --db " + db, "bench --backend cpu --seconds 0.01 --db " + db,
                "campaign merge " + dir + " --db " + db,
                "campaign run " + file + " --out " + fresh("stores_db_run") + " --db " + db }) {
            SCOPED_TRACE(args);
            const Result r = run_rngvet(args, bounded);
            expect_refused(r, "not a regular file");
        }
    }
    EXPECT_FALSE(exists("/dev/null-journal"));
    fs::remove("/dev/null-journal", ignored);
}

// --- every exit of a run leaves one whole file -----------------------------------------------

TEST(Stores, SigtermToASerialRunLeavesOneWholeFileMarkedInterrupted)
{
    const std::string db = fresh("stores_sigterm.sqlite");
    const pid_t pid = start("run " + ranmar + " --mode serial --db " + db);
    ASSERT_GT(pid, 0);
    // Stopped in the middle of the battery, once a test is stored.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (sql_readonly(db, "SELECT count(*) FROM tests") < "1"
        && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    kill(pid, SIGTERM);
    EXPECT_EQ(wait_status(pid), 130);
    expect_one_whole_file(db, "interrupted");
    const std::string tests = sql_readonly(db, "SELECT count(*) FROM tests");
    EXPECT_GE(tests, "1");
    EXPECT_NE(tests, "10") << "the run had finished before SIGTERM";
}

TEST(Stores, AStandardInputThatEndsLeavesOneWholeFileMarkedFailed)
{
    // 40000 bytes: 10000 words, far fewer than SmallCrush's first test reads.
    const std::string words = fresh("stores_stdin.bin");
    {
        std::mt19937 random(27);
        std::ofstream out(words, std::ios::binary);
        for (int i = 0; i < 10000; ++i) {
            const auto w = static_cast<std::uint32_t>(random());
            out.write(reinterpret_cast<const char*>(&w), sizeof w);
        }
    }
    const std::string db = fresh("stores_stdin.sqlite");
    const pid_t pid = start("run --generator stdin32 --battery smallcrush --db " + db, words);
    ASSERT_GT(pid, 0);
    EXPECT_EQ(wait_status(pid), 1);
    expect_one_whole_file(db, "failed");
}

// --- a finished campaign reads on a read-only copy --------------------------------------------

TEST(Stores, CampaignStatusAndMergeReadTheTasksOfAReadOnlyCopy)
{
    const std::string file = write_file("stores_ro.ini",
        "[campaign]\nname = ro\nbattery = smallcrush\ntests = 1-3\nshards = 2\n"
        "[configuration a]\ngenerator = ranmar48\nseeds = 1802,9373\n");
    const std::string dir = fresh("stores_ro_campaign");
    const Result ran = run_rngvet("campaign run " + file + " --jobs 2 --out " + dir);
    ASSERT_EQ(ran.status, 0) << ran.err;
    const std::string merged_here = dir + "/campaign.sqlite";
    const std::string statistics = sql_readonly(merged_here, "SELECT count(*) FROM statistics");
    ASSERT_NE(statistics, "");

    // A read-only file system: root writes through permission bits, not through MS_RDONLY.
    const std::string mnt = testing::TempDir() + "stores_ro_mnt";
    ::mkdir(mnt.c_str(), 0755);
    ::umount(mnt.c_str());
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=16m") != 0) {
        std::cout << "no tmpfs can be mounted here (needs root): skipped\n";
        GTEST_SKIP() << "no tmpfs can be mounted here (needs root)";
    }
    fs::copy(dir, mnt + "/campaign", fs::copy_options::recursive);
    const bool ro = ::mount("tmpfs", mnt.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) == 0;
    const Result status = run_rngvet("campaign status " + mnt + "/campaign --all");
    const std::string elsewhere = fresh("stores_ro_merged.sqlite");
    const Result merge = run_rngvet("campaign merge " + mnt + "/campaign --db " + elsewhere);
    ::umount(mnt.c_str());
    ASSERT_TRUE(ro) << "could not remount the tmpfs read-only";
    EXPECT_EQ(status.status, 0) << status.err;
    EXPECT_EQ(status.out.find("unusable"), std::string::npos) << status.out;
    EXPECT_NE(status.out.find("2 done"), std::string::npos) << status.out;
    EXPECT_EQ(merge.status, 0) << merge.err << merge.out;
    EXPECT_EQ(sql_readonly(elsewhere, "SELECT count(*) FROM statistics"), statistics);
    EXPECT_EQ(sql_readonly(elsewhere, "SELECT status FROM runs"), "complete");
}

// --- names of stored runs ------------------------------------------------------------------

// Every configuration rngvet accepts has a canonical name that parses back to itself; a name
// that could not is refused when the configuration is resolved.
TEST(Stores, EveryAcceptedNameParsesBackToItself)
{
    const std::string folder = fresh("stores_names");
    fs::create_directory(folder);
    const std::string sets = std::string(RNGVET_DATA_DIR) + "/mt521_fixstars32.txt";
    int accepted = 0, refused = 0;
    for (const std::string name : { "plain", "semi;colon", "x;view=low32", "x;view=top32",
             "x;zero=smallest", "hash#1@2", "br]ack[et", "sp ace", "per%cent", "q?uery",
             "trailing;", "mtdc[a#b@0]", "p=x", "x;seed=1", "x;skip=2", "file64[n]" }) {
        const std::string path = folder + "/" + name;
        fs::copy_file(sets, path);
        for (const std::string view : { "top32", "low32" }) {
            SCOPED_TRACE(name + " " + view);
            rngvet::ConfigurationText file;
            file.generator = "file:" + path;
            file.view = view;
            rngvet::ConfigurationText mtdc;
            mtdc.generator = "mtdc";
            mtdc.seed = "5";
            mtdc.params = path;
            mtdc.view = view;
            // 64-bit words with a recorded seed, and named (the name leaves the path out).
            rngvet::ConfigurationText wide = file;
            wide.generator = "file64:" + path;
            wide.seed = "7";
            rngvet::ConfigurationText named = wide;
            named.name = "gen";
            for (const rngvet::ConfigurationText& text : { file, mtdc, wide, named }) {
                rngvet::Configuration c;
                try {
                    c = rngvet::resolve_configuration(text);
                } catch (const rngvet::InputError&) {
                    ++refused;
                    continue;
                }
                ++accepted;
                const std::string canonical = rngvet::canonical_name(c);
                try {
                    const rngvet::Configuration back = rngvet::parse_canonical_name(
                        canonical, text.params, text.name.empty() ? "" : c.generator.path);
                    EXPECT_EQ(rngvet::canonical_name(back), canonical);
                    EXPECT_EQ(back.generator.path, c.generator.path);
                    EXPECT_EQ(back.params, c.params);
                } catch (const rngvet::InputError& e) {
                    ADD_FAILURE() << "accepted, but its name does not parse back: " << e.what();
                }
            }
        }
    }
    EXPECT_GT(accepted, 60);
    EXPECT_GT(refused, 0);
    RecordProperty("accepted", accepted);
    RecordProperty("refused", refused);
}

TEST(Stores, NamesThatCannotParseBackAreRefusedBeforeAnythingIsStored)
{
    const std::string folder = fresh("stores_refused_names");
    fs::create_directory(folder);
    const std::string sets = folder + "/a;b.txt";
    fs::copy_file(std::string(RNGVET_DATA_DIR) + "/mt521_fixstars32.txt", sets);
    const std::string words = folder + "/w;view=low32";
    std::ofstream(words) << std::string(4000, 'x');
    const std::string db = fresh("stores_names.sqlite");
    for (const std::string& args :
        { "run --generator mtdc --seed 5 --tests 1 --params '" + sets + "' --db " + db,
            "run --generator 'file:" + words + "' --tests 1 --db " + db }) {
        SCOPED_TRACE(args);
        expect_refused(run_rngvet(args, bounded), "canonical");
    }
    EXPECT_FALSE(exists(db)) << "a refused run stored something";
}

// rngvet status lists every run it can read and names each one whose stored status or mode is
// none of its words, instead of refusing the whole store.
TEST(Stores, StatusListsTheOtherRunsAndNamesADamagedOne)
{
    const std::string db = fresh("stores_status_damaged.sqlite");
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(run_rngvet("run " + ranmar + " --tests 1 --db " + db).status, 0);
    sql_write(db,
        "PRAGMA ignore_check_constraints = ON; UPDATE runs SET mode = 'bogus' WHERE run_id = 2; "
        "UPDATE runs SET status = 'paused' WHERE run_id = 3");
    const Result r = run_rngvet("status --db " + db);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\n1    complete"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("run 2 cannot be read: its stored mode 'bogus' is damaged (not serial or "
                         "sharded)"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("run 3 cannot be read: its stored status 'paused' is damaged"),
        std::string::npos)
        << r.out;
}

// --- --resume trusts nothing it reads -------------------------------------------------------

TEST(Stores, ResumeRefusesADamagedStoredRunNamingTheField)
{
    // An interrupted serial run: tests 1 and 2 of 1,2,3 stored.
    const std::string original = fresh("stores_damaged_original.sqlite");
    ASSERT_EQ(
        run_rngvet("run " + ranmar + " --mode serial --tests 1,2,3 --db " + original).status, 0);
    sql_write(original, "DELETE FROM statistics WHERE test_number = 3");
    sql_write(original, "DELETE FROM tests WHERE test_number = 3");
    sql_write(original, "UPDATE runs SET status = 'interrupted'");
    struct Damage {
        const char* field;
        const char* statement;
    };
    const Damage damages[] = {
        { "mode", "UPDATE runs SET mode = 'Serial'" },
        { "mode", "UPDATE runs SET mode = ''" },
        { "status", "UPDATE runs SET status = 'paused'" },
        { "battery", "UPDATE runs SET battery = 'smallcrash'" },
        { "tests_selected", "UPDATE runs SET tests_selected = '1,2,x'" },
        { "tests_selected", "UPDATE runs SET tests_selected = '1,2,99'" },
        { "jobs", "UPDATE runs SET jobs = 0" },
        { "backend", "UPDATE runs SET backend = 'gpu'" },
        { "backend", "UPDATE runs SET backend = 'auto'" },
        { "config", "UPDATE runs SET config = 'ranmar48/1/single/increment'" },
        { "generator", "UPDATE runs SET generator = 'ranmar24'" },
        { "seed", "UPDATE runs SET seed = '1,2'" },
        { "start_offset",
            "UPDATE tests SET start_offset = start_offset + 1 WHERE test_number = 2" },
        { "numbers_used", "UPDATE tests SET numbers_used = 0 WHERE test_number = 2" },
        { "test_number", "UPDATE tests SET test_number = 11 WHERE test_number = 2" },
    };
    int refused = 0;
    for (const Damage& d : damages) {
        SCOPED_TRACE(d.statement);
        const std::string db = fresh("stores_damaged.sqlite");
        fs::copy_file(original, db);
        sql_write(db,
            "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON; "
                + std::string(d.statement));
        const std::string before = contents(db);
        const Result r = run_rngvet("run --resume 1 --db " + db, bounded);
        expect_refused(r, "run 1");
        EXPECT_NE(r.err.find(d.field), std::string::npos) << r.err;
        EXPECT_EQ(contents(db), before) << "a refused resume changed the store";
        refused += r.status == 2;
    }
    RecordProperty("refused", refused);

    // The undamaged copy resumes to completion.
    const Result resumed = run_rngvet("run --resume 1 --db " + original, bounded);
    EXPECT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_EQ(sql_readonly(original, "SELECT status FROM runs"), "complete");
}

} // namespace
