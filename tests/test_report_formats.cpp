// The reports for machines and the CI gate: `rngvet report --format json` (read back by
// Python's json module, its classes equal to the markdown's), `--format junit` (read back by
// xml.etree, its failures counted), `--fail-on` scoped by --run and --config, and the exit
// status of a reached gate (3) against an error's (1) and bad input's (2).
#include "reports/compare.hpp"
#include "reports/gate.hpp"
#include "reports/machine_report.hpp"
#include "reports/markdown.hpp"
#include "reports/store.hpp"
#include "tests/support.hpp"

#include <cstdlib>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace rngvet {
namespace {

using rngvet_test::count_lines;
using rngvet_test::run_rngvet;

const char* const smallcrush_names[] = { "BirthdaySpacings", "Collision", "Gap", "SimpPoker",
    "CouponCollector", "MaxOft", "MaxOft AD", "WeightDistrib", "MatrixRank", "HammingIndep",
    "RandomWalk1 H", "RandomWalk1 M", "RandomWalk1 J", "RandomWalk1 R", "RandomWalk1 C" };
const int smallcrush_tests[] = { 1, 2, 3, 4, 5, 6, 6, 7, 8, 9, 10, 10, 10, 10, 10 };

// A configuration name and a statistic name holding every character XML and JSON must escape,
// a control character and bytes that are not UTF-8.
const std::string odd_config = "file:/data/a&b<\"c\">'\xff.bin";
const std::string odd_name = "Birthday <&> \"q\" 'a'\x01\xfe";

// Runs 1-3: ranmar48, MatrixRank (statistic 9) at p = 1e-15 on each of 3 seeds (systematic).
// Runs 4-6: ranmar48x, clean but for one suspect value, p = 0.0005 (statistic 2 of run 4).
// Run 7: a file: input whose statistic 1 (odd_name) is at p = 1e-12, one seed (defective).
std::string make_store(const std::string& name)
{
    const std::string path = rngvet_test::fresh(name);
    Store store(path);
    for (const char* head : { "ranmar48/1/single/increment", "ranmar48x/8/interleave/increment" })
        for (int seed = 0; seed < 3; ++seed) {
            const std::string s = std::to_string(11 + seed) + "," + std::to_string(21 + seed);
            const std::string generator = std::string(head).substr(0, std::string(head).find('/'));
            RunRecord r = rngvet_test::run_record(generator, std::string(head) + "/" + s, s, 48);
            r.cpu_seconds = 1.5;
            std::vector<StatisticRecord> stats;
            for (int i = 1; i <= 15; ++i) {
                // Stratified over the seeds: 1/6, 1/2, 5/6, never suspect.
                double p = ((seed + i) % 3 + 0.5) / 3;
                if (generator == "ranmar48" && i == 9) p = 1e-15;
                if (generator == "ranmar48x" && seed == 0 && i == 2) p = 0.0005;
                stats.push_back({ i, smallcrush_tests[i - 1], smallcrush_names[i - 1], p });
            }
            store.insert_run(r, stats);
        }
    RunRecord r = rngvet_test::run_record("file", odd_config, "", 32);
    std::vector<StatisticRecord> stats;
    for (int i = 1; i <= 15; ++i)
        stats.push_back({ i, smallcrush_tests[i - 1], i == 1 ? odd_name : smallcrush_names[i - 1],
            i == 1 ? 1e-12 : 0.5 });
    store.insert_run(r, stats);
    return path;
}

bool have_python()
{
    return std::system("python3 -c 'import json, xml.etree.ElementTree' >/dev/null 2>&1") == 0;
}

// Runs a Python script on `file`; its output lines split at tabs, or one row {"error", ...}.
std::vector<std::vector<std::string>> python(const std::string& script, const std::string& file)
{
    const std::string py = rngvet_test::write_file(
        rngvet_test::running_test_file(".py").substr(testing::TempDir().size()), script);
    const std::string out = rngvet_test::running_test_file(".py.out");
    const int status = std::system(("python3 " + py + " " + file + " >" + out + " 2>&1").c_str());
    std::vector<std::vector<std::string>> rows;
    std::istringstream lines(rngvet_test::slurp(out));
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> cells;
        std::istringstream in(line);
        for (std::string cell; std::getline(in, cell, '\t');)
            cells.push_back(cell);
        rows.push_back(cells);
    }
    if (status != 0) {
        ADD_FAILURE() << "python3 failed on " << file << ":\n" << rngvet_test::slurp(out);
        return { { "error" } };
    }
    return rows;
}

