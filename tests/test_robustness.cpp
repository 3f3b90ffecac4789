// Faults and bad input, driven through the rngvet binary (CTest label `robustness`): every
// refusal is one line with exit status 2 and leaves the store byte for byte as it was; write
// failures exit 1 and leave the previous file; kill -9 at random points followed by resume
// gives every statistic exactly once with the p-values of an uninterrupted run; a store can be
// read where it cannot be written. docs/reliability.md lists what each test shows.
#include "reports/store.hpp"
#include "tests/support.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>
#include <sqlite3.h>
#include <sstream>
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

void copy_file(const std::string& from, const std::string& to)
{
    std::ofstream(to, std::ios::binary) << slurp(from);
}

// One SQL value of the first row, as text.
std::string sql(const std::string& db, const std::string& query)
{
    sqlite3* h = nullptr;
    EXPECT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    std::string out;
    if (sqlite3_prepare_v2(h, query.c_str(), -1, &st, nullptr) == SQLITE_OK
        && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
}

// Everything the store holds, row by row, as text: what must not change when a command is
// refused (the file's bytes may: opening a store for writing switches its journal mode).
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

// The same through a read-only connection (SQLite's mode=ro), as a reader without write access.
std::string sql_readonly(const std::string& db, const std::string& query)
{
    sqlite3* h = nullptr;
    std::string out = "cannot open";
    if (sqlite3_open_v2(("file:" + db + "?mode=ro").c_str(), &h,
            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr)
        == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        out = sqlite3_errmsg(h);
        if (sqlite3_prepare_v2(h, query.c_str(), -1, &st, nullptr) == SQLITE_OK
            && sqlite3_step(st) == SQLITE_ROW)
            out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

// stat_index -> p-value of a stored run; a statistic stored twice is a failure.
std::map<int, double> pvalues(const std::string& db, std::int64_t run)
{
    rngvet::Store store(db);
    std::map<int, double> out;
    for (const auto& s : store.statistics(run))
        EXPECT_TRUE(out.emplace(s.stat_index, s.pvalue).second) << "statistic " << s.stat_index;
    return out;
}

// A SmallCrush subset that is quick and still several tests long.
const std::string ranmar = "--generator ranmar48 --seed 1802,9373 --battery smallcrush";

// A store with one complete run in it, and its bytes.
std::string store_with_one_run(const std::string& name)
{
    const std::string db = fresh(name);
    const Result r = run_rngvet("run " + ranmar + " --tests 1,2 --db " + db);
    EXPECT_EQ(r.status, 0) << r.err;
    return db;
}

pid_t start(const std::string& args);

// --- bad input ---------------------------------------------------------------------------

struct BadInput {
    const char* args; // {db} and {dir} are replaced
    const char* says; // a part of the one-line error
};

const BadInput bad_inputs[] = {
    // run: options that do nothing, duplicates, negative and huge numbers
    { "run --generator ranmar48 --seed 1802,9373 junk --db {db}", "positional" },
    { "run --generator ranmar48 --seed 1802,9373 --params fixstars-mt521 --db {db}",
        "apply to mtdc" },
    { "run --generator ranmar48 --seed 1802,9373 --param-id 3 --db {db}", "apply to mtdc" },
    { "run --generator ranmar48 --seed 1802,9373 --jobs 4 --mode serial --db {db}",
        "only --mode sharded" },
    { "run --generator ranmar48 --seed 1802,9373 --tests '' --db {db}", "--tests needs" },
    { "run --generator ranmar48 --seed 1802,9373 --tests 1,1 --db {db}", "twice" },
    { "run --generator ranmar48 --seed 1802,9373 --tests 3,5,3 --db {db}", "twice" },
    { "run --generator ranmar48 --seed 1802,9373 --tests 11 --db {db}", "tests 1..10" },
    { "run --generator ranmar48 --seed 1802,9373 --tests 0 --db {db}", "tests 1..10" },
    { "run --generator ranmar48 --seed 1802,9373 --log {dir}/missing/x --db {db}", "no directory" },
    { "run --generator ranmar48 --seed 1802,9373 --skip -1 --db {db}", "--skip" },
    { "run --generator ranmar48 --seed 1802,9373 --skip 1e3 --db {db}", "--skip" },
    { "run --generator ranmar48 --seed 1802,9373 --skip 99999999999999999999999 --db {db}",
        "--skip" },
    { "run --generator ranmar48 --seed 1802,9373 --instances 100000000 --layout interleave "
      "--db {db}",
        "GiB of memory" },
    { "run --generator ranmar48 --seed 1802,9373 --instances 0 --db {db}", "at least 1" },
    { "run --generator ranmar48 --seed 1802,9373 --instances -3 --db {db}", "at least 1" },
    { "run --generator ranmar48 --seed 1802,9373 --jobs 0 --db {db}", "--jobs" },
    { "run --generator ranmar48 --seed 1802,9373 --fail-on sometimes --db {db}", "--fail-on" },
    { "run --generator ranmar48 --seed 99999,1 --db {db}", "out of range" },
    // the mcpi battery's parameters
    { "run --generator ranmar48 --seed 1802,9373 --battery mcpi --mcpi-points 99 --db {db}",
        "at least 100" },
    { "run --generator ranmar48 --seed 1802,9373 --battery mcpi --mcpi-reps 0 --db {db}",
        "1 to 100" },
    { "run --generator ranmar48 --seed 1802,9373 --battery mcpi --mcpi-points 1e6 --db {db}",
        "not a count" },
    { "run --generator ranmar48 --seed 1802,9373 --battery 'mcpi(points=2^38)' --db {db}",
        "at most 2^40" },
    { "run --generator ranmar48 --seed 1802,9373 --battery 'mcpi(n=5)' --db {db}",
        "mcpi(points=N,reps=R)" },
    { "run --generator ranmar48 --seed 1802,9373 --mcpi-reps 4 --db {db}",
        "applies to mcpi, not to smallcrush" },
    { "run --resume 1 --mcpi-points 1000 --db {db}", "--resume takes" },
    { "run --generator nosuch --db {db}", "unknown generator" },
    { "run --generator stdin32 --db {db} </dev/null", "standard input is empty" },
    { "run --generator file:{dir} --db {db}", "not a file of 32-bit words" },
    { "run --generator file:{dir}/none.bin --db {db}", "cannot open" },
    { "run --generator file:{dir}/empty.bin --db {db}", "holds no 32-bit word" },
    { "run --generator file:{dir}/six.bin --db {db}", "ends in the middle of a 32-bit word" },
    { "run --generator stdin64 --db {db} </dev/null", "standard input is empty" },
    { "run --generator file64:{dir}/empty.bin --db {db}", "holds no 64-bit word" },
    { "run --generator file64:{dir}/twelve.bin --db {db}", "ends in the middle of a 64-bit word" },
    { "run --generator stdin32 --name 'x y' --db {db} <{dir}/words.bin", "--name 'x y' may hold" },
    { "run --generator stdin64 --seed 'a;skip=5' --db {db} <{dir}/words.bin", "--seed 'a;skip=5'" },
    { "run --generator ranmar48 --seed 1802,9373 --name x --db {db}", "external stream" },
    { "run --generator mtdc --params p=521,aaa=0,maskB=0,maskC=0 --seed 1 --db {db}", "dc verify" },
    { "run --generator mtdc --params {dir}/dup-ids.txt --seed 1 --instances 2 --db {db}",
        "dc verify" },
    { "run --resume 1 --battery crush --db {db}", "--resume takes" },
    { "run --resume 1 --tests 1 --db {db}", "--resume takes" },
    { "run --resume 99 --db {db}", "no run 99" },
    // the store itself
    { "run --generator ranmar48 --seed 1802,9373 --db ''", "--db must name a file" },
    { "run --generator ranmar48 --seed 1802,9373 --db :memory:", "--db must name a file" },
    { "status --db ''", "no database" },
    { "status --db :memory:", "no database" },
    { "status --db {dir}/none.sqlite", "no database" },
    { "status --db {db} extra", "positional" },
    // outputs that would destroy an input
    { "report --db {db} --out {db}", "writing there would destroy it" },
    { "report --db {db} --out {dir}/link.sqlite", "writing there would destroy it" },
    { "report --db {db} --fail-on maybe", "--fail-on" },
    { "report --db {db} --out {dir}", "directory" },
    { "bench --csv {db} --db {db}", "writing there would destroy it" },
    { "bench --launch -1", "--launch" },
    { "bench --launch 100", "at least 1024" },
    { "bench --launch 99999999999999", "GiB of memory" },
    { "generate --generator file:{dir}/words.bin --count 4 --out {dir}/words.bin",
        "writing there would destroy it" },
    { "generate --generator mtdc --params {dir}/sets.txt --seed 1 --count 4 --out "
      "{dir}/sets.txt",
        "writing there would destroy it" },
    { "generate --generator ranmar48 --seed 1802,9373 --count -5", "--count" },
    { "generate --generator ranmar48 --seed 1802,9373 --count 5 --skip -2", "--skip" },
    { "generate --generator ranmar48 --seed 1802,9373 --count 5 stray", "positional" },
    { "list extra", "positional" },
    { "validate --backend nosuch", "backend" },
};

std::string substitute(std::string s, const std::string& key, const std::string& value)
{
    for (std::size_t at; (at = s.find(key)) != std::string::npos;)
        s.replace(at, key.size(), value);
    return s;
}

TEST(Robustness, EveryBadInputIsOneLineExitTwoAndTheStoreIsUnchanged)
{
    const std::string db = store_with_one_run("robust_bad.sqlite");
    const std::string dir = testing::TempDir() + "robust_bad_dir";
    std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str());
    std::ofstream(dir + "/empty.bin").close();
    std::ofstream(dir + "/words.bin") << "0123456789abcdef";
    std::ofstream(dir + "/six.bin") << "012345";
    std::ofstream(dir + "/twelve.bin") << "0123456789ab";
    ::link(db.c_str(), (dir + "/link.sqlite").c_str());
    // Two sets with the same id (the id is aaa's low 16 bits): distinct streams not guaranteed.
    const std::string book = slurp(std::string(RNGVET_DATA_DIR) + "/mt521_fixstars32.txt");
    std::ofstream(dir + "/dup-ids.txt")
        << "p=521 w=32\n0 cef725c0 a5b6dd80 ffd58000\n0 cef725c0 a5b6dd80 ffd58000\n";
    std::ofstream(dir + "/sets.txt") << book;
    const std::string before = contents(db);
    int cases = 0;
    for (const BadInput& b : bad_inputs) {
        const std::string args = substitute(substitute(b.args, "{db}", db), "{dir}", dir);
        SCOPED_TRACE(args);
        const Result r = run_rngvet(args);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
        EXPECT_EQ(r.err.rfind("rngvet: error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(b.says), std::string::npos) << r.err;
        EXPECT_TRUE(contents(db) == before) << "the store changed";
        ++cases;
    }
    RecordProperty("bad_inputs", cases);
}

// --- resume re-checks what defines the stream ---------------------------------------------

// Makes run 1 of `db` look as a run killed after its first test: test 2's rows are removed and
// the run is marked interrupted (what kill -9 between two tests leaves, less the 'running').
void cut_after_first_test(const std::string& db)
{
    sql(db, "DELETE FROM statistics WHERE run_id = 1 AND test_number = 2");
    sql(db, "DELETE FROM tests WHERE run_id = 1 AND test_number = 2");
    sql(db, "UPDATE runs SET status = 'interrupted' WHERE run_id = 1");
}

TEST(Robustness, ResumeRefusesChangedParameterSetsNamingBothHashes)
{
    const std::string dir = testing::TempDir();
    const std::string sets = dir + "robust_sets.txt";
    copy_file(std::string(RNGVET_DATA_DIR) + "/mt521_fixstars32.txt", sets);
    const std::string db = fresh("robust_params.sqlite");
    const std::string args = "run --generator mtdc --params " + sets
        + " --seed 0 --instances 4 --battery smallcrush --tests 1,2 --db " + db;
    ASSERT_EQ(run_rngvet(args).status, 0);
    const auto whole = pvalues(db, 1);
    const std::string stored_hash = sql(db, "SELECT params_sha256 FROM runs");
    cut_after_first_test(db);

    // Another valid table under the same name: sets 0 and 1 swapped.
    std::string text = slurp(sets);
    const auto a = text.find("\n0 "), b = text.find("\n1 "), c = text.find("\n2 ");
    const std::string line0 = text.substr(a + 1, b - a), line1 = text.substr(b + 1, c - b);
    text = text.substr(0, a + 1) + line1 + line0 + text.substr(c + 1);
    std::ofstream(sets) << text;
    const std::string before = contents(db);
    const Result refused = run_rngvet("run --resume 1 --db " + db);
    EXPECT_EQ(refused.status, 2);
    EXPECT_EQ(count_lines(refused.err), 1) << refused.err;
    EXPECT_NE(refused.err.find(stored_hash), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("mix two streams"), std::string::npos) << refused.err;
    EXPECT_TRUE(contents(db) == before) << "the store changed";
    EXPECT_EQ(sql(db, "SELECT status FROM runs"), "interrupted");

    // The original table again: the run resumes to exactly the uninterrupted p-values.
    copy_file(std::string(RNGVET_DATA_DIR) + "/mt521_fixstars32.txt", sets);
    ASSERT_EQ(run_rngvet("run --resume 1 --db " + db).status, 0);
    EXPECT_EQ(pvalues(db, 1), whole);
}

TEST(Robustness, ResumeRefusesAChangedInputFile)
{
    const std::string words = testing::TempDir() + "robust_words.bin";
    ASSERT_EQ(
        run_rngvet("generate --generator ranmar48 --seed 1802,9373 --count 2000000 --out " + words)
            .status,
        0);
    const std::string db = fresh("robust_file.sqlite");
    ASSERT_EQ(run_rngvet("run --generator file:" + words
                  + " --battery rabbit --nb 2^16 --tests 1,2 "
                    "--db "
                  + db)
                  .status,
        0);
    const std::string stored = sql(db, "SELECT input_sha256 FROM runs");
    EXPECT_EQ(stored.size(), 64u);
    cut_after_first_test(db);
    std::ofstream(words, std::ios::app) << "more";
    const Result refused = run_rngvet("run --resume 1 --db " + db);
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.err.find(stored), std::string::npos) << refused.err;
    EXPECT_EQ(sql(db, "SELECT status FROM runs"), "interrupted");
}

// --- parameter sets are checked before use -------------------------------------------------

TEST(Robustness, UnverifiedParameterSetsAreRefusedUnlessAllowedAndTheRunRecordsIt)
{
    const std::string db = fresh("robust_unverified.sqlite");
    // aaa = 0x80000000: the recurrence is a shift, its characteristic polynomial not primitive.
    const std::string set = "p=521,aaa=0x80000000,maskB=0x9d2c5680,maskC=0xefc60000";
    const Result refused
        = run_rngvet("run --generator mtdc --params " + set + " --seed 1 --tests 1 --db " + db);
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.err.find("primitive"), std::string::npos) << refused.err;
    EXPECT_TRUE(rngvet::Store(db).runs().empty());
    const Result gen
        = run_rngvet("generate --generator mtdc --params " + set + " --seed 1 --count 4");
    EXPECT_EQ(gen.status, 2) << gen.err;

    const Result allowed = run_rngvet("run --generator mtdc --params " + set
        + " --seed 1 --tests 1 --allow-unverified-params --db " + db);
    EXPECT_EQ(allowed.status, 0) << allowed.err;
    EXPECT_EQ(sql(db, "SELECT params_check FROM runs"), "unverified (allowed)");
    const Result verified = run_rngvet(
        "run --generator mtdc --params fixstars-mt521 --seed 1 --tests 1 --instances 2 --db " + db);
    EXPECT_EQ(verified.status, 0) << verified.err;
    EXPECT_EQ(sql(db, "SELECT params_check FROM runs WHERE run_id = 2").rfind("verified", 0), 0u);
}

// --- exit statuses that say what was found ------------------------------------------------

TEST(Robustness, FailOnGatesTheExitStatusOnTheStoredVerdicts)
{
    const std::string db = fresh("robust_fail_on.sqlite");
    // ranmar24's GetBits has 8 zero low bits: BirthdaySpacings gives p = eps.
    const std::string r24 = "run --generator ranmar24 --seed 1802,9373 --tests 1 --db " + db;
    const Result never = run_rngvet(r24);
    EXPECT_EQ(never.status, 0) << never.err;
    EXPECT_NE(never.out.find("The following tests gave p-values outside [0.001, 0.9990]"),
        std::string::npos)
        << never.out;
    EXPECT_NE(never.out.find("BirthdaySpacings"), std::string::npos) << never.out;
    const Result fail = run_rngvet(r24 + " --fail-on fail");
    EXPECT_EQ(fail.status, 3) << fail.err; // a reached gate, not a failure of the machine (1)
    EXPECT_NE(fail.err.find("BirthdaySpacings"), std::string::npos) << fail.err;
    // Beyond its 24 bits the failure is the resolution's, which the comparison does not call
    // systematic.
    EXPECT_EQ(run_rngvet(r24 + " --fail-on systematic").status, 0);
    EXPECT_EQ(run_rngvet("report --db " + db + " --fail-on suspect --out /dev/null").status, 3);
    EXPECT_EQ(run_rngvet("report --db " + db + " --fail-on never --out /dev/null").status, 0);

    const std::string good = fresh("robust_fail_on_good.sqlite");
    const Result pass = run_rngvet("run " + ranmar + " --tests 1,2 --fail-on suspect --db " + good);
    EXPECT_EQ(pass.status, 0) << pass.err;
    EXPECT_NE(pass.out.find("All tests were passed"), std::string::npos) << pass.out;
}

// --- write errors and atomic files ---------------------------------------------------------

TEST(Robustness, WritesToAFullDeviceExitOneAndNamedFilesKeepTheirOldContent)
{
    const std::string db = store_with_one_run("robust_full.sqlite");
    const std::string err = testing::TempDir() + "robust_full.err";
    for (const std::string& args : std::vector<std::string>{ "status --db " + db,
             "report --db " + db, "list", "dc create --p 521 --count 1 --seed 7",
             "generate --generator ranmar48 --seed 1802,9373 --count 100000" }) {
        SCOPED_TRACE(args);
        const int raw = std::system(
            (std::string(RNGVET_BINARY) + " " + args + " >/dev/full 2>" + err).c_str());
        EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 1);
        EXPECT_NE(slurp(err).find("No space left on device"), std::string::npos) << slurp(err);
        EXPECT_EQ(count_lines(slurp(err)), 1) << slurp(err);
    }
    const Result out = run_rngvet("report --db " + db + " --out /dev/full");
    EXPECT_EQ(out.status, 1) << out.err;
    EXPECT_NE(out.err.find("No space left on device"), std::string::npos) << out.err;

    // A report that cannot be written leaves the previous report whole: a report path whose
    // temporary file cannot be made (a read-only folder is not read-only for root, so the
    // folder is full instead: a 64 KiB tmpfs).
    const std::string mnt = testing::TempDir() + "robust_tmpfs";
    ::mkdir(mnt.c_str(), 0755);
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0)
        GTEST_SKIP() << "no tmpfs can be mounted here (needs root): the full-disk part is skipped";
    std::ofstream(mnt + "/report.md") << "the previous report\n";
    std::ofstream(mnt + "/filler") << std::string(60 * 1024, 'x');
    const Result r = run_rngvet("report --db " + db + " --out " + mnt + "/report.md");
    const std::string kept = slurp(mnt + "/report.md");
    ::umount(mnt.c_str());
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_EQ(kept, "the previous report\n");
}

