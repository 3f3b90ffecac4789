#include "machine_report.hpp"

#include "batteries/catalogue.hpp"
#include "classify.hpp"
#include "markdown.hpp"
#include "verdict.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <type_traits>

namespace rngvet {

namespace {

// --- JSON ------------------------------------------------------------------------------------

std::string json_string(const std::string& text)
{
    std::string out = "\"";
    for (const char ch : valid_utf8(text)) {
        const auto c = static_cast<unsigned char>(ch);
        switch (ch) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += ch;
            }
        }
    }
    return out + "\"";
}

// The shortest text that reads back as v; null for values JSON cannot hold.
std::string json_number(double v)
{
    if (!std::isfinite(v)) return "null";
    return shortest_decimal(v);
}

// A streaming writer: one member or element a line, indented by two spaces a level. Arrays of
// numbers are written on one line.
class JsonWriter {
public:
    void begin_object(const char* key = nullptr) { open(key, '{'); }
    void end_object() { close('}'); }
    void begin_array(const char* key = nullptr) { open(key, '['); }
    void end_array() { close(']'); }
    void string(const char* key, const std::string& v) { item(key, json_string(v)); }
    // "" as null: a field the store has not filled.
    void string_or_null(const char* key, const std::string& v)
    {
        item(key, v.empty() ? "null" : json_string(v));
    }
    void number(const char* key, double v) { item(key, json_number(v)); }
    template <typename Int>
    std::enable_if_t<std::is_integral_v<Int> && !std::is_same_v<Int, bool>> integer(
        const char* key, Int v)
    {
        item(key, std::to_string(v));
    }
    void boolean(const char* key, bool v) { item(key, v ? "true" : "false"); }
    void null(const char* key) { item(key, "null"); }
    void numbers(const char* key, const std::vector<double>& values)
    {
        std::string text = "[";
        for (std::size_t i = 0; i < values.size(); ++i)
            text += (i ? ", " : "") + json_number(values[i]);
        item(key, text + "]");
    }
    template <typename Int> void integers(const char* key, const std::vector<Int>& values)
    {
        std::string text = "[";
        for (std::size_t i = 0; i < values.size(); ++i)
            text += (i ? ", " : "") + std::to_string(values[i]);
        item(key, text + "]");
    }
    void strings(const char* key, const std::vector<std::string>& values)
    {
        std::string text = "[";
        for (std::size_t i = 0; i < values.size(); ++i)
            text += (i ? ", " : "") + json_string(values[i]);
        item(key, text + "]");
    }
    std::string str() const { return out_ + "\n"; }

private:
    void prefix(const char* key)
    {
        if (!counts_.empty()) {
            out_ += counts_.back()++ ? ",\n" : "\n";
            out_.append(2 * counts_.size(), ' ');
        }
        if (key) out_ += json_string(key) + ": ";
    }
    void item(const char* key, const std::string& text)
    {
        prefix(key);
        out_ += text;
    }
    void open(const char* key, char bracket)
    {
        prefix(key);
        out_ += bracket;
        counts_.push_back(0);
    }
    void close(char bracket)
    {
        const bool had_items = counts_.back() > 0;
        counts_.pop_back();
        if (had_items) {
            out_ += "\n";
            out_.append(2 * counts_.size(), ' ');
        }
        out_ += bracket;
    }
    std::string out_;
    std::vector<int> counts_; // items written so far, per open object or array
};

void write_run(JsonWriter& j, const RunRecord& r, const std::vector<StatisticRecord>& stats)
{
    j.begin_object();
    j.integer("run_id", r.run_id);
    j.string("configuration", r.config);
    j.string("configuration_family", configuration_family(r.config));
    j.string("generator", r.generator);
    j.string("seed", r.seed);
    j.string("battery", r.battery);
    j.string("battery_title", battery_title(r.battery));
    j.string("tests_selected", r.tests_selected);
    j.string("backend", r.backend);
    j.string("mode", to_text(r.mode));
    j.string("engine", r.engine);
    j.string("status", to_text(r.status));
    j.integer("resolution_bits", r.resolution_bits);
    j.string_or_null("started_at", r.started_at);
    j.string_or_null("finished_at", r.finished_at);
    j.integer("numbers_used", r.numbers_used);
    j.number("cpu_seconds", r.cpu_seconds);
    j.string("host", r.host);
    j.string("testu01_version", r.testu01_version);
    j.string("rngvet_version", r.rngvet_version);
    j.string("command_line", r.command_line);
    int pass = 0, suspect = 0, fail = 0;
    for (const StatisticRecord& s : stats) {
        const PValueVerdict v = verdict(s.pvalue);
        pass += v == PValueVerdict::pass;
        suspect += v == PValueVerdict::suspect;
        fail += v == PValueVerdict::fail;
    }
    j.begin_object("counts");
    j.integer("statistics", stats.size());
    j.integer(to_text(PValueVerdict::pass), pass);
    j.integer(to_text(PValueVerdict::suspect), suspect);
    j.integer(to_text(PValueVerdict::fail), fail);
    j.end_object();
    j.begin_array("statistics");
    for (const StatisticRecord& s : stats) {
        j.begin_object();
        j.integer("index", s.stat_index);
        j.integer("test", s.test_number);
        j.string("name", s.test_name);
        j.number("pvalue", s.pvalue);
        j.string("verdict", to_text(verdict(s.pvalue)));
        j.end_object();
    }
    j.end_array();
    j.end_object();
}