const char* const json_script = R"(import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["schema"] == "rngvet-report", d["schema"]
print("schema", d["schema_version"], d["levels"]["suspect"], d["levels"]["failure"], sep="\t")
for c in d["configurations"]:
    print("config", c["id"], json.dumps(c["configuration_family"]), c["verdict"],
          c["verdict_text"], sep="\t")
    for s in c["statistics"]:
        assert len(s["pvalues"]) == s["seeds"] == len(c["seeds"])
        if s["class"] != "pass":
            print("class", c["id"], s["index"], s["class"], s["class_text"], sep="\t")
for r in d["runs"]:
    n = r["counts"]
    assert n["statistics"] == len(r["statistics"]) == n["pass"] + n["suspect"] + n["fail"]
    print("run", r["run_id"], json.dumps(r["configuration"]), n["fail"], n["suspect"], sep="\t")
    for s in r["statistics"]:
        if s["verdict"] != "pass":
            print("pvalue", r["run_id"], s["index"], repr(s["pvalue"]), s["verdict"],
                  json.dumps(s["name"]), sep="\t")
)";

const char* const junit_script = R"(import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
print("total", root.get("tests"), root.get("failures"), len(root.findall("testsuite")), sep="\t")
for suite in root.findall("testsuite"):
    cases = suite.findall("testcase")
    print("suite", suite.get("id"), suite.get("tests"), suite.get("failures"), len(cases),
          len(suite.findall("testcase/failure")), json.dumps(suite.get("name")), sep="\t")
    for case in cases:
        for f in case.findall("failure"):
            print("failure", suite.get("id"), json.dumps(case.get("name")), f.get("type"),
                  f.get("message"), sep="\t")
)";

// The "### Configurations" table of the markdown report: id -> the verdict in bold.
std::map<std::string, std::string> markdown_verdicts(const std::string& markdown)
{
    std::map<std::string, std::string> verdicts;
    const auto start = markdown.find("### Configurations");
    EXPECT_NE(start, std::string::npos) << markdown;
    if (start == std::string::npos) return verdicts;
    std::istringstream lines(markdown.substr(start));
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("| C", 0) != 0) {
            if (!verdicts.empty()) break;
            continue;
        }
        const std::string id = line.substr(2, line.find(' ', 2) - 2);
        const auto bold = line.find("| **");
        if (bold == std::string::npos) continue;
        const auto end = line.find("** |", bold + 4);
        verdicts[id] = line.substr(bold + 4, end - bold - 4);
    }
    return verdicts;
}

std::string run_ids_of_config(const std::vector<std::vector<std::string>>& rows)
{
    std::string out;
    for (const auto& row : rows)
        if (row[0] == "run") out += (out.empty() ? "" : ",") + row[1];
    return out;
}

