#include "conclusion.hpp"

#include "batteries/catalogue.hpp"
#include "batteries/registry.hpp"
#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "generators/ranmar.hpp"
#include "generators/registry.hpp"
#include "generators/view.hpp"
#include "markdown.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>
#include <sstream>

namespace rngvet {
namespace {

using markdown::code;
using markdown::printf_string;

// The rung of a battery on TestU01's ladder: 1 SmallCrush, 2 Crush, 3 BigCrush; 0 for the
// others (mcpi, ising, Rabbit, Alphabit), which screen as SmallCrush does.
int rung(const std::string& battery)
{
    const std::string f = battery_family(battery);
    if (f == "smallcrush") return 1;
    if (f == "crush") return 2;
    if (f == "bigcrush") return 3;
    return 0;
}

// Seeds a battery's verdict should rest on before the next step: its cost decides.
int seed_target(const std::string& battery)
{
    return rung(battery) >= 2 ? 3 : 10;
}

std::string plural(long n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// A word for a POSIX shell: unchanged when it holds only safe characters, else in single
// quotes.
std::string shell_word(const std::string& w)
{
    const bool safe = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || std::string("-_.,:/=+@%^").find(c) != std::string::npos;
    });
    if (safe) return w;
    std::string out = "'";
    for (char c : w)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The option text of a view in a canonical name (";view=low32"), "top32" when it has none.
std::string view_name(const std::string& config)
{
    const auto at = config.find(";view=");
    if (at == std::string::npos) return "top32";
    const std::string rest = config.substr(at + 6);
    return rest.substr(0, rest.find(';'));
}

std::string without_view(const std::string& config)
{
    const auto at = config.find(";view=");
    if (at == std::string::npos) return config;
    const auto end = config.find(';', at + 1);
    return config.substr(0, at) + (end == std::string::npos ? "" : config.substr(end));
}

// The instance count of a canonical name (its second '/' field); 1 for external streams.
int instances_of(const std::string& config)
{
    const std::string head = config.substr(0, config.find(';'));
    const auto a = head.find('/');
    if (a == std::string::npos) return 1;
    const auto b = head.find('/', a + 1);
    try {
        return std::stoi(head.substr(a + 1, b - a - 1));
    } catch (const std::exception&) {
        return 1;
    }
}

// The battery's words for `rngvet run`: "--battery rabbit --nb 1048576" for
// "rabbit(nb=1048576)".
std::string battery_arguments(const std::string& battery)
{
    const std::string family = battery_family(battery);
    std::string out = "--battery " + shell_word(family);
    const auto open = battery.find('(');
    if (open == std::string::npos || battery.back() != ')') return out;
    const BatteryFamily* row = nullptr;
    try {
        row = find_battery_family(family);
    } catch (const InputError&) {
        return out;
    }
    std::istringstream parameters(battery.substr(open + 1, battery.size() - open - 2));
    for (std::string kv; std::getline(parameters, kv, ',');) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || !row) continue;
        for (const BatteryOption& o : row->options)
            if (kv.substr(0, eq) == o.key)
                out += std::string(" --") + o.option + " " + shell_word(kv.substr(eq + 1));
    }
    return out;
}

// The family's first run that records its options (else its first run): its seed starts the
// next step, as a battery's first seeds do.
const RunRecord* first_run(const std::vector<RunRecord>& runs, const std::string& family)
{
    const RunRecord* first = nullptr;
    for (const RunRecord& r : runs)
        if (configuration_family(r.config) == family && (!first || first->options.empty())) {
            if (first && r.options.empty()) continue;
            first = &r;
        }
    return first;
}

std::string start_check_sentence(const StartCheckRecord& s)
{
    const double bits = static_cast<double>(s.bits) * s.steps * s.pairs;
    return "neighbouring instances agree on " + printf_string("%.5f", s.agreement) + " of "
        + printf_string("%.0f", bits) + " bits (" + std::to_string(s.bits) + " bits x "
        + std::to_string(s.steps) + " numbers x " + std::to_string(s.pairs)
        + " pairs), z = " + printf_string("%.2f", s.z) + ", p = " + format_pvalue(s.p)
        + "; most extreme pair p x pairs = " + format_pvalue(s.worst_p);
}