TEST(Robustness, ARunThatFillsTheDiskIsMarkedFailedAndKeepsWhatItStored)
{
    const std::string mnt = testing::TempDir() + "robust_tmpfs_run";
    ::mkdir(mnt.c_str(), 0755);
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=768k") != 0)
        GTEST_SKIP() << "no tmpfs can be mounted here (needs root)";
    const std::string db = mnt + "/run.sqlite";
    const pid_t pid = start("run " + ranmar + " --db " + db);
    // Once the first test is stored, a filler takes the rest of the disk.
    for (int i = 0; i < 300 && sql_readonly(db, "SELECT count(*) FROM tests") != "1"; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ofstream(mnt + "/filler") << std::string(1 << 20, 'x'); // stops at the full disk
    int raw = 0;
    waitpid(pid, &raw, 0);
    std::remove((mnt + "/filler").c_str());
    const std::string status = sql_readonly(db, "SELECT status FROM runs WHERE run_id = 1");
    const std::string tests = sql_readonly(db, "SELECT count(*) FROM tests");
    const std::string stats = sql_readonly(db, "SELECT count(*) FROM statistics");
    ::umount(mnt.c_str());
    EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 1);
    EXPECT_EQ(status, "failed");
    EXPECT_GE(std::stoi(tests), 1);
    EXPECT_LT(std::stoi(tests), 10);
    EXPECT_EQ(stats, tests); // SmallCrush's first tests have one statistic each
}

