#include "comparison_analysis.hpp"

#include "verdict.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace rngvet {

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
            return std::min(1.0, l.examined * s->uniformity->ad_p) < comparison_decision_level;
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
            if (!notable || l.shown.size() >= comparison_second_level_rows)
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

} // namespace rngvet