// The stored start check of the family: the latest of the same configuration name, else of
// the same name without its view (the check compares the generator's own bits).
const StartCheckRecord* start_check_of(
    const std::vector<StartCheckRecord>& checks, const std::string& family)
{
    const StartCheckRecord* found = nullptr;
    for (const auto& c : checks)
        if (configuration_family(c.config) == family) found = &c;
    if (found) return found;
    for (const auto& c : checks)
        if (without_view(configuration_family(c.config)) == without_view(family)) found = &c;
    return found;
}

} // namespace

std::string bits_read_text(const std::string& generator, const std::string& config)
{
    int b = 0;
    bool external = false;
    try {
        const GeneratorName g = parse_generator(generator);
        b = traits(g).bits;
        external = family_traits(g).reads_words;
    } catch (const InputError&) {
        return "";
    }
    const std::string view = view_name(config);
    const std::string of = "the generator's " + std::to_string(b) + " bits";
    const std::string tag = " (view " + view + ")";
    if (external) return "the 32-bit words of the input as they came" + tag;
    // Bits 0: the generator's library says (a plugin's), which a report does not load.
    if (b == 0)
        return "32-bit words of the generator's outputs (32 or 64 bits, as its library says)" + tag;
    if (view == "top32") {
        if (b == 32) return "all 32 bits of each output" + tag;
        if (b > 32)
            return "the top 32 of " + of + tag + ": bits 33-" + std::to_string(b) + " (the low "
                + std::to_string(b - 32) + ") were never read";
        return of + ", placed at the top of 32-bit words whose low " + std::to_string(32 - b)
            + " bits are constant" + tag + ": statistics reading beyond bit " + std::to_string(b)
            + " fail as expected";
    }
    if (view == "low32") {
        if (b == 32) return "all 32 bits of each output" + tag;
        if (b > 32)
            return "the low 32 of " + of + tag + ": the top " + std::to_string(b - 32)
                + " bits were never read";
        return of + " with " + std::to_string(32 - b) + " constant high bits in each word" + tag;
    }
    if (view == "reversed")
        return "the top 32 of " + of + " with their order reversed, the least significant first"
            + tag;
    if (view == "packed")
        return "every one of " + of + ", concatenated into 32-bit words" + tag
            + ": no bit unread and none constant";
    if (view == "sdk-float")
        return "the NVIDIA SDK's single-precision float of each top-32 word" + tag
            + ", 24 bits of resolution";
    if (view == "box-muller")
        return "uniforms made back from the NVIDIA SDK's Box-Muller normals of the top-32 words"
            + tag + ", about 24 bits of resolution";
    return "the words of " + of + tag;
}

std::string configuration_arguments(const std::string& options, const std::string& seed_word)
{
    std::vector<std::string> words;
    std::istringstream in(options);
    for (std::string w; std::getline(in, w);)
        words.push_back(w);
    // Options at their defaults say nothing: left out.
    static const std::set<std::pair<std::string, std::string>> defaults = { { "--instances", "1" },
        { "--seeding", "increment" }, { "--zero", "keep" }, { "--skip", "0" },
        { "--backend", "cpu" }, { "--param-id", "0" }, { "--view", "top32" } };
    std::string out;
    for (std::size_t i = 0; i < words.size();) {
        const std::string option = words[i];
        const bool has_value = i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0;
        const std::string value = has_value ? words[i + 1] : "";
        i += has_value ? 2 : 1;
        if (defaults.count({ option, value })) continue;
        out += (out.empty() ? "" : " ") + option;
        if (has_value)
            out += " " + (option == "--seed" && !seed_word.empty() ? seed_word : shell_word(value));
    }
    return out;
}

std::vector<std::string> further_seeds(
    const std::string& generator, const std::vector<std::string>& used, int count)
{
    std::vector<std::string> out;
    GeneratorName g;
    try {
        g = parse_generator(generator);
    } catch (const InputError&) {
        return out;
    }
    const GeneratorFamily family = traits(g).family;
    if (!family_traits(family).series || used.empty() || count < 1) return out;
    const std::set<std::string> taken(used.begin(), used.end());
    if (family == families::ranmar) {
        std::vector<std::int64_t> first = default_first_seed(family);
        int ij = 0, kl = 0;
        if (std::sscanf(used.front().c_str(), "%d,%d", &ij, &kl) == 2 && ij >= 0
            && ij <= ranmar_ij_max && kl >= 0 && kl <= ranmar_kl_max)
            first = { ij, kl };
        for (long k = 1; static_cast<int>(out.size()) < count && k < 100000; ++k) {
            const std::string s = seed_string(series_seed(family, first, k));
            if (!taken.count(s)) out.push_back(s);
        }
        return out;
    }
    // Single-number seeds count up from the largest; key arrays ("1,2,3") start from 1.
    std::int64_t largest = 0;
    for (const std::string& s : used)
        if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos && s.size() < 11)
            largest = std::max<std::int64_t>(largest, std::stoll(s));
    if (largest >= 0xFFFFFFFFll - count) largest = 0;
    for (std::int64_t k = 1; static_cast<int>(out.size()) < count; ++k) {
        const std::string s = seed_string(series_seed(family, { largest }, k));
        if (!taken.count(s)) out.push_back(s);
    }
    return out;
}

