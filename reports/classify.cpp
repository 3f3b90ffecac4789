#include "classify.hpp"

#include "batteries/bits_read.hpp"
#include "batteries/registry.hpp"
#include "generators/configuration.hpp"
#include "markdown.hpp"
#include "verdict.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace rngvet {

namespace {

using markdown::printf_string;

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
    const bool second_rejects = s.uniformity && !s.discrete
        && std::min(1.0, m * s.uniformity->ad_p) < comparison_decision_level;
    const bool count_rejects
        = s.failures > 0 || std::min(1.0, m * s.chance_tail) < comparison_decision_level;
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
            line << (i ? "; " : "") << "fails " << s->label() << " on " << s->counts()
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
    } else if (c.chance_tail < comparison_decision_level) {
        c.verdict = Verdict::suspect;
        line << chance_line << " where " << printf_string("%.2f", c.expected_suspect)
             << " are expected (P = " << format_probability(c.chance_tail) << "): more than chance";
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

// Each class and verdict with the report's words and the machine reports' key, least severe
// first: a row's position is its severity.
template <class Value> struct EnumWords {
    Value value;
    const char* text;
    const char* key;
};
constexpr EnumWords<StatisticClass> class_words[] = {
    { StatisticClass::pass, "pass", "pass" },
    { StatisticClass::chance, "consistent with chance", "chance" },
    { StatisticClass::resolution, "expected (resolution)", "resolution" },
    { StatisticClass::nonuniform, "p-values not uniform", "nonuniform" },
    { StatisticClass::some_seeds, "seed-dependent", "some_seeds" },
    { StatisticClass::systematic, "systematic", "systematic" },
};

constexpr EnumWords<Verdict> verdict_words[] = {
    { Verdict::sound, "sound", "sound" },
    { Verdict::resolution, "sound within its resolution", "resolution" },
    { Verdict::suspect, "suspect", "suspect" },
    { Verdict::defective, "defective", "defective" },
};

// The row of `value` and its position; nullptr and 0 for a value that is none of the rows.
template <class Row, std::size_t N, class Value>
const Row* row_of(const Row (&rows)[N], Value value, int* position = nullptr)
{
    for (std::size_t i = 0; i < N; ++i) {
        if (rows[i].value == value) {
            if (position) *position = static_cast<int>(i);
            return &rows[i];
        }
    }
    if (position) *position = 0;
    return nullptr;
}

} // namespace

int severity(StatisticClass c)
{
    int position = 0;
    row_of(class_words, c, &position);
    return position;
}

int severity(Verdict v)
{
    int position = 0;
    row_of(verdict_words, v, &position);
    return position;
}

std::string configuration_family(const std::string& config)
{
    return seed_family(config);
}

const char* to_string(StatisticClass c)
{
    const auto* row = row_of(class_words, c);
    return row ? row->text : "?";
}

const char* to_string(Verdict v)
{
    const auto* row = row_of(verdict_words, v);
    return row ? row->text : "?";
}

const char* to_key(StatisticClass c)
{
    const auto* row = row_of(class_words, c);
    return row ? row->key : "?";
}

const char* to_key(Verdict v)
{
    const auto* row = row_of(verdict_words, v);
    return row ? row->key : "?";
}

std::string StatisticSummary::label() const
{
    return test_name + " (test " + std::to_string(test_number) + ")";
}

std::string StatisticSummary::counts() const
{
    return std::to_string(suspect) + "/" + std::to_string(pvalues.size());
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
            // Uniformity over the seeds asks for p-values; a test TestU01 stopped has none.
            if (s.pvalues.size() >= 3
                && std::none_of(s.pvalues.begin(), s.pvalues.end(), is_not_done))
                s.uniformity = uniformity_test(s.pvalues);
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

} // namespace rngvet