TEST(ReportJson, ParsesAndCarriesTheMarkdownsVerdictsAndEveryPvalue)
{
    if (!have_python()) GTEST_SKIP() << "python3 with json and xml.etree is not installed";
    const std::string db = make_store("formats_json.sqlite");
    const std::string json = rngvet_test::fresh("formats.json");
    const auto r = run_rngvet("report --db " + db + " --format json --out " + json);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto md = run_rngvet("report --db " + db);
    ASSERT_EQ(md.status, 0) << md.err;
    const std::map<std::string, std::string> expected = markdown_verdicts(md.out);
    ASSERT_EQ(expected.size(), 3u) << md.out;

    std::map<std::string, std::string> verdicts, keys, families;
    std::map<std::string, std::string> classes; // "C1/9" -> class
    int runs = 0;
    std::map<std::string, double> pvalues; // "run/index" -> p
    std::string odd;
    for (const auto& row : python(json_script, json)) {
        if (row[0] == "schema") {
            EXPECT_EQ(row[1], std::to_string(json_report_schema_version));
            EXPECT_EQ(std::stod(row[2]), suspect_level);
            EXPECT_EQ(std::stod(row[3]), failure_level);
        } else if (row[0] == "config") {
            keys[row[1]] = row[3];
            verdicts[row[1]] = row[4];
            families[row[2]] = row[1];
        } else if (row[0] == "class") {
            classes[row[1] + "/" + row[2]] = row[3];
        } else if (row[0] == "run") {
            ++runs;
            if (row[1] == "7") odd = row[2];
        } else if (row[0] == "pvalue") {
            pvalues[row[1] + "/" + row[2]] = std::stod(row[3]);
            if (row[1] == "7") {
                EXPECT_EQ(row[5], R"("Birthday <&> \"q\" 'a'\u0001\ufffd")");
            }
        }
    }
    // The configurations and their verdicts are the markdown's, word for word.
    EXPECT_EQ(verdicts, expected);
    EXPECT_EQ(runs, 7);
    const std::string a = families[R"("ranmar48/1/single/increment/*")"];
    const std::string b = families[R"("ranmar48x/8/interleave/increment/*")"];
    const std::string f = families[R"("file:/data/a&b<\"c\">'\ufffd.bin")"];
    EXPECT_EQ(keys[a], "defective");
    EXPECT_EQ(keys[b], "sound");
    EXPECT_EQ(keys[f], "defective");
    EXPECT_EQ(classes[a + "/9"], "systematic");
    EXPECT_EQ(classes[b + "/2"], "chance");
    EXPECT_EQ(classes[f + "/1"], "systematic");
    EXPECT_EQ(classes.size(), 3u);
    // Every p-value outside [0.001, 0.999], exactly as stored.
    EXPECT_EQ(pvalues,
        (std::map<std::string, double>{ { "1/9", 1e-15 }, { "2/9", 1e-15 }, { "3/9", 1e-15 },
            { "4/2", 0.0005 }, { "7/1", 1e-12 } }));
    EXPECT_EQ(odd, R"("file:/data/a&b<\"c\">'\ufffd.bin")");

    // --run and --config choose the runs, and the comparison is of those runs only.
    const std::string scoped = rngvet_test::fresh("formats_scoped.json");
    ASSERT_EQ(
        run_rngvet("report --db " + db + " --format json --run 2-3,7 --out " + scoped).status, 0);
    EXPECT_EQ(run_ids_of_config(python(json_script, scoped)), "2,3,7");
    ASSERT_EQ(run_rngvet("report --db " + db
                  + " --format json --config 'ranmar48x/8/interleave/increment/*' --out " + scoped)
                  .status,
        0);
    const auto rows = python(json_script, scoped);
    EXPECT_EQ(run_ids_of_config(rows), "4,5,6");
    int configurations = 0;
    for (const auto& row : rows)
        configurations += row[0] == "config";
    EXPECT_EQ(configurations, 1);
}

TEST(ReportJunit, IsWellFormedAndCountsTheFailuresOfTheLevel)
{
    if (!have_python()) GTEST_SKIP() << "python3 with json and xml.etree is not installed";
    const std::string db = make_store("formats_junit.sqlite");
    // level -> the testcases that fail: the clear failures, then with the suspect value, then
    // the statistics classed systematic (which all three clear failures are).
    for (const auto& [level, expected] : std::vector<std::pair<std::string, int>>{
             { "never", 4 }, { "fail", 4 }, { "suspect", 5 }, { "systematic", 4 } }) {
        SCOPED_TRACE(level);
        const std::string xml = rngvet_test::fresh("formats_" + level + ".xml");
        const auto r = run_rngvet(
            "report --db " + db + " --format junit --fail-on " + level + " --out " + xml);
        EXPECT_EQ(r.status, level == "never" ? 0 : gate_exit_status) << r.err;
        int failures = 0, suites = 0;
        bool odd_seen = false;
        for (const auto& row : python(junit_script, xml)) {
            if (row[0] == "total") {
                EXPECT_EQ(row[1], "105");
                EXPECT_EQ(row[2], std::to_string(expected));
                EXPECT_EQ(row[3], "7");
            } else if (row[0] == "suite") {
                ++suites;
                EXPECT_EQ(row[2], row[4]) << "tests= differs from the testcases";
                EXPECT_EQ(row[3], row[5]) << "failures= differs from the failure elements";
                if (row[1] == "7") {
                    EXPECT_EQ(row[6], R"("run 7: file:/data/a&b<\"c\">'\ufffd.bin, SmallCrush")");
                }
            } else if (row[0] == "failure") {
                ++failures;
                if (row[1] == "7") {
                    odd_seen = true;
                    EXPECT_EQ(row[2], R"x("1: Birthday <&> \"q\" 'a'\ufffd\ufffd (test 1)")x");
                    EXPECT_NE(row[4].find("1e-12"), std::string::npos) << row[4];
                    const std::string rule = level == "systematic" ? "systematic"
                        : level == "suspect"                       ? "[0.001, 0.999]"
                                                                   : "[1e-10, 1 - 1e-10]";
                    EXPECT_NE(row[4].find(rule), std::string::npos) << row[4];
                }
            }
        }
        EXPECT_EQ(suites, 7);
        EXPECT_EQ(failures, expected);
        EXPECT_TRUE(odd_seen);
    }
}

TEST(ReportGate, FailOnTripsOnlyForTheNamedConfigurationOrRuns)
{
    const std::string db = make_store("formats_gate.sqlite");
    const std::string base = "report --db " + db + " --out /dev/null --fail-on fail ";
    const std::string a = "'ranmar48/1/single/increment/*'";
    const std::string b = "'ranmar48x/8/interleave/increment/*'";
    EXPECT_EQ(run_rngvet(base).status, gate_exit_status);
    const auto trips_on_a = run_rngvet(base + "--config " + a);
    EXPECT_EQ(trips_on_a.status, gate_exit_status) << trips_on_a.err;
    EXPECT_NE(trips_on_a.err.find("3 statistics fail"), std::string::npos) << trips_on_a.err;
    EXPECT_EQ(run_rngvet(base + "--config " + b).status, 0);
    // One seed's run by its stored name.
    EXPECT_EQ(
        run_rngvet(base + "--config ranmar48/1/single/increment/12,22").status, gate_exit_status);
    EXPECT_EQ(run_rngvet(base + "--config ranmar48x/8/interleave/increment/11,21").status, 0);
    // Run ranges and lists: runs 4-6 are clean, 3 and 7 are not.
    EXPECT_EQ(run_rngvet(base + "--run 4-6").status, 0);
    EXPECT_EQ(run_rngvet(base + "--run 4,5 --run 6").status, 0);
    EXPECT_EQ(run_rngvet(base + "--run 3-6").status, gate_exit_status);
    EXPECT_EQ(run_rngvet(base + "--run 4-5,7").status, gate_exit_status);
    // Both: the runs chosen by both.
    EXPECT_EQ(run_rngvet(base + "--run 1-5 --config " + b).status, 0);
    // suspect: run 4's p = 0.0005; systematic: only configuration a and the file input.
    EXPECT_EQ(
        run_rngvet("report --db " + db + " --out /dev/null --fail-on suspect --config " + b).status,
        gate_exit_status);
    EXPECT_EQ(
        run_rngvet("report --db " + db + " --out /dev/null --fail-on systematic --config " + b)
            .status,
        0);
    EXPECT_EQ(
        run_rngvet("report --db " + db + " --out /dev/null --fail-on systematic --run 1-2").status,
        gate_exit_status);
}

TEST(ReportGate, BadScopesAndFormatsAreOneLineRefusals)
{
    const std::string db = make_store("formats_bad.sqlite");
    int cases = 0;
    for (const auto& [args, says] : std::vector<std::pair<std::string, std::string>>{
             { "--run 5-1", "first run is after its last" }, { "--run x", "--run takes run ids" },
             { "--run 1-", "--run takes run ids" }, { "--run 1,,2", "--run takes run ids" },
             { "--run 99999999999999999999", "--run takes run ids" },
             { "--run 99", "no run 99 in" }, { "--run 20-30", "no run in 20-30 in" },
             { "--config nope", "no run of configuration 'nope'" },
             { "--config ''", "--config needs" },
             { "--run 4-6 --config 'ranmar48/1/single/increment/*'", "both in --run and of" },
             { "--format xml", "--format must be markdown, json or junit" },
             { "--format json --compare", "--compare shapes the markdown" } }) {
        SCOPED_TRACE(args);
        const auto r = run_rngvet("report --db " + db + " --fail-on fail " + args);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
        ++cases;
    }
    RecordProperty("bad_inputs", cases);
}

TEST(ReportGate, AReachedGateExitsThreeAndAFailureOfTheMachineStillOne)
{
    const std::string db = make_store("formats_status.sqlite");
    const auto gate = run_rngvet("report --db " + db + " --fail-on fail --out /dev/null");
    EXPECT_EQ(gate.status, 3) << gate.err;
    EXPECT_EQ(gate.status, gate_exit_status);
    EXPECT_EQ(count_lines(gate.err), 1) << gate.err;
    // A report that cannot be written is a failure of the machine, reached gate or not.
    for (const std::string format : { "markdown", "json", "junit" }) {
        SCOPED_TRACE(format);
        const auto full = run_rngvet(
            "report --db " + db + " --fail-on fail --format " + format + " --out /dev/full");
        EXPECT_EQ(full.status, 1) << full.err;
        const std::string err = rngvet_test::running_test_file(".full.err");
        const int raw = std::system((std::string(RNGVET_BINARY) + " report --db " + db
            + " --fail-on fail --format " + format + " >/dev/full 2>" + err)
                                        .c_str());
        EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 1) << rngvet_test::slurp(err);
        EXPECT_NE(rngvet_test::slurp(err).find("rngvet: error: cannot write standard output"),
            std::string::npos)
            << rngvet_test::slurp(err);
    }
    // Bad input stays 2.
    EXPECT_EQ(run_rngvet("report --db " + db + " --fail-on sometimes").status, 2);
}

TEST(ReportScope, RunRangesParseIdsRangesAndLists)
{
    RunScope scope;
    add_run_ranges(scope, "2,4,7-9");
    add_run_ranges(scope, "11");
    ASSERT_EQ(scope.ranges.size(), 4u);
    EXPECT_EQ(scope.ranges[0].first, 2);
    EXPECT_EQ(scope.ranges[0].last, 2);
    EXPECT_EQ(scope.ranges[2].first, 7);
    EXPECT_EQ(scope.ranges[2].last, 9);
    EXPECT_EQ(scope.ranges[3].first, 11);
    int cases = 0;
    for (const char* bad : { "", "-1", "1-", "-", "1,", ",1", "1-2-3", "a", "1 2", "+3", "3-1",
             "9223372036854775808" }) {
        RunScope s;
        EXPECT_THROW(add_run_ranges(s, bad), InputError) << bad;
        ++cases;
    }
    RecordProperty("bad_inputs", cases);
}

TEST(ReportScope, ValidUtf8ReplacesEveryMalformedByte)
{
    EXPECT_EQ(valid_utf8("plain ascii"), "plain ascii");
    EXPECT_EQ(
        valid_utf8("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x8E\xB2"), "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x8E\xB2");
    const std::string r = "\xEF\xBF\xBD";
    EXPECT_EQ(valid_utf8("\xC0\x80"), r + r); // overlong
    EXPECT_EQ(valid_utf8("\xED\xA0\x80"), r + r + r); // a surrogate
    EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), r + r + r + r); // beyond U+10FFFF
    EXPECT_EQ(valid_utf8("a\xE2\x82"), "a" + r + r); // cut short
    EXPECT_EQ(valid_utf8("\x80z"), r + "z");
}

} // namespace
} // namespace rngvet