void label_configurations(Comparison& comparison, const std::map<std::int64_t, std::string>& labels)
{
    for (ConfigurationSummary& c : comparison.configurations) {
        std::set<std::string> names;
        for (std::int64_t id : c.run_ids) {
            const auto it = labels.find(id);
            names.insert(it == labels.end() ? "" : it->second);
        }
        c.label = names.size() == 1 ? *names.begin() : "";
    }
}

std::vector<FamilyConclusion> conclude(const Comparison& comparison,
    const std::vector<RunRecord>& runs, const std::vector<StartCheckRecord>& start_checks,
    const std::string& db_label)
{
    std::vector<FamilyConclusion> out;
    for (const ConfigurationSummary& c : comparison.configurations) {
        auto it = std::find_if(out.begin(), out.end(),
            [&](const FamilyConclusion& f) { return f.family == c.family; });
        if (it == out.end()) {
            out.push_back({});
            out.back().family = c.family;
            it = out.end() - 1;
        }
        it->batteries.push_back(&c);
        if (it->label.empty()) it->label = c.label;
    }
    std::set<std::string> families;
    for (const auto& f : out)
        families.insert(f.family);
    const std::string db = shell_word(db_label);

    for (FamilyConclusion& f : out) {
        // The battery the conclusion rests on: a defective one (most seeds), else the highest
        // rung run (most seeds).
        const ConfigurationSummary* top = nullptr;
        for (const auto* c : f.batteries) {
            const bool defective = c->verdict == Verdict::defective;
            if (!top) {
                top = c;
                continue;
            }
            const bool top_defective = top->verdict == Verdict::defective;
            if (defective != top_defective) {
                if (defective) top = c;
                continue;
            }
            if (!defective && rung(c->battery) != rung(top->battery)) {
                if (rung(c->battery) > rung(top->battery)) top = c;
                continue;
            }
            if (c->seeds.size() > top->seeds.size()) top = c;
        }
        f.defective = top->verdict == Verdict::defective;
        f.seeds = static_cast<int>(top->seeds.size());
        // A defect rests on the seeds its statistics were run on, which may be fewer than the
        // configuration's (a run that did not complete).
        int defect_seeds = 0;
        if (f.defective) {
            for (const auto& st : top->stats)
                if (st.cls == StatisticClass::systematic || st.cls == StatisticClass::some_seeds)
                    defect_seeds = std::max(defect_seeds, static_cast<int>(st.pvalues.size()));
            f.seeds = std::max(1, defect_seeds);
        }
        const RunRecord* run = first_run(runs, f.family);
        const std::string generator = run ? run->generator : top->generator;
        bool external = false;
        int native_bits = 0;
        try {
            const GeneratorName g = parse_generator(generator);
            external = family_traits(g).reads_words;
            native_bits = traits(g).bits;
        } catch (const InputError&) {
        }
        const std::string view = view_name(f.family);
        const std::string title = battery_title(top->battery);

        std::ostringstream t;
        t << "- "
          << (f.label.empty() ? "**" + code(f.family) + "**"
                              : "**" + markdown::cell(f.label) + "** " + code(f.family))
          << ": ";
        for (std::size_t i = 0; i < f.batteries.size(); ++i) {
            const auto* c = f.batteries[i];
            t << (i ? "; " : "") << battery_title(c->battery) << " (" << c->id << ") on "
              << plural(static_cast<long>(c->seeds.size()), "seed", "seeds") << ": "
              << to_string(c->verdict);
        }
        t << ". ";

        // What the batteries can and cannot certify.
        const int n = f.seeds;
        if (f.defective) {
            t << "Defect shown by " << title << ": " << markdown::cell(top->verdict_line) << ". ";
            if (n == 1)
                t << "It rests on one seed, one observation: more seeds tell whether it is "
                     "systematic. ";
            else
                t << "Its statistics were run on " << n
                  << " seeds; a defect seen on several seeds is not undone by batteries that "
                     "pass. ";
        } else if (top->verdict == Verdict::suspect) {
            t << "No statistic fails more often than chance allows, but "
              << markdown::cell(top->verdict_line)
              << ": more seeds decide whether that is a defect. ";
        } else {
            const std::string within
                = top->verdict == Verdict::resolution ? " within its resolution" : "";
            if (rung(top->battery) <= 1)
                t << title << " (" << top->stats.size() << " statistics) found no defect" << within
                  << ", but it cannot certify a "
                  << "configuration that passes it: it finds only defects large enough for "
                     "its few, short tests. ";
            else if (rung(top->battery) == 2)
                t << "Crush found no defect" << within
                  << "; it cannot certify either: BigCrush reads far longer streams. ";
            else if (n == 1)
                t << "BigCrush found no defect" << within
                  << " on one seed: a BigCrush pass on one seed is one observation, not a "
                     "certificate. ";
            else
                t << "BigCrush found no defect" << within << " on " << n
                  << " seeds: the strongest evidence these batteries give, and still evidence, "
                     "not proof. ";
        }
        // Which bits TestU01 read.
        const std::string bits = bits_read_text(generator, f.family);
        const bool unread_bits = !external && native_bits > 32
            && (view == "top32" || view == "low32" || view == "reversed");
        const bool packed_run = families.count(without_view(f.family) + ";view=packed") > 0;
        if (!bits.empty()) {
            // rngvet's own batteries (mcpi, ising) read the same words through TestU01's
            // generator interface.
            const BatteryFamily* own = nullptr;
            try {
                own = find_battery_family(battery_family(top->battery));
            } catch (const InputError&) {
            }
            t << (own && own->own ? battery_title(battery_family(top->battery)) : "TestU01")
              << " read " << bits << ".";
            if (unread_bits && !packed_run) t << " `--view packed` reads every bit.";
            t << " ";
        }
        // How many seeds.
        if (external)
            t << "The stream came from outside: there is no seed to vary, so the result is one "
                 "observation of this input. ";
        else if (n == 1)
            t << "One seed: run more seeds before trusting a pass or a failure. ";
        else if (n == 2)
            t << "2 seeds: too few for the second-level uniformity tests, which need 3. ";
        else
            t << n
              << " seeds: each statistic's p-values over them were also tested for "
                 "uniformity. ";
        // The start check.
        const int instances = instances_of(f.family);
        const std::string arguments = run ? configuration_arguments(run->options) : "";
        if (instances > 1) {
            if (const StartCheckRecord* s = start_check_of(start_checks, f.family)) {
                t << "Start check (rngvet validate, " << code(s->config)
                  << "): " << start_check_sentence(*s) << ": "
                  << (s->passed ? "passes" : "**fails**") << ". ";
            } else if (!arguments.empty()) {
                t << "No start check of its " << instances << " instances is stored: "
                  << code("rngvet validate " + arguments + " --db " + db) << " adds it. ";
            } else {
                t << "No start check of its " << instances << " instances is stored. ";
            }
        }
        // What to run next.
        std::string next_battery, why;
        int extra = 0;
        if (f.defective) {
            if (n < 3) extra = 3 - n;
        } else if (top->verdict == Verdict::suspect) {
            extra = std::max(seed_target(top->battery) - n, n);
        } else if (rung(top->battery) == 0) {
            next_battery = "smallcrush";
        } else if (rung(top->battery) == 1) {
            next_battery = "crush";
        } else if (rung(top->battery) == 2) {
            next_battery = "bigcrush";
        } else if (n < 3) {
            extra = 3 - n;
        }
        if (!run || arguments.empty()) {
            if (!next_battery.empty() || extra > 0)
                t << "Its runs do not record their configuration's options, so no command can "
                     "be given for the next step.";
        } else if (!next_battery.empty()) {
            f.next_command
                = "rngvet run " + arguments + " --battery " + next_battery + " --db " + db;
            t << "Next, the battery above: " << code(f.next_command) << ".";
        } else if (extra > 0 && !external) {
            const std::vector<std::string> seeds = further_seeds(generator, top->seeds, extra);
            std::string list;
            for (const auto& s : seeds)
                list += (list.empty() ? "" : " ") + s;
            std::string tests;
            for (const RunRecord& r : runs)
                if (configuration_family(r.config) == f.family && r.battery == top->battery)
                    tests = tests.empty() || tests == r.tests_selected ? r.tests_selected : "*";
            f.next_command = "for seed in " + list + "; do rngvet run "
                + configuration_arguments(run->options, "\"$seed\"") + " "
                + battery_arguments(top->battery)
                + (tests.empty() || tests == "*" ? "" : " --tests " + tests) + " --db " + db
                + "; done";
            t << "Next, " << plural(extra, "more seed", "more seeds") << " of " << title << ": "
              << code(f.next_command) << ".";
        } else if (unread_bits && !packed_run && !f.defective) {
            std::string arguments_packed = arguments;
            const auto at = arguments_packed.find("--view ");
            if (at != std::string::npos)
                arguments_packed = arguments_packed.substr(0, at)
                    + arguments_packed.substr(
                        std::min(arguments_packed.size(), arguments_packed.find(' ', at + 7) + 1));
            while (!arguments_packed.empty() && arguments_packed.back() == ' ')
                arguments_packed.pop_back();
            f.next_command = "rngvet run " + arguments_packed
                + " --view packed --battery smallcrush --db " + db;
            t << "Next, the bits not yet read: " << code(f.next_command) << ".";
        } else if (f.defective) {
            t << "Nothing more is needed to show the defect.";
        } else {
            t << "The batteries have nothing stronger to add.";
        }
        f.text = t.str();
        while (!f.text.empty() && f.text.back() == ' ')
            f.text.pop_back();
    }
    return out;
}

