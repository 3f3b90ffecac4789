#include "compare.hpp"

#include "batteries/bits_read.hpp"
#include "batteries/catalogue.hpp"
#include "batteries/registry.hpp"
#include "generators/configuration.hpp"
#include "markdown.hpp"
#include "report.hpp"
#include "svg.hpp"
#include "verdict.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace rngvet {
namespace {

using markdown::code;
using markdown::printf_string;
using markdown::Table;
// A markdown table cell.
std::string md(const std::string& s)
{
    return markdown::cell(s);
}

// Level at which a count of suspect values or a uniformity test is called more than chance,
// after multiplying by the number of statistics examined (Bonferroni).
constexpr double decision_level = 0.001;
constexpr std::size_t max_histograms = 10;
constexpr std::size_t max_second_level_rows = 20;

// A probability that is not a TestU01 p-value (binomial tails, corrected levels).
std::string prob(double p)
{
    if (p < 1e-300) return "< 1e-300";
    if (p >= 0.01) return printf_string("%.2f", p);
    return printf_string("%.1e", p);
}

std::string duration(double seconds)
{
    if (seconds < 120) return printf_string("%.1f s", seconds);
    if (seconds < 7200) return printf_string("%.1f min", seconds / 60);
    return printf_string("%.1f h", seconds / 3600);
}

// The registry's order (registry.hpp); unknown batteries last.
int battery_rank(const std::string& battery)
{
    const std::string b = battery_family(battery);
    const auto& families = battery_registry();
    int rank = 0;
    while (rank < static_cast<int>(families.size()) && b != families[rank].name)
        ++rank;
    return rank;
}

// A battery name as part of a file name: "rabbit(nb=1048576)" -> "rabbit-nb-1048576".
std::string file_tag(const std::string& battery)
{
    std::string out;
    for (char c : battery) {
        const bool plain
            = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (plain)
            out += c;
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out;
}

int severity(StatisticClass c)
{
    switch (c) {
    case StatisticClass::pass:
        return 0;
    case StatisticClass::chance:
        return 1;
    case StatisticClass::resolution:
        return 2;
    case StatisticClass::nonuniform:
        return 3;
    case StatisticClass::some_seeds:
        return 4;
    case StatisticClass::systematic:
        return 5;
    }
    return 0;
}

int severity(Verdict v)
{
    switch (v) {
    case Verdict::defective:
        return 3;
    case Verdict::suspect:
        return 2;
    case Verdict::resolution:
        return 1;
    case Verdict::sound:
        return 0;
    }
    return 0;
}

double distance_from_half(double p)
{
    return std::fabs(p - 0.5);
}

// Tests whose p-values come from a discrete distribution (Poisson counts of collisions or
// spacings, bit-match counts): their p-values are not uniform even for a perfect generator.
bool discrete_family(const std::string& test_name)
{
    for (const char* prefix : { "BirthdaySpacings", "Collision", "ClosePairsBitMatch" })
        if (test_name.rfind(prefix, 0) == 0) return true;
    return false;
}

bool has_ties(std::vector<double> v)
{
    // Values that are clear failures tie at the extremes without saying anything about
    // discreteness.
    v.erase(std::remove_if(v.begin(), v.end(), is_failure), v.end());
    std::sort(v.begin(), v.end());
    return std::adjacent_find(v.begin(), v.end()) != v.end();
}

void classify(StatisticSummary& s, int testable_statistics)
{
    const double m = std::max(1, testable_statistics);
    const long n = static_cast<long>(s.pvalues.size());
    s.chance_tail = binomial_tail(n, suspect_probability, s.suspect);
    const bool second_rejects
        = s.uniformity && !s.discrete && std::min(1.0, m * s.uniformity->ad_p) < decision_level;
    const bool count_rejects = s.failures > 0 || std::min(1.0, m * s.chance_tail) < decision_level;
    if (s.suspect == 0 && !second_rejects)
        s.cls = StatisticClass::pass;
    else if (s.beyond_resolution)
        s.cls = StatisticClass::resolution;
    else if (count_rejects && s.suspect > 0)
        s.cls = 2 * s.suspect >= n ? StatisticClass::systematic : StatisticClass::some_seeds;
    else if (second_rejects)
        s.cls = StatisticClass::nonuniform;
    else
        s.cls = StatisticClass::chance;
}

std::string counts(const StatisticSummary& s)
{
    return std::to_string(s.suspect) + "/" + std::to_string(s.pvalues.size());
}

void decide(ConfigurationSummary& c)
{
    std::vector<const StatisticSummary*> defects, nonuniform;
    int resolution = 0;
    for (const auto& s : c.stats) {
        if (s.cls == StatisticClass::systematic || s.cls == StatisticClass::some_seeds)
            defects.push_back(&s);
        if (s.cls == StatisticClass::nonuniform) nonuniform.push_back(&s);
        if (s.cls == StatisticClass::resolution) ++resolution;
    }
    std::stable_sort(defects.begin(), defects.end(), [](const auto* a, const auto* b) {
        return a->suspect * b->pvalues.size() > b->suspect * a->pvalues.size();
    });
    const std::string seeds = std::to_string(c.seeds.size());
    const std::string chance_line = std::to_string(c.testable_suspect) + " suspect "
        + (c.testable_suspect == 1 ? "value" : "values") + " in "
        + std::to_string(c.testable_statistics)
        + (c.testable_statistics == 1 ? " statistic x " : " statistics x ") + seeds
        + (c.seeds.size() == 1 ? " seed" : " seeds");
    std::ostringstream line;
    if (!defects.empty()) {
        c.verdict = Verdict::defective;
        for (std::size_t i = 0; i < defects.size() && i < 3; ++i) {
            const auto* s = defects[i];
            line << (i ? "; " : "") << "fails " << s->label() << " on " << counts(*s)
                 << (s->pvalues.size() == 1 ? " seed" : " seeds")
                 << (s->failures > 0 ? " (clear failure, p = " + format_pvalue(s->extreme) + ")"
                                     : "")
                 << ": "
                 << (s->cls == StatisticClass::systematic ? "systematic" : "seed-dependent");
        }
        if (defects.size() > 3) line << "; and " << defects.size() - 3 << " more statistics";
    } else if (!nonuniform.empty()) {
        c.verdict = Verdict::suspect;
        const auto* s = nonuniform.front();
        line << "p-values of " << s->label() << " are not uniform over " << s->pvalues.size()
             << " seeds (Anderson-Darling p = " << format_pvalue(s->uniformity->ad_p) << ")";
        if (nonuniform.size() > 1) line << " and " << nonuniform.size() - 1 << " more";
        line << ": suspect";
    } else if (c.chance_tail < decision_level) {
        c.verdict = Verdict::suspect;
        line << chance_line << " where " << printf_string("%.2f", c.expected_suspect)
             << " are expected (P = " << prob(c.chance_tail) << "): more than chance";
    } else {
        c.verdict = resolution > 0 ? Verdict::resolution : Verdict::sound;
        if (resolution > 0)
            line << resolution << (resolution == 1 ? " statistic reads" : " statistics read")
                 << " beyond bit " << c.resolution_bits
                 << ": expected (resolution), not a defect; otherwise ";
        line << chance_line << ": consistent with chance (expected "
             << printf_string("%.2f", c.expected_suspect) << ")";
    }
    c.verdict_line = line.str();
}

std::string throughput(const ConfigurationSummary& c)
{
    if (c.bench.empty()) return "not measured";
    const auto best = std::max_element(c.bench.begin(), c.bench.end(),
        [](const auto& a, const auto& b) { return a.numbers_per_second < b.numbers_per_second; });
    std::string s = printf_string("%.3g", best->numbers_per_second) + " numbers/s (" + best->backend
        + (best->device.empty() ? "" : ", " + best->device) + ", " + best->placement + ")";
    if (c.bench.size() > 1) s += ", best of " + std::to_string(c.bench.size());
    return md(s);
}

std::string seed_list(const ConfigurationSummary& c)
{
    std::string s = std::to_string(c.seeds.size()) + " (";
    for (std::size_t i = 0; i < c.seeds.size() && i < 4; ++i)
        s += (i ? "; " : "") + c.seeds[i];
    if (c.seeds.size() > 4) s += "; ...";
    return md(s + ")");
}

// The matrix cell of one statistic of one configuration.
std::string matrix_cell(const StatisticSummary* s)
{
    if (!s) return "-";
    std::string text = counts(*s) + " (" + format_pvalue(s->extreme) + ")";
    switch (s->cls) {
    case StatisticClass::systematic:
    case StatisticClass::some_seeds:
        return "**" + text + "**";
    case StatisticClass::resolution:
        return text + " res.";
    case StatisticClass::nonuniform:
        return text + " AD!";
    default:
        return text;
    }
}

// A relative link target that survives spaces and parentheses in the file name.
std::string link(const std::string& name)
{
    std::string out;
    for (char c : name) {
        if (c == ' ')
            out += "%20";
        else if (c == '(')
            out += "%28";
        else if (c == ')')
            out += "%29";
        else
            out += c;
    }
    return out;
}

const StatisticSummary* find_stat(const ConfigurationSummary& c, int stat_index)
{
    for (const auto& s : c.stats)
        if (s.stat_index == stat_index) return &s;
    return nullptr;
}

// A battery's verdict for one configuration, for the table of mcpi beside SmallCrush.
std::string verdict_cell(const ConfigurationSummary* c, bool with_id)
{
    if (!c) return "not run";
    return (with_id ? c->id + " " : std::string()) + "**" + to_string(c->verdict) + "**, "
        + std::to_string(c->seeds.size()) + (c->seeds.size() == 1 ? " seed, " : " seeds, ")
        + std::to_string(c->testable_suspect) + "/" + std::to_string(c->testable_pvalues)
        + " p-values suspect";
}

const StatisticSummary* find_named(const ConfigurationSummary& c, const std::string& name)
{
    for (const auto& s : c.stats)
        if (s.test_name == name) return &s;
    return nullptr;
}

} // namespace

std::string configuration_family(const std::string& config)
{
    return seed_family(config);
}

const char* to_string(StatisticClass c)
{
    switch (c) {
    case StatisticClass::pass:
        return "pass";
    case StatisticClass::chance:
        return "consistent with chance";
    case StatisticClass::resolution:
        return "expected (resolution)";
    case StatisticClass::nonuniform:
        return "p-values not uniform";
    case StatisticClass::some_seeds:
        return "seed-dependent";
    case StatisticClass::systematic:
        return "systematic";
    }
    return "?";
}

const char* to_string(Verdict v)
{
    switch (v) {
    case Verdict::defective:
        return "defective";
    case Verdict::suspect:
        return "suspect";
    case Verdict::resolution:
        return "sound within its resolution";
    case Verdict::sound:
        return "sound";
    }
    return "?";
}

const char* to_key(StatisticClass c)
{
    switch (c) {
    case StatisticClass::pass:
        return "pass";
    case StatisticClass::chance:
        return "chance";
    case StatisticClass::resolution:
        return "resolution";
    case StatisticClass::nonuniform:
        return "nonuniform";
    case StatisticClass::some_seeds:
        return "some_seeds";
    case StatisticClass::systematic:
        return "systematic";
    }
    return "?";
}

const char* to_key(Verdict v)
{
    switch (v) {
    case Verdict::defective:
        return "defective";
    case Verdict::suspect:
        return "suspect";
    case Verdict::resolution:
        return "resolution";
    case Verdict::sound:
        return "sound";
    }
    return "?";
}

std::string StatisticSummary::label() const
{
    return test_name + " (test " + std::to_string(test_number) + ")";
}

std::string StatisticSummary::bits() const
{
    if (highest_bit == 0) return "?";
    return std::to_string(first_bit) + "-" + std::to_string(highest_bit)
        + (all_bits ? " (all)" : "");
}

bool Comparison::repeated_seeds() const
{
    for (const auto& c : configurations)
        if (c.seeds.size() > 1) return true;
    return false;
}

Comparison compare_runs(Store& store, const std::vector<RunRecord>& runs)
{
    // A seed's statistics, from one run or from several runs of disjoint tests (a follow-up
    // that runs other statistics of the same seed with --tests adds to it).
    struct Seed {
        std::vector<RunRecord> runs;
        std::vector<StatisticRecord> stats;
    };
    struct Group {
        std::map<std::string, Seed> by_seed;
        int duplicates = 0;
    };
    std::map<std::pair<std::string, std::string>, Group> groups;
    for (const RunRecord& r : runs) {
        auto stats = store.statistics(r.run_id);
        if (stats.empty()) continue;
        Group& g = groups[{ configuration_family(r.config), r.battery }];
        auto it = g.by_seed.find(r.seed);
        if (it == g.by_seed.end()) {
            g.by_seed.emplace(r.seed, Seed{ { r }, std::move(stats) });
            continue;
        }
        Seed& seed = it->second;
        std::set<int> counted;
        for (const auto& st : seed.stats)
            counted.insert(st.stat_index);
        const bool repeats = std::any_of(stats.begin(), stats.end(),
            [&](const StatisticRecord& st) { return counted.count(st.stat_index) > 0; });
        if (!repeats) {
            seed.runs.push_back(r);
            seed.stats.insert(seed.stats.end(), stats.begin(), stats.end());
            continue;
        }
        // A run that repeats statistics already counted: it or the seed's runs so far are left
        // out, whichever has fewer statistics.
        if (stats.size() >= seed.stats.size()) {
            g.duplicates += static_cast<int>(seed.runs.size());
            seed = Seed{ { r }, std::move(stats) };
        } else {
            ++g.duplicates;
        }
    }
    const std::vector<BenchRecord> bench = store.bench();

    Comparison out;
    for (auto& [key, g] : groups) {
        ConfigurationSummary c;
        c.family = key.first;
        c.battery = key.second;
        c.duplicate_runs = g.duplicates;
        std::map<int, StatisticSummary> stats;
        for (auto& [seed, entry] : g.by_seed) {
            c.seeds.push_back(seed);
            for (const RunRecord& r : entry.runs) {
                c.run_ids.push_back(r.run_id);
                c.generator = r.generator;
                c.resolution_bits = c.resolution_bits == 0
                    ? r.resolution_bits
                    : std::min(c.resolution_bits, r.resolution_bits);
                c.cpu_seconds += r.cpu_seconds;
                if (r.status != RunStatus::complete) ++c.incomplete_runs;
            }
            for (const auto& st : entry.stats) {
                StatisticSummary& s = stats[st.stat_index];
                s.stat_index = st.stat_index;
                s.test_number = st.test_number;
                if (s.test_name.empty()) s.test_name = st.test_name;
                s.pvalues.push_back(st.pvalue);
            }
        }
        for (auto& [index, s] : stats) {
            for (double p : s.pvalues) {
                s.suspect += is_suspect(p);
                s.failures += is_failure(p);
                if (distance_from_half(p) > distance_from_half(s.extreme)) s.extreme = p;
            }
            try {
                const BitsRead b = bits_read(c.battery, s.test_number);
                s.first_bit = b.first_bit;
                s.highest_bit = b.highest_bit;
                s.all_bits = b.all_bits;
                s.bits_call = b.call;
                s.beyond_resolution = b.resolution_matters && c.resolution_bits > 0
                    && b.highest_bit > c.resolution_bits;
            } catch (const std::out_of_range&) {
                // Unknown battery or test: never excused by resolution.
            }
            s.discrete = discrete_family(s.test_name) || has_ties(s.pvalues);
            if (s.pvalues.size() >= 3) s.uniformity = uniformity_test(s.pvalues);
            if (!s.beyond_resolution) ++c.testable_statistics;
            c.stats.push_back(std::move(s));
        }
        for (auto& s : c.stats) {
            classify(s, c.testable_statistics);
            const long n = static_cast<long>(s.pvalues.size());
            if (s.beyond_resolution) {
                c.resolution_pvalues += n;
                c.resolution_suspect += s.suspect;
            } else {
                c.testable_pvalues += n;
                c.testable_suspect += s.suspect;
            }
        }
        c.expected_suspect = suspect_probability * static_cast<double>(c.testable_pvalues);
        c.chance_tail = binomial_tail(c.testable_pvalues, suspect_probability, c.testable_suspect);
        for (const auto& b : bench)
            if (configuration_family(b.config) == c.family) c.bench.push_back(b);
        decide(c);
        out.configurations.push_back(std::move(c));
    }
    std::stable_sort(out.configurations.begin(), out.configurations.end(),
        [](const ConfigurationSummary& a, const ConfigurationSummary& b) {
            if (battery_rank(a.battery) != battery_rank(b.battery))
                return battery_rank(a.battery) < battery_rank(b.battery);
            if (severity(a.verdict) != severity(b.verdict))
                return severity(a.verdict) > severity(b.verdict);
            return a.family < b.family;
        });
    for (std::size_t i = 0; i < out.configurations.size(); ++i)
        out.configurations[i].id = "C" + std::to_string(i + 1);
    return out;
}

std::string render_mcpi_beside_smallcrush(const Comparison& comparison, bool standalone)
{
    const auto& configs = comparison.configurations;
    std::ostringstream o;
    Table table({ "Configuration", "SmallCrush", "mcpi", "pi from 2-d points (test 1)",
                    "pi from 3-d points (test 2)" },
        "lllll");
    int rows = 0;
    for (const auto& m : configs) {
        if (battery_family(m.battery) != "mcpi") continue;
        const ConfigurationSummary* small = nullptr;
        for (const auto& c : configs)
            if (c.family == m.family && c.battery == "smallcrush") small = &c;
        table.row({ code(m.family), verdict_cell(small, !standalone),
            verdict_cell(&m, !standalone) + " " + md(battery_title(m.battery).substr(5)),
            matrix_cell(find_named(m, "MCPi 2-d, all points")),
            matrix_cell(find_named(m, "MCPi 3-d, all points")) });
        ++rows;
    }
    if (rows == 0) return "";
    o << (standalone ? "## " : "### ") << "mcpi beside SmallCrush\n\n"
      << "The application battery mcpi estimates pi from the fraction of points inside the unit "
         "circle (docs/batteries.md); SmallCrush costs about as much. Each configuration run "
         "through mcpi, with its SmallCrush verdict where it was run. The pi columns: seeds "
         "whose estimate over all points was suspect / seeds run, then the most extreme "
         "two-sided p-value.\n\n"
      << table.str();
    return o.str();
}

ComparisonAnalysis analyse_comparison(const Comparison& comparison)
{
    const auto& configs = comparison.configurations;
    ComparisonAnalysis a;

    for (const auto& c : configs) {
        a.pvalues += c.testable_pvalues;
        a.suspect += c.testable_suspect;
        for (const auto& s : c.stats)
            if (s.cls == StatisticClass::systematic || s.cls == StatisticClass::some_seeds)
                a.defect_suspect += s.suspect;
    }
    a.expected_suspect = suspect_probability * static_cast<double>(a.pvalues);
    a.chance_tail = binomial_tail(a.pvalues, suspect_probability, a.suspect);

    std::vector<std::string> batteries;
    for (const auto& c : configs)
        if (std::find(batteries.begin(), batteries.end(), c.battery) == batteries.end())
            batteries.push_back(c.battery);
    for (const std::string& battery : batteries) {
        ComparisonAnalysis::Matrix m;
        m.battery = battery;
        for (const auto& c : configs)
            if (c.battery == battery) m.configurations.push_back(&c);
        std::map<int, ComparisonAnalysis::MatrixRow> rows;
        std::set<int> seen;
        for (const auto* c : m.configurations)
            for (const auto& s : c->stats) {
                seen.insert(s.stat_index);
                if (s.cls == StatisticClass::pass) continue;
                auto& row = rows.try_emplace(s.stat_index,
                                    ComparisonAnalysis::MatrixRow{ s.stat_index, &s, 0, 0.0 })
                                .first->second;
                row.worst = std::max(row.worst, severity(s.cls));
                row.fraction
                    += static_cast<double>(s.suspect) / static_cast<double>(s.pvalues.size());
            }
        m.statistics = static_cast<int>(seen.size());
        for (const auto& [index, r] : rows)
            m.rows.push_back(r);
        std::stable_sort(m.rows.begin(), m.rows.end(), [](const auto& x, const auto& y) {
            if (x.worst != y.worst) return x.worst > y.worst;
            if (x.fraction != y.fraction) return x.fraction > y.fraction;
            return x.stat_index < y.stat_index;
        });
        a.matrices.push_back(std::move(m));
    }

    for (const auto& c : configs) {
        ComparisonAnalysis::Resolution r;
        r.configuration = &c;
        for (const auto& s : c.stats)
            if (s.beyond_resolution) {
                r.beyond.push_back(&s);
                if (s.cls == StatisticClass::resolution) r.flagged.push_back(&s);
            }
        if (!r.beyond.empty()) a.resolution.push_back(std::move(r));
    }

    for (const auto& c : configs) {
        std::vector<const StatisticSummary*> tested;
        for (const auto& s : c.stats)
            if (s.uniformity) tested.push_back(&s);
        if (tested.empty()) continue;
        std::stable_sort(tested.begin(), tested.end(),
            [](const auto* x, const auto* y) { return x->uniformity->ad_p < y->uniformity->ad_p; });
        ComparisonAnalysis::SecondLevel l;
        l.configuration = &c;
        l.examined = std::max(1, c.testable_statistics);
        l.tested = tested.size();
        const auto rejects = [&](const StatisticSummary* s) {
            return std::min(1.0, l.examined * s->uniformity->ad_p) < decision_level;
        };
        for (const auto* s : tested) {
            if (!rejects(s)) continue;
            if (s->discrete || s->beyond_resolution)
                ++l.excused;
            else
                ++l.rejected;
        }
        for (const auto* s : tested) {
            const bool notable = s->uniformity->ad_p < 0.01 || l.shown.size() < 3;
            if (!notable || l.shown.size() >= max_second_level_rows)
                ++a.second_level_left_out;
            else
                l.shown.push_back({ s, rejects(s) });
        }
        a.second_level.push_back(std::move(l));
    }

    for (const auto& c : configs)
        for (const auto& s : c.stats)
            if (s.cls != StatisticClass::pass && s.pvalues.size() >= 2)
                a.picks.push_back({ &c, &s });
    std::stable_sort(a.picks.begin(), a.picks.end(), [](const auto& x, const auto& y) {
        const StatisticSummary& p = *x.statistic;
        const StatisticSummary& q = *y.statistic;
        if (severity(p.cls) != severity(q.cls)) return severity(p.cls) > severity(q.cls);
        return p.suspect * q.pvalues.size() > q.suspect * p.pvalues.size();
    });
    return a;
}

namespace {

void render_introduction(std::ostream& o)
{
    o << "A configuration is a run's configuration name with its seed replaced by `*`, together "
         "with the battery; each seed counts once. A p-value is *suspect* outside "
      << suspect_interval() << " (probability " << suspect_probability
      << " for a sound generator) and a *clear failure* outside " << failure_interval()
      << ". A statistic fails *systematically* when its suspect values are more "
         "frequent than chance allows (binomial tail, or any clear failure) at level "
      << decision_level
      << " after multiplying by the number of statistics examined, on at least half of the "
         "seeds (otherwise *seed-dependent*). A statistic whose test reads bits beyond the "
         "generator's resolution is *expected (resolution)* and never makes a configuration "
         "defective.\n\n";
}

// Configurations, verdicts and cost.
void render_configurations(std::ostream& o, const Comparison& comparison)
{
    const auto& configs = comparison.configurations;
    o << "### Configurations\n\n";
    Table table({ "", "Configuration", "Battery", "Seeds", "Resolution", "Verdict",
                    "CPU time per seed", "Throughput" },
        "llllllrl");
    for (const auto& c : configs) {
        const double per_seed = c.cpu_seconds / static_cast<double>(c.seeds.size());
        table.row({ c.id, (c.label.empty() ? "" : "**" + md(c.label) + "** ") + code(c.family),
            battery_title(c.battery), seed_list(c), std::to_string(c.resolution_bits) + " bits",
            std::string("**") + to_string(c.verdict) + "**", duration(per_seed), throughput(c) });
    }
    o << table.str();
    for (const auto& c : configs) {
        o << "- **" << c.id << "** " << (c.label.empty() ? "" : md(c.label) + " ") << code(c.family)
          << ", " << battery_title(c.battery) << ": " << md(c.verdict_line) << ". Battery CPU time "
          << duration(c.cpu_seconds) << " for " << c.seeds.size()
          << (c.seeds.size() == 1 ? " seed" : " seeds") << "; throughput " << throughput(c) << ".";
        if (c.duplicate_runs > 0)
            o << " " << c.duplicate_runs
              << " further run(s) of seeds already counted were left out.";
        if (c.incomplete_runs > 0)
            o << " " << c.incomplete_runs << " counted run(s) did not complete.";
        o << "\n";
    }
    o << "\n";
}

void render_chance(std::ostream& o, const Comparison& comparison, const ComparisonAnalysis& a)
{
    o << "### What chance alone would give\n\n";
    o << "Within the generators' resolution, " << a.pvalues << " p-values were examined. Chance "
      << "alone gives each a probability of " << suspect_probability
      << " of being suspect, so about " << printf_string("%.2f", a.expected_suspect)
      << " suspect values are expected (" << suspect_probability << " x " << a.pvalues << "); "
      << a.suspect << " were observed (P(X >= " << a.suspect << ") = " << prob(a.chance_tail)
      << " for X ~ Binomial(" << a.pvalues << ", " << suspect_probability << "))";
    if (a.defect_suspect > 0)
        o << ", " << a.defect_suspect << " of them in statistics that fail more often than chance "
          << "allows and " << a.suspect - a.defect_suspect << " elsewhere";
    o << ". Statistics that read beyond a generator's resolution are not counted here.\n\n";
    Table chance({ "", "Statistics", "p-values", "Suspect", "Expected by chance", "P(X >= suspect)",
                     "Beyond resolution: suspect / p-values" },
        "lrrrrrr");
    for (const auto& c : comparison.configurations)
        chance.row({ c.id, std::to_string(c.testable_statistics),
            std::to_string(c.testable_pvalues), std::to_string(c.testable_suspect),
            printf_string("%.2f", c.expected_suspect), prob(c.chance_tail),
            std::to_string(c.resolution_suspect) + " / " + std::to_string(c.resolution_pvalues) });
    o << chance.str();
}

HeatMap heat_map(const ComparisonAnalysis::Matrix& m)
{
    HeatMap map;
    map.title
        = std::string(battery_title(m.battery)) + ": fraction of seeds with a suspect p-value";
    map.value_label = "fraction of seeds suspect";
    for (const auto* c : m.configurations)
        map.row_labels.push_back(c->id + " " + (c->label.empty() ? c->family : c->label));
    for (const auto& r : m.rows)
        map.column_labels.push_back("#" + std::to_string(r.stat_index) + " " + r.first->test_name);
    for (const auto* c : m.configurations) {
        std::vector<HeatCell> line;
        for (const auto& r : m.rows) {
            HeatCell cell;
            const StatisticSummary* s = find_stat(*c, r.stat_index);
            if (s) {
                cell.kind = s->cls == StatisticClass::resolution ? HeatCell::Kind::resolution
                                                                 : HeatCell::Kind::value;
                cell.value
                    = static_cast<double>(s->suspect) / static_cast<double>(s->pvalues.size());
                cell.text = s->suspect > 0 ? std::to_string(s->suspect) : "";
                cell.tooltip = c->id + ", " + s->label() + ": " + counts(*s)
                    + " seeds suspect, most extreme p = " + format_pvalue(s->extreme) + ", "
                    + to_string(s->cls);
            }
            line.push_back(cell);
        }
        map.cells.push_back(std::move(line));
    }
    return map;
}

// One battery's statistics x configurations (and its heat map).
void render_matrix(std::ostream& o, const ComparisonAnalysis::Matrix& m,
    const std::string& plot_prefix, std::vector<ReportFile>& files)
{
    const std::string title = battery_title(m.battery);
    o << "### " << title << ": statistics x configurations\n\n";
    if (m.rows.empty()) {
        o << "No statistic of " << title << " gave a suspect value in any "
          << "configuration (" << m.statistics << " statistics).\n\n";
        return;
    }
    o << "Each cell: seeds with a suspect p-value / seeds run, then the most extreme p-value. "
         "**Bold**: fails more often than chance allows; res.: expected, the test reads bits "
         "beyond the generator's resolution; AD!: p-values not uniform (Anderson-Darling). "
         "Only the "
      << m.rows.size() << " of " << m.statistics
      << " statistics with at least one suspect value or non-uniform p-values are listed, "
         "most severe first.\n\n";
    if (!plot_prefix.empty()) {
        const std::string name = plot_prefix + "-heatmap-" + file_tag(m.battery) + ".svg";
        files.push_back({ name, heat_map_svg(heat_map(m)) });
        o << "![" << title << " heat map: configurations x statistics](" << link(name) << ")\n\n";
    }
    std::vector<std::string> header = { "#", "Test", "Statistic", "Bits read" };
    std::string align = "rrll";
    for (const auto* c : m.configurations) {
        header.push_back(c->id);
        align += 'l';
    }
    Table matrix(header, align);
    for (const auto& r : m.rows) {
        std::vector<std::string> line = { std::to_string(r.stat_index),
            std::to_string(r.first->test_number), md(r.first->test_name), r.first->bits() };
        for (const auto* c : m.configurations)
            line.push_back(matrix_cell(find_stat(*c, r.stat_index)));
        matrix.row(line);
    }
    o << matrix.str();
    o << m.statistics - static_cast<int>(m.rows.size())
      << " other statistics had no suspect value in any configuration.\n\n";
}

// Expected failures (resolution).
void render_resolution(std::ostream& o, const ComparisonAnalysis& a)
{
    o << "### Expected failures (resolution)\n\n";
    for (const auto& r : a.resolution) {
        const ConfigurationSummary& c = *r.configuration;
        o << "**" << c.id << "** " << code(c.family) << " has " << c.resolution_bits
          << " bits of resolution: bits " << c.resolution_bits + 1 << "-32 of U are constant, and "
          << r.beyond.size() << " of its " << c.stats.size()
          << " statistics read some of them. Their suspect values (" << c.resolution_suspect
          << " of " << c.resolution_pvalues
          << " p-values) describe the resolution, not the recurrence, and are not counted as "
             "defects; the verdict rests on the other "
          << c.testable_statistics
          << ". \"(all)\" marks tests that use U as a real number "
             "(comparisons, sums, distances) and so read every bit.\n\n";
        if (!r.flagged.empty()) {
            Table t({ "#", "Test", "Statistic", "Bits read", "TestU01 call", "Suspect seeds" },
                "rrllll");
            for (const auto* s : r.flagged)
                t.row({ std::to_string(s->stat_index), std::to_string(s->test_number),
                    md(s->test_name), s->bits(), code(s->bits_call), counts(*s) });
            o << t.str();
        }
        if (r.flagged.size() < r.beyond.size()) {
            o << (r.flagged.empty() ? "All of them" : "The others")
              << " passed (statistic number, bits read):";
            const char* sep = " ";
            for (const auto* s : r.beyond)
                if (s->cls != StatisticClass::resolution) {
                    o << sep << "#" << s->stat_index << " " << s->bits();
                    sep = ", ";
                }
            o << ".\n\n";
        }
    }
    if (a.resolution.empty())
        o << "No statistic in this comparison reads bits beyond its generator's resolution.\n\n";
}

void render_second_level(std::ostream& o, const ComparisonAnalysis& a)
{
    o << "### Second-level tests\n\n";
    o << "For every statistic run on at least 3 seeds, the uniformity of its p-values is tested "
         "with the Anderson-Darling (A2) and Kolmogorov-Smirnov (D) statistics, computed by "
         "TestU01 (gofs_AndersonDarling, gofs_KS; p-values from fbar_AndersonDarling, fbar_KS1). "
         "A rejection counts when the Anderson-Darling p-value, multiplied by the number of "
         "statistics examined, is below "
      << decision_level
      << ". Statistics with discrete p-values (Poisson counts such as BirthdaySpacings and the "
         "collision tests, or ties among the seeds) are reported but do not decide a verdict: "
         "their p-values are not uniform even for a perfect generator.\n\n";
    Table second(
        { "", "#", "Statistic", "Seeds", "A2", "AD p", "D", "KS p", "Result" }, "lrlrrrrrl");
    for (const auto& l : a.second_level) {
        const ConfigurationSummary& c = *l.configuration;
        o << "- **" << c.id << "**: " << l.tested << " statistics tested, " << l.rejected
          << " reject uniformity (chance alone: about "
          << printf_string("%.3f", decision_level * static_cast<double>(l.tested) / l.examined)
          << " at the corrected level)";
        if (l.excused > 0)
            o << ", and " << l.excused << " more among discrete or beyond-resolution statistics";
        o << ".\n";
        for (const auto& row : l.shown) {
            const StatisticSummary* s = row.statistic;
            std::string result = row.rejects ? "rejects" : "uniform";
            if (row.rejects && s->beyond_resolution)
                result += " (beyond resolution)";
            else if (row.rejects && s->discrete)
                result += " (discrete: indicative)";
            second.row({ c.id, std::to_string(s->stat_index), md(s->label()),
                std::to_string(s->uniformity->n), printf_string("%.3g", s->uniformity->ad),
                format_pvalue(s->uniformity->ad_p), printf_string("%.3f", s->uniformity->ks),
                format_pvalue(s->uniformity->ks_p), result });
        }
    }
    if (!a.second_level.empty()) {
        o << "\nThe smallest Anderson-Darling p-values of each configuration (at least three, "
             "and all below 0.01, up to "
          << max_second_level_rows << "):\n\n"
          << second.str();
        if (a.second_level_left_out > 0)
            o << a.second_level_left_out
              << " further statistics were tested and are not listed.\n\n";
    } else {
        o << "No statistic has been run on 3 or more seeds yet.\n\n";
    }
}

// Histograms of the suspect statistics, or a sentence saying there is none.
void render_histograms(std::ostream& o, const ComparisonAnalysis& a, const std::string& plot_prefix,
    std::vector<ReportFile>& files)
{
    o << "### p-value histograms\n\n";
    if (a.picks.empty()) {
        o << "No statistic run on 2 or more seeds was suspect or non-uniform: there is nothing "
             "suspect to plot.\n\n";
        return;
    }
    if (plot_prefix.empty()) {
        o << a.picks.size() << (a.picks.size() == 1 ? " statistic" : " statistics")
          << " that did not pass, run on 2 or more seeds, would be plotted here; a report "
             "written with --out draws their histograms beside it.\n\n";
        return;
    }
    o << "p-values of the suspect statistics over their seeds (10 bins on [0, 1]; dashed: the "
         "count per bin of a uniform sample)";
    if (a.picks.size() > max_histograms)
        o << "; the " << max_histograms << " most severe of " << a.picks.size() << " are shown";
    o << ".\n\n";
    for (std::size_t i = 0; i < a.picks.size() && i < max_histograms; ++i) {
        const ConfigurationSummary& c = *a.picks[i].configuration;
        const StatisticSummary& s = *a.picks[i].statistic;
        Histogram h;
        h.title = c.id + " #" + std::to_string(s.stat_index) + " " + s.test_name + ": "
            + std::to_string(s.pvalues.size()) + " seeds";
        h.values = s.pvalues;
        const std::string name = plot_prefix + "-hist-" + std::to_string(i + 1) + ".svg";
        files.push_back({ name, histogram_svg(h) });
        o << "![" << md(c.id + " " + s.label()) << "](" << link(name) << ")\n";
    }
    o << "\n";
}

// The p-values of the configurations that pass (verdict sound or resolution), within their
// resolution, pooled over statistics and seeds: counts in 10 bins, and a histogram each.
void render_passing_histograms(std::ostream& o, const Comparison& comparison,
    const std::string& plot_prefix, std::vector<ReportFile>& files)
{
    constexpr int bins = 10;
    std::vector<const ConfigurationSummary*> passing;
    for (const auto& c : comparison.configurations)
        if (c.verdict == Verdict::sound || c.verdict == Verdict::resolution) passing.push_back(&c);
    o << "### p-values of the passing configurations\n\n";
    if (passing.empty()) {
        o << "No configuration passed: every one is defective or suspect.\n\n";
        return;
    }
    o << "All p-values of each passing configuration within its resolution, over every statistic "
         "and seed, counted in "
      << bins
      << " bins on [0, 1]. For a sound generator each bin expects a tenth of them (the last "
         "column); a bin far from it, or a slope across the bins, is worth a look even where no "
         "single p-value is suspect. Statistics with discrete p-values (BirthdaySpacings, the "
         "collision tests) crowd some bins by themselves.\n\n";
    std::vector<std::string> header = { "", "p-values" };
    std::string align = "lr";
    for (int b = 0; b < bins; ++b) {
        header.push_back(printf_string("%.1f", b / static_cast<double>(bins)) + "-"
            + printf_string("%.1f", (b + 1) / static_cast<double>(bins)));
        align += 'r';
    }
    header.push_back("Expected per bin");
    align += 'r';
    Table table(header, align);
    std::string images;
    std::size_t drawn = 0;
    for (const auto* c : passing) {
        std::vector<double> values;
        for (const auto& s : c->stats)
            if (!s.beyond_resolution)
                values.insert(values.end(), s.pvalues.begin(), s.pvalues.end());
        const std::vector<int> counts = histogram_counts(values, bins);
        std::vector<std::string> row = { c->id, std::to_string(values.size()) };
        for (int n : counts)
            row.push_back(std::to_string(n));
        row.push_back(printf_string("%.1f", static_cast<double>(values.size()) / bins));
        table.row(row);
        if (plot_prefix.empty() || drawn >= max_histograms || values.empty()) continue;
        Histogram h;
        h.title = c->id + " " + (c->label.empty() ? c->family : c->label) + ": "
            + std::to_string(values.size()) + " p-values";
        h.values = values;
        h.bins = bins;
        h.y_label = "p-values";
        const std::string name = plot_prefix + "-pass-" + std::to_string(++drawn) + ".svg";
        files.push_back({ name, histogram_svg(h) });
        images += "![" + md(c->id + " " + battery_title(c->battery) + ", all p-values") + "]("
            + link(name) + ")\n";
    }
    o << table.str();
    if (!images.empty()) {
        if (drawn < passing.size())
            o << "Histograms of the first " << drawn << " of " << passing.size()
              << " passing configurations:\n\n";
        o << images << "\n";
    }
}

} // namespace

std::string render_comparison(
    const Comparison& comparison, const std::string& plot_prefix, std::vector<ReportFile>& files)
{
    std::ostringstream o;
    o << "## Comparison across seeds\n\n";
    if (comparison.configurations.empty()) {
        o << "No run has statistics yet.\n\n";
        return o.str();
    }
    const ComparisonAnalysis a = analyse_comparison(comparison);
    render_introduction(o);
    render_configurations(o, comparison);
    o << render_mcpi_beside_smallcrush(comparison, false);
    render_chance(o, comparison, a);
    for (const auto& m : a.matrices)
        render_matrix(o, m, plot_prefix, files);
    render_resolution(o, a);
    render_second_level(o, a);
    render_histograms(o, a, plot_prefix, files);
    render_passing_histograms(o, comparison, plot_prefix, files);
    return o.str();
}

} // namespace rngvet