// --- a finished store reads without write access ------------------------------------------

TEST(Robustness, AFinishedStoreIsReadOnAReadOnlyFileSystem)
{
    const std::string db = store_with_one_run("robust_ro.sqlite");
    // Bytes 18 and 19 of an SQLite file: 1 = rollback journal, 2 = write-ahead log.
    const std::string bytes = slurp(db);
    ASSERT_GT(bytes.size(), 20u);
    EXPECT_EQ(bytes[18], 1);
    EXPECT_EQ(bytes[19], 1);
    struct stat st { };
    EXPECT_NE(::stat((db + "-wal").c_str(), &st), 0) << "a -wal file was left beside the store";

    const std::string mnt = testing::TempDir() + "robust_ro_mnt";
    ::mkdir(mnt.c_str(), 0755);
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=4m") != 0)
        GTEST_SKIP() << "no tmpfs can be mounted here (needs root)";
    copy_file(db, mnt + "/copy.sqlite");
    const bool ro = ::mount("tmpfs", mnt.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) == 0;
    const Result status = run_rngvet("status --db " + mnt + "/copy.sqlite");
    const Result report = run_rngvet("report --db " + mnt + "/copy.sqlite");
    const std::string count
        = ro ? sql_readonly(mnt + "/copy.sqlite", "SELECT count(*) FROM pvalues") : "";
    ::umount(mnt.c_str());
    ASSERT_TRUE(ro) << "could not remount the tmpfs read-only";
    EXPECT_EQ(status.status, 0) << status.err;
    EXPECT_NE(status.out.find("complete"), std::string::npos) << status.out;
    EXPECT_EQ(report.status, 0) << report.err;
    EXPECT_NE(report.out.find("BirthdaySpacings"), std::string::npos);
    EXPECT_EQ(count, "2");
}