std::string render_conclusion(const Comparison& comparison, const std::vector<RunRecord>& runs,
    const std::vector<StartCheckRecord>& start_checks, const std::string& db_label)
{
    std::ostringstream o;
    o << "## What to conclude\n\n";
    const std::vector<FamilyConclusion> families
        = conclude(comparison, runs, start_checks, db_label);
    if (families.empty()) {
        o << "No run has statistics yet: there is nothing to conclude.\n\n";
        return o.str();
    }
    int defective = 0, one_seed = 0;
    for (const auto& f : families) {
        defective += f.defective;
        one_seed += f.seeds == 1;
    }
    o << "A battery can show that a configuration is defective; it cannot prove one sound. Of "
      << plural(static_cast<long>(families.size()), "configuration", "configurations")
      << " in this database, " << defective << " show" << (defective == 1 ? "s" : "")
      << " a defect and " << families.size() - static_cast<std::size_t>(defective)
      << " passed the strongest battery run on them";
    if (one_seed > 0)
        o << "; " << one_seed << " of the verdicts rest" << (one_seed == 1 ? "s" : "")
          << " on a single seed";
    o << ". For each configuration: what was run (C1, C2, ... number a configuration with its "
         "battery, as in the comparison where the report has one), what it shows, which bits "
         "TestU01 read, and what to run next.\n\n";
    for (const auto& f : families)
        o << f.text << "\n";
    o << "\n";
    return o.str();
}