void write_configuration(JsonWriter& j, const ConfigurationSummary& c)
{
    j.begin_object();
    j.string("id", c.id);
    j.string("configuration_family", c.family);
    j.string("battery", c.battery);
    j.string("battery_title", battery_title(c.battery));
    j.string("generator", c.generator);
    j.integer("resolution_bits", c.resolution_bits);
    j.strings("seeds", c.seeds);
    j.integers("run_ids", c.run_ids);
    j.integer("duplicate_runs", c.duplicate_runs);
    j.integer("incomplete_runs", c.incomplete_runs);
    j.number("cpu_seconds", c.cpu_seconds);
    j.string("verdict", to_key(c.verdict));
    j.string("verdict_text", to_string(c.verdict));
    j.string("verdict_line", c.verdict_line);
    j.integer("testable_statistics", c.testable_statistics);
    j.integer("testable_pvalues", c.testable_pvalues);
    j.integer("testable_suspect", c.testable_suspect);
    j.number("expected_suspect", c.expected_suspect);
    j.number("chance_tail", c.chance_tail);
    j.integer("resolution_pvalues", c.resolution_pvalues);
    j.integer("resolution_suspect", c.resolution_suspect);
    j.begin_array("statistics");
    for (const StatisticSummary& s : c.stats) {
        j.begin_object();
        j.integer("index", s.stat_index);
        j.integer("test", s.test_number);
        j.string("name", s.test_name);
        j.string("class", to_key(s.cls));
        j.string("class_text", to_string(s.cls));
        j.integer("seeds", s.pvalues.size());
        j.integer("suspect", s.suspect);
        j.integer("failures", s.failures);
        j.number("extreme_pvalue", s.extreme);
        j.string("bits", s.bits());
        j.boolean("beyond_resolution", s.beyond_resolution);
        j.boolean("discrete", s.discrete);
        j.number("chance_tail", s.chance_tail);
        if (s.uniformity) {
            j.begin_object("uniformity");
            j.number("ks", s.uniformity->ks);
            j.number("ks_p", s.uniformity->ks_p);
            j.number("ad", s.uniformity->ad);
            j.number("ad_p", s.uniformity->ad_p);
            j.end_object();
        } else {
            j.null("uniformity");
        }
        j.numbers("pvalues", s.pvalues);
        j.end_object();
    }
    j.end_array();
    j.end_object();
}

// --- XML -------------------------------------------------------------------------------------

std::string seconds(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", std::isfinite(s) && s > 0 ? s : 0.0);
    return buf;
}

struct StatisticKey {
    std::string family, battery;
    int stat_index = 0;
    bool operator<(const StatisticKey& o) const
    {
        return std::tie(family, battery, stat_index) < std::tie(o.family, o.battery, o.stat_index);
    }
};

struct Classed {
    const ConfigurationSummary* configuration = nullptr;
    const StatisticSummary* statistic = nullptr;
};

// Why a testcase fails under `level`; "" when it passes.
struct Failure {
    std::string type, message;
};

Failure failure_of(const StatisticRecord& s, const RunRecord& run, FailOn level,
    const std::map<StatisticKey, Classed>& classes)
{
    const std::string p
        = "p = " + format_pvalue(s.pvalue) + " (" + shortest_decimal(s.pvalue) + ")";
    if (level == FailOn::systematic) {
        const auto it
            = classes.find({ configuration_family(run.config), run.battery, s.stat_index });
        if (it == classes.end() || it->second.statistic->cls != StatisticClass::systematic)
            return {};
        const StatisticSummary& c = *it->second.statistic;
        return { fail_on_name(FailOn::systematic),
            p + ": classed systematic in configuration " + it->second.configuration->id + " ("
                + it->second.configuration->family + "): suspect on " + std::to_string(c.suspect)
                + " of " + std::to_string(c.pvalues.size())
                + " seeds, more often than chance allows" };
    }
    if (level == FailOn::suspect && is_suspect(s.pvalue))
        return { to_text(verdict(s.pvalue)), p + ": outside " + suspect_interval() + " (suspect)" };
    if (is_failure(s.pvalue))
        return { to_text(PValueVerdict::fail),
            p + ": outside " + failure_interval() + " (a clear failure)" };
    return {};
}

} // namespace

