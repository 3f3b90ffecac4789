#include "gate.hpp"

#include "batteries/catalogue.hpp"
#include "classify.hpp"
#include "generators/error.hpp"
#include "markdown.hpp"
#include "verdict.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iterator>
#include <sstream>

namespace rngvet {

const Words& fail_on_words()
{
    static const Words words = term_words(fail_on_terms);
    return words;
}

FailOn parse_fail_on(const std::string& text)
{
    if (const auto level = term_value(fail_on_terms, text)) return *level;
    throw InputError(
        "--fail-on must be " + term_alternatives(fail_on_terms) + ", got '" + text + "'");
}

std::string fail_on_help(const std::string& whose, const std::string& across)
{
    // The meanings hold the thresholds of verdict.hpp and the caller's words, so they are
    // written here, one per word of fail_on_words().
    const std::string meanings[]
        = { "", "a p-value outside " + failure_interval(), "outside " + suspect_interval(),
              "a statistic the comparison across " + across + " classes systematic" };
    std::string help = "exit " + std::to_string(gate_exit_status) + " when " + whose
        + " verdicts reach this level: ";
    for (std::size_t i = 0; i < fail_on_words().size(); ++i) {
        const std::string meaning = i < std::size(meanings) ? meanings[i] : "";
        help += std::string(i ? ", " : "") + fail_on_words()[i].form
            + (meaning.empty() ? "" : " (" + meaning + ")");
    }
    return help;
}

const char* fail_on_name(FailOn level)
{
    return term_text(fail_on_terms, level);
}

GateResult check_fail_on(Store& store, const std::vector<RunRecord>& runs, FailOn level)
{
    GateResult result;
    if (level == FailOn::never || runs.empty()) return result;
    if (level == FailOn::systematic) {
        const Comparison comparison = compare_runs(store, runs);
        int count = 0;
        std::string first;
        for (const ConfigurationSummary& c : comparison.configurations)
            for (const StatisticSummary& s : c.stats)
                if (s.cls == StatisticClass::systematic) {
                    if (!count++)
                        first = s.label() + " of " + c.family + " (" + c.battery + ", "
                            + std::to_string(s.suspect) + "/" + std::to_string(s.pvalues.size())
                            + " seeds)";
                }
        result.reached = count > 0;
        if (result.reached)
            result.reason
                = std::to_string(count) + " statistics fail systematically, first " + first;
        return result;
    }
    int count = 0;
    std::string first;
    for (const RunRecord& run : runs)
        for (const StatisticRecord& s : store.statistics(run.run_id)) {
            const PValueVerdict v = verdict(s.pvalue);
            if (v == PValueVerdict::pass || (level == FailOn::fail && v == PValueVerdict::suspect))
                continue;
            if (!count++)
                first = s.test_name + " (test " + std::to_string(s.test_number) + ") of run "
                    + std::to_string(run.run_id) + ", p = " + format_pvalue(s.pvalue);
        }
    result.reached = count > 0;
    if (result.reached)
        result.reason = std::to_string(count) + " statistics "
            + (level == FailOn::fail ? "fail" : "are suspect or fail") + ", first " + first;
    return result;
}

namespace {

// A run id: decimal digits only, at most INT64_MAX.
bool parse_run_id(const std::string& text, std::int64_t& id)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    return ec == std::errc() && end == text.data() + text.size();
}

} // namespace