std::string render_start_checks(const std::vector<StartCheckRecord>& start_checks)
{
    if (start_checks.empty()) return "";
    std::ostringstream o;
    o << "## Start checks\n\n"
      << "Stored by `rngvet validate --db`: for neighbouring instances (i, i+1), the share of "
         "their bits that agree over the first numbers of their streams, against 1/2 for "
         "independent streams (docs/reports.md, \"The start of the streams\"). It fails when "
         "the p-value or the most extreme pair's p-value times the number of pairs is below "
         "0.001.\n\n";
    markdown::Table table({ "Configuration", "Checked (UTC)", "Bits compared", "Agreement", "z",
                              "p", "Most extreme pair", "Verdict" },
        "llrrrrll");
    for (const auto& s : start_checks)
        table.row({ code(s.config), markdown::cell(s.checked_at),
            std::to_string(s.bits) + " x " + std::to_string(s.steps) + " x "
                + std::to_string(s.pairs),
            printf_string("%.5f", s.agreement), printf_string("%.2f", s.z), format_pvalue(s.p),
            std::to_string(s.worst_pair) + "," + std::to_string(s.worst_pair + 1) + ": "
                + printf_string("%.5f", s.worst_agreement)
                + ", p x pairs = " + format_pvalue(s.worst_p),
            s.passed ? "passes" : "**fails**" });
    o << table.str();
    return o.str();
}

} // namespace rngvet
