#include "compare.hpp"

#include "batteries/registry.hpp"
#include "markdown.hpp"
#include "svg.hpp"
#include "verdict.hpp"

#include <algorithm>
#include <sstream>

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

constexpr std::size_t max_histograms = 10;

std::string duration(double seconds)
{
    if (seconds < 120) return printf_string("%.1f s", seconds);
    if (seconds < 7200) return printf_string("%.1f min", seconds / 60);
    return printf_string("%.1f h", seconds / 3600);
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
    std::string text = s->counts() + " (" + format_pvalue(s->extreme) + ")";
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

namespace {

void render_introduction(std::ostream& o)
{
    o << "A configuration is a run's configuration name with its seed replaced by `*`, together "
         "with the battery; each seed counts once. A p-value is *suspect* outside "
      << suspect_interval() << " (probability " << suspect_probability
      << " for a sound generator) and a *clear failure* outside " << failure_interval()
      << ". A statistic fails *systematically* when its suspect values are more "
         "frequent than chance allows (binomial tail, or any clear failure) at level "
      << comparison_decision_level
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
      << a.suspect << " were observed (P(X >= " << a.suspect
      << ") = " << format_probability(a.chance_tail) << " for X ~ Binomial(" << a.pvalues << ", "
      << suspect_probability << "))";
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
            printf_string("%.2f", c.expected_suspect), format_probability(c.chance_tail),
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
                cell.tooltip = c->id + ", " + s->label() + ": " + s->counts()
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
                    md(s->test_name), s->bits(), code(s->bits_call), s->counts() });
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
      << comparison_decision_level
      << ". Statistics with discrete p-values (Poisson counts such as BirthdaySpacings and the "
         "collision tests, or ties among the seeds) are reported but do not decide a verdict: "
         "their p-values are not uniform even for a perfect generator.\n\n";
    Table second(
        { "", "#", "Statistic", "Seeds", "A2", "AD p", "D", "KS p", "Result" }, "lrlrrrrrl");
    for (const auto& l : a.second_level) {
        const ConfigurationSummary& c = *l.configuration;
        o << "- **" << c.id << "**: " << l.tested << " statistics tested, " << l.rejected
          << " reject uniformity (chance alone: about "
          << printf_string(
                 "%.3f", comparison_decision_level * static_cast<double>(l.tested) / l.examined)
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
          << comparison_second_level_rows << "):\n\n"
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