std::string render_json_report(Store& store, const std::string& db_label,
    const std::vector<RunRecord>& runs, const std::string& producer)
{
    JsonWriter j;
    j.begin_object();
    j.string("schema", "rngvet-report");
    j.integer("schema_version", json_report_schema_version);
    j.string("producer", producer);
    j.string("database", db_label);
    j.begin_object("levels");
    j.number("suspect", suspect_level);
    j.number("failure", failure_level);
    j.end_object();
    j.begin_array("runs");
    for (const RunRecord& r : runs)
        write_run(j, r, store.statistics(r.run_id));
    j.end_array();
    j.begin_array("configurations");
    if (!runs.empty())
        for (const ConfigurationSummary& c : compare_runs(store, runs).configurations)
            write_configuration(j, c);
    j.end_array();
    j.end_object();
    return j.str();
}

std::string render_junit_report(Store& store, const std::vector<RunRecord>& runs, FailOn level)
{
    Comparison comparison;
    std::map<StatisticKey, Classed> classes;
    if (level == FailOn::systematic && !runs.empty()) {
        comparison = compare_runs(store, runs);
        for (const ConfigurationSummary& c : comparison.configurations)
            for (const StatisticSummary& s : c.stats)
                classes[{ c.family, c.battery, s.stat_index }] = { &c, &s };
    }
    std::string suites;
    long tests = 0, failures = 0;
    double time = 0;
    for (const RunRecord& r : runs) {
        const std::vector<StatisticRecord> stats = store.statistics(r.run_id);
        std::string cases;
        long run_failures = 0;
        for (const StatisticRecord& s : stats) {
            cases += "    <testcase name=\""
                + xml_escape(std::to_string(s.stat_index) + ": " + s.test_name + " (test "
                    + std::to_string(s.test_number) + ")")
                + "\" classname=\"" + xml_escape(battery_title(r.battery) + "." + r.config) + "\"";
            const Failure f = failure_of(s, r, level, classes);
            const PValueVerdict v = verdict(s.pvalue);
            if (!f.type.empty()) {
                ++run_failures;
                cases += ">\n      <failure type=\"" + xml_escape(f.type) + "\" message=\""
                    + xml_escape(f.message) + "\">" + xml_escape(f.message)
                    + "</failure>\n    </testcase>\n";
            } else if (v != PValueVerdict::pass) {
                // Outside [0.001, 0.999] without failing under this level: said, not failed.
                cases += ">\n      <system-out>"
                    + xml_escape("p = " + shortest_decimal(s.pvalue) + ": " + to_text(v))
                    + "</system-out>\n    </testcase>\n";
            } else {
                cases += "/>\n";
            }
        }
        tests += static_cast<long>(stats.size());
        failures += run_failures;
        time += r.cpu_seconds;
        suites += "  <testsuite name=\""
            + xml_escape("run " + std::to_string(r.run_id) + ": " + r.config + ", "
                + battery_title(r.battery))
            + "\" id=\"" + std::to_string(r.run_id) + "\" tests=\"" + std::to_string(stats.size())
            + "\" failures=\"" + std::to_string(run_failures)
            + "\" errors=\"0\" skipped=\"0\" time=\"" + seconds(r.cpu_seconds) + "\"";
        if (!r.started_at.empty()) suites += " timestamp=\"" + xml_escape(r.started_at) + "\"";
        suites += " hostname=\"" + xml_escape(r.host.empty() ? "unknown" : r.host) + "\">\n";
        suites += "    <properties>\n";
        for (const auto& [name, value] :
            std::vector<std::pair<std::string, std::string>>{ { "configuration", r.config },
                { "configuration_family", configuration_family(r.config) }, { "seed", r.seed },
                { "battery", r.battery }, { "backend", r.backend }, { "status", to_text(r.status) },
                { "fail_on", fail_on_name(level) } })
            suites += "      <property name=\"" + xml_escape(name) + "\" value=\""
                + xml_escape(value) + "\"/>\n";
        suites += "    </properties>\n" + cases + "  </testsuite>\n";
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"rngvet\" tests=\""
        + std::to_string(tests) + "\" failures=\"" + std::to_string(failures)
        + "\" errors=\"0\" time=\"" + seconds(time) + "\">\n" + suites + "</testsuites>\n";
}

} // namespace rngvet