void add_run_ranges(RunScope& scope, const std::string& text)
{
    const std::string syntax
        = "--run takes run ids, ranges and lists such as 3, 1-5 or 2,4,7-9, got '" + text + "'";
    if (text.empty()) throw InputError(syntax);
    std::size_t at = 0;
    while (true) {
        const std::size_t comma = text.find(',', at);
        const std::string item
            = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        RunScope::Range range;
        range.text = item;
        const std::size_t dash = item.find('-');
        if (dash == std::string::npos) {
            if (!parse_run_id(item, range.first)) throw InputError(syntax);
            range.last = range.first;
        } else {
            if (!parse_run_id(item.substr(0, dash), range.first)
                || !parse_run_id(item.substr(dash + 1), range.last))
                throw InputError(syntax);
            if (range.first > range.last)
                throw InputError("--run " + item + ": the range's first run is after its last");
        }
        scope.ranges.push_back(range);
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
}

std::vector<RunRecord> select_runs(Store& store, const RunScope& scope, const std::string& db_label)
{
    const std::vector<RunRecord> all = store.runs();
    if (scope.empty()) return all;
    const auto in_range = [](const RunRecord& r, const RunScope::Range& range) {
        return r.run_id >= range.first && r.run_id <= range.last;
    };
    const auto of_config = [](const RunRecord& r, const std::string& name) {
        return r.config == name || configuration_family(r.config) == name;
    };
    for (const RunScope::Range& range : scope.ranges)
        if (std::none_of(
                all.begin(), all.end(), [&](const RunRecord& r) { return in_range(r, range); }))
            throw InputError(range.first == range.last
                    ? "no run " + range.text + " in " + db_label
                    : "no run in " + range.text + " in " + db_label);
    for (const std::string& name : scope.configs)
        if (std::none_of(
                all.begin(), all.end(), [&](const RunRecord& r) { return of_config(r, name); }))
            throw InputError("no run of configuration '" + name + "' in " + db_label
                + " (--config takes a stored configuration, or it with the seed as *)");
    std::vector<RunRecord> chosen;
    for (const RunRecord& r : all) {
        const bool run_ok = scope.ranges.empty()
            || std::any_of(scope.ranges.begin(), scope.ranges.end(),
                [&](const RunScope::Range& range) { return in_range(r, range); });
        const bool config_ok = scope.configs.empty()
            || std::any_of(scope.configs.begin(), scope.configs.end(),
                [&](const std::string& name) { return of_config(r, name); });
        if (run_ok && config_ok) chosen.push_back(r);
    }
    if (chosen.empty())
        throw InputError("no run of " + db_label + " is both in --run and of --config");
    std::sort(chosen.begin(), chosen.end(),
        [](const RunRecord& a, const RunRecord& b) { return a.run_id < b.run_id; });
    return chosen;
}

std::string battery_summary(const RunRecord& run, const std::vector<StatisticRecord>& stats)
{
    const long cs = static_cast<long>(run.cpu_seconds * 100 + 0.5);
    char cpu[32];
    std::snprintf(cpu, sizeof cpu, "%02ld:%02ld:%02ld.%02ld", cs / 360000, cs / 6000 % 60,
        cs / 100 % 60, cs % 100);
    std::ostringstream out;
    out << "\n========= Summary results of " << battery_title(run.battery) << " (rngvet run "
        << run.run_id << ") =========\n\n"
        << " Version:          " << run.testu01_version << "\n"
        << " Generator:        " << run.config << "\n"
        << " Number of statistics:  " << stats.size() << "\n"
        << " Total CPU time:   " << cpu << "\n";
    std::vector<const StatisticRecord*> outside;
    for (const StatisticRecord& s : stats)
        if (verdict(s.pvalue) != PValueVerdict::pass) outside.push_back(&s);
    if (outside.empty()) {
        out << "\n All tests were passed\n\n";
        return out.str();
    }
    // TestU01's own layout: "[%.4g, %.4f]" of gofw_Suspectp, i.e. [0.001, 0.9990].
    char interval[64];
    std::snprintf(interval, sizeof interval, "[%.4g, %.4f]", suspect_level, 1 - suspect_level);
    out << " The following tests gave p-values outside " << interval << ":\n"
        << " (eps  means a value < 1.0e-300):\n"
        << " (eps1 means a value < 1.0e-15):\n\n"
        << "       Test                          p-value\n"
        << " ----------------------------------------------\n";
    for (const StatisticRecord* s : outside) {
        char line[96];
        std::snprintf(line, sizeof line, " %2d  %-30s %s\n", s->test_number, s->test_name.c_str(),
            format_pvalue(s->pvalue).c_str());
        out << line;
    }
    out << " ----------------------------------------------\n"
        << " All other tests were passed\n\n";
    return out.str();
}

} // namespace rngvet
