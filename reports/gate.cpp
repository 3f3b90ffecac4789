#include "gate.hpp"

#include "batteries/catalogue.hpp"
#include "compare.hpp"
#include "generators/error.hpp"
#include "report.hpp"
#include "verdict.hpp"

#include <cstdio>
#include <sstream>

namespace rngvet {

FailOn parse_fail_on(const std::string& text)
{
    if (text == "never") return FailOn::never;
    if (text == "fail") return FailOn::fail;
    if (text == "suspect") return FailOn::suspect;
    if (text == "systematic") return FailOn::systematic;
    throw InputError("--fail-on must be never, fail, suspect or systematic, got '" + text + "'");
}

std::string fail_on_help(const std::string& whose, const std::string& across)
{
    return "exit 1 when " + whose + " verdicts reach this level: never, fail (a p-value outside "
        + failure_interval() + "), suspect (outside " + suspect_interval()
        + "), systematic (a statistic the comparison across " + across + " classes systematic)";
}

const char* fail_on_name(FailOn level)
{
    switch (level) {
    case FailOn::never:
        return "never";
    case FailOn::fail:
        return "fail";
    case FailOn::suspect:
        return "suspect";
    case FailOn::systematic:
        return "systematic";
    }
    return "never";
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