// --- kill -9 at random points, then resume -------------------------------------------------

// Starts `rngvet ARGS` in the background, its output discarded; returns its process id.
pid_t start(const std::string& args)
{
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        const std::string cmd = std::string(RNGVET_BINARY) + " " + args + " >/dev/null 2>&1";
        execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

// Starts `rngvet ARGS` in the background and kills it with SIGKILL after `delay`.
void kill_after(const std::string& args, std::chrono::milliseconds delay)
{
    const pid_t pid = start(args);
    std::this_thread::sleep_for(delay);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
}

TEST(Robustness, KillNineAtRandomPointsThenResumeGivesEveryStatisticOnceAndTheSamePvalues)
{
    std::mt19937 random(20261124); // the kill points, reproducible
    std::uniform_int_distribution<int> ms(100, 4000);
    int faults = 0;
    for (const std::string mode : { "--mode serial", "--mode sharded --jobs 2" }) {
        // Sharded tests read their own segments: each mode has its own reference p-values.
        const std::string reference = fresh("robust_kill_reference.sqlite");
        ASSERT_EQ(run_rngvet("run " + ranmar + " " + mode + " --db " + reference).status, 0);
        const auto whole = pvalues(reference, 1);
        ASSERT_EQ(whole.size(), 15u);
        for (int k = 0; k < 3; ++k) {
            const std::string db = fresh("robust_kill.sqlite");
            const int delay = ms(random);
            SCOPED_TRACE(mode + ", killed after " + std::to_string(delay) + " ms");
            kill_after(
                "run " + ranmar + " " + mode + " --db " + db, std::chrono::milliseconds(delay));
            ++faults;
            if (rngvet::Store(db).runs().empty()) continue; // killed before the run was stored
            const Result resumed = run_rngvet("run --resume 1 --db " + db);
            ASSERT_EQ(resumed.status, 0) << resumed.err;
            EXPECT_EQ(pvalues(db, 1), whole);
            EXPECT_EQ(rngvet::Store(db).run(1)->status, rngvet::RunStatus::complete);
        }
    }
    RecordProperty("faults", faults);
}

std::set<std::string> temporary_files_in_tmp()
{
    std::set<std::string> names;
    FILE* p = popen("ls /tmp | grep '^rngvet-testu01-'", "r");
    char line[256];
    while (p && std::fgets(line, sizeof line, p))
        names.insert(line);
    if (p) pclose(p);
    return names;
}

TEST(Robustness, NoTemporaryFileOutlivesARunKilledOrFailed)
{
    const auto before = temporary_files_in_tmp();
    const std::string db = fresh("robust_tmp.sqlite");
    kill_after("run " + ranmar + " --db " + db, std::chrono::milliseconds(1500));
    // A stream that ends inside TestU01's test: the test fails with an exception.
    const std::string words = testing::TempDir() + "robust_tmp_words.bin";
    std::ofstream(words) << std::string(4000, 'w');
    const Result ended = run_rngvet("run --generator file:" + words + " --tests 1 --db " + db);
    EXPECT_NE(ended.status, 0);
    for (const std::string& name : temporary_files_in_tmp())
        EXPECT_TRUE(before.count(name)) << "left behind: /tmp/" << name;
}

// --- campaigns and worker processes ------------------------------------------------------

// Every descendant of `pid` (read from /proc/PID/task/TID/children).
std::vector<pid_t> descendants(pid_t pid)
{
    std::vector<pid_t> out, unvisited{ pid };
    while (!unvisited.empty()) {
        const pid_t p = unvisited.back();
        unvisited.pop_back();
        std::ifstream children(
            "/proc/" + std::to_string(p) + "/task/" + std::to_string(p) + "/children");
        for (pid_t c; children >> c;) {
            out.push_back(c);
            unvisited.push_back(c);
        }
    }
    return out;
}

// Whether the process still runs (a zombie waiting for its reaper does not).
bool alive(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');
    return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z';
}

// Starts `args`, waits until it has `least` descendants, kills only the parent with SIGKILL and
// returns the descendants it had, once they are gone (or after 15 s).
std::vector<pid_t> kill_parent_only(const std::string& args, std::size_t least)
{
    const pid_t pid = start(args);
    std::vector<pid_t> workers;
    for (int i = 0; i < 400 && workers.size() < least; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
        workers = descendants(pid);
    }
    kill(pid, SIGKILL);
    int raw = 0;
    waitpid(pid, &raw, 0);
    for (int i = 0; i < 300; ++i) {
        bool any = false;
        for (pid_t w : workers)
            any = any || alive(w);
        if (!any) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return workers;
}

const std::string campaign_file_text = "[campaign]\nname = robust\nbattery = smallcrush\n"
                                       "shards = 2\nseeds = 1802,9373 17,42\n"
                                       "[configuration r24]\ngenerator = ranmar24\n";

TEST(Robustness, KillingTheParentKillsItsWorkersAndARerunCompletesExactly)
{
    // A sharded run: its test workers end with it; resume completes it.
    const std::string db = fresh("robust_parent.sqlite");
    const auto workers = kill_parent_only("run " + ranmar + " --jobs 2 --db " + db, 2);
    ASSERT_GE(workers.size(), 2u);
    for (pid_t w : workers)
        EXPECT_FALSE(alive(w)) << "worker " << w << " outlived its parent";
    if (!rngvet::Store(db).runs().empty()) {
        const Result resumed = run_rngvet("run --resume 1 --db " + db);
        EXPECT_EQ(resumed.status, 0) << resumed.err;
        EXPECT_EQ(pvalues(db, 1).size(), 15u);
    }

    // A local campaign: its task runs and their workers end with it; a re-run completes every
    // task with every statistic once.
    const std::string file = write_file("robust_campaign.ini", campaign_file_text);
    const std::string dir = testing::TempDir() + "robust_campaign_dir";
    std::system(("rm -rf " + dir).c_str());
    const auto tasks = kill_parent_only("campaign run " + file + " --jobs 2 --out " + dir, 3);
    ASSERT_GE(tasks.size(), 3u);
    for (pid_t w : tasks)
        EXPECT_FALSE(alive(w)) << "task process " << w << " outlived the campaign";
    const Result again = run_rngvet("campaign run " + file + " --jobs 2 --out " + dir);
    ASSERT_EQ(again.status, 0) << again.err;
    rngvet::Store store(dir + "/campaign.sqlite");
    ASSERT_EQ(store.runs().size(), 2u);
    for (const auto& r : store.runs())
        EXPECT_EQ(pvalues(dir + "/campaign.sqlite", r.run_id).size(), 15u) << r.config;
}

TEST(Robustness, MergeRefusesWrongTargetsCorruptTasksAndTruncatedTables)
{
    const std::string file = write_file("robust_merge.ini",
        "[campaign]\nname = merged\nbattery = smallcrush\ntests = 1,2,3\nshards = 2\n"
        "seeds = 1802,9373\n[configuration r24]\ngenerator = ranmar24\n");
    const std::string dir = testing::TempDir() + "robust_merge_dir";
    std::system(("rm -rf " + dir).c_str());
    ASSERT_EQ(run_rngvet("campaign run " + file + " --jobs 2 --out " + dir).status, 0);
    const std::string task0 = dir + "/tasks/task-0.sqlite", task1 = dir + "/tasks/task-1.sqlite";

    // Targets: a task database, another campaign's database.
    const std::string task0_before = contents(task0);
    Result r = run_rngvet("campaign merge " + dir + " --db " + task0);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("is the database of task 0"), std::string::npos) << r.err;
    EXPECT_TRUE(contents(task0) == task0_before);
    // campaign run refuses it before any task runs or any folder is made.
    const std::string unused = testing::TempDir() + "robust_merge_unused";
    std::system(("rm -rf " + unused).c_str());
    r = run_rngvet("campaign run " + file + " --out " + unused + " --db " + task0);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("is the database of task 0"), std::string::npos) << r.err;
    struct stat st { };
    EXPECT_NE(::stat(unused.c_str(), &st), 0) << "the campaign folder was made";
    const std::string other_file = write_file("robust_merge_other.ini",
        "[campaign]\nname = other\nbattery = smallcrush\ntests = 1\nshards = 1\n"
        "seeds = 1802,9373\n[configuration r48]\ngenerator = ranmar48\n");
    const std::string other = testing::TempDir() + "robust_merge_other";
    std::system(("rm -rf " + other).c_str());
    ASSERT_EQ(run_rngvet("campaign run " + other_file + " --out " + other).status, 0);
    const std::string other_before = contents(other + "/campaign.sqlite");
    r = run_rngvet("campaign merge " + dir + " --db " + other + "/campaign.sqlite");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("holds campaign"), std::string::npos) << r.err;
    EXPECT_TRUE(contents(other + "/campaign.sqlite") == other_before);

    // --fail-on: ranmar24's BirthdaySpacings (test 1) fails beyond its 24 bits.
    EXPECT_EQ(run_rngvet("campaign merge " + dir).status, 0);
    r = run_rngvet("campaign merge " + dir + " --fail-on fail");
    EXPECT_EQ(r.status, 3);
    EXPECT_NE(r.err.find("BirthdaySpacings"), std::string::npos) << r.err;

    // A corrupted p-value in task 1: task 1 is refused, task 0 still merges.
    sql(task1,
        "UPDATE statistics SET pvalue = 7.5 WHERE stat_index = (SELECT min(stat_index) "
        "FROM statistics)");
    const std::string fresh_db = fresh("robust_merge_new.sqlite");
    r = run_rngvet("campaign merge " + dir + " --db " + fresh_db);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("task 1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not a number in [0, 1]"), std::string::npos) << r.err;
    EXPECT_EQ(sql(fresh_db, "SELECT count(*) FROM campaign_tasks WHERE task_id = 0"), "1");
    EXPECT_EQ(sql(fresh_db, "SELECT count(*) FROM campaign_tasks WHERE task_id = 1"), "0");
    // A statistic missing from a finished test is refused too.
    sql(task1, "UPDATE statistics SET pvalue = 0.5 WHERE pvalue = 7.5");
    sql(task0,
        "DELETE FROM statistics WHERE stat_index = (SELECT max(stat_index) FROM "
        "statistics)");
    r = run_rngvet("campaign merge " + dir + " --db " + fresh("robust_merge_new2.sqlite"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("statistics of test"), std::string::npos) << r.err;

    // A truncated task table is refused, not read as a smaller campaign.
    const std::string table = slurp(dir + "/tasks.tsv");
    std::ofstream(dir + "/tasks.tsv", std::ios::trunc) << table.substr(0, table.find("\n1\t") + 1);
    r = run_rngvet("campaign merge " + dir + " --db " + fresh("robust_merge_new3.sqlite"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
}

// TestU01 leaves -1 for a test it stopped (sstring_Run on constant bits; reports/verdict.hpp):
// the store keeps it, merge and report take it as a clear failure written "not done (-1)", and
// a value no test gives (-0.5) is still refused as damage.
TEST(Robustness, TestU01sNotDoneIsStoredMergedAndReportedAsAFailure)
{
    const std::string file = write_file("robust_not_done.ini",
        "[campaign]\nname = notdone\nbattery = smallcrush\ntests = 2\nshards = 1\n"
        "seeds = 1802,9373\n[configuration r48]\ngenerator = ranmar48\n");
    const std::string dir = testing::TempDir() + "robust_not_done_dir";
    std::system(("rm -rf " + dir).c_str());
    ASSERT_EQ(run_rngvet("campaign run " + file + " --out " + dir).status, 0);
    const std::string task = dir + "/tasks/task-0.sqlite";
    sql(task, "UPDATE statistics SET pvalue = -1");
    const std::string merged = fresh("robust_not_done.sqlite");
    CliResult r = run_rngvet("campaign merge " + dir + " --db " + merged);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(sql(merged, "SELECT DISTINCT pvalue || ' ' || verdict FROM pvalues"), "-1.0 fail");
    const std::string md = testing::TempDir() + "robust_not_done.md";
    r = run_rngvet("report --db " + merged + " --out " + md);
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(md);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("not done (-1)"), std::string::npos) << text;
    EXPECT_EQ(run_rngvet("report --db " + merged + " --fail-on fail --out /dev/null").status, 3);

    sql(task, "UPDATE statistics SET pvalue = -0.5");
    r = run_rngvet("campaign merge " + dir + " --db " + fresh("robust_not_done_2.sqlite"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("not a number in [0, 1]"), std::string::npos) << r.err;
    sql(merged, "UPDATE statistics SET pvalue = -0.5");
    r = run_rngvet("report --db " + merged + " --out /dev/null");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("the store is damaged"), std::string::npos) << r.err;
}

} // namespace
