// A campaign file's meaning: the [campaign], [configuration NAME] and [slurm] sections read
// (through ini.hpp) into a Campaign and checked, each problem an InputError "FILE:LINE: ...".
// The [configuration] keys become a ConfigurationText that resolve_configuration_here checks as
// rngvet run checks its options.
#include "batteries/battery_choice.hpp"
#include "batteries/engine.hpp"
#include "batteries/registry.hpp"
#include "campaign.hpp"
#include "generators/configuration_options.hpp"
#include "generators/error.hpp"
#include "generators/input_file.hpp"
#include "ini.hpp"
#include "kernels/backend.hpp"

#include <cctype>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <utility>

namespace rngvet::campaigns {
namespace {

// Seeds separated by white space; A..B stands for the single-number seeds A to B.
std::vector<std::string> seed_list(const ini::Reader& p, const ini::Entry& e)
{
    std::vector<std::string> out;
    std::set<std::string> seen;
    std::istringstream words(e.value);
    auto add = [&](const std::string& token) {
        std::string canonical;
        try {
            canonical = seed_string(parse_seed(token));
        } catch (const InputError& error) {
            p.fail(e.line, "seed '" + token + "': " + error.what());
        }
        if (!seen.insert(canonical).second)
            p.fail(e.line, "seed " + canonical + " is listed twice");
        out.push_back(canonical);
    };
    for (std::string token; words >> token;) {
        const auto dots = token.find("..");
        if (dots == std::string::npos) {
            add(token);
            continue;
        }
        const ini::Entry low{ e.key, token.substr(0, dots), e.line };
        const ini::Entry high{ e.key, token.substr(dots + 2), e.line };
        const std::int64_t a = p.integer(low, 0, std::int64_t{ 1 } << 62);
        const std::int64_t b = p.integer(high, 0, std::int64_t{ 1 } << 62);
        if (b < a)
            p.fail(e.line,
                "seed range " + token + " ends before it starts (write the smaller seed first)");
        if (b - a >= 100000) p.fail(e.line, "seed range " + token + " has more than 100000 seeds");
        for (std::int64_t s = a; s <= b; ++s)
            add(std::to_string(s));
    }
    return out;
}

// "1,4,7-10": tests of the battery, ascending, each once.
std::vector<int> test_list(
    const ini::Reader& p, const ini::Entry& e, const BatteryCatalogue& battery)
{
    std::set<int> out;
    std::istringstream parts(e.value);
    const int n = static_cast<int>(battery.tests.size());
    for (std::string part; std::getline(parts, part, ',');) {
        part = ini::trim(part);
        const auto dash = part.find('-');
        const ini::Entry a{ e.key, ini::trim(part.substr(0, dash)), e.line };
        const int first = static_cast<int>(p.integer(a, 1, n));
        int last = first;
        if (dash != std::string::npos)
            last = static_cast<int>(
                p.integer({ e.key, ini::trim(part.substr(dash + 1)), e.line }, first, n));
        for (int t = first; t <= last; ++t)
            out.insert(t);
    }
    return { out.begin(), out.end() };
}

bool valid_name(const std::string& name)
{
    if (name.empty() || name.size() > 64) return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
            return false;
    return name[0] != '.' && name[0] != '-';
}

bool slurm_time(const std::string& t)
{
    // minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS
    std::string rest = t;
    const auto dash = t.find('-');
    if (dash != std::string::npos) {
        const std::string days = t.substr(0, dash);
        if (days.empty() || days.find_first_not_of("0123456789") != std::string::npos) return false;
        rest = t.substr(dash + 1);
    }
    std::istringstream parts(rest);
    int fields = 0;
    for (std::string p; std::getline(parts, p, ':');) {
        if (p.empty() || p.find_first_not_of("0123456789") != std::string::npos) return false;
        ++fields;
    }
    return fields >= 1 && fields <= 3 && rest.back() != ':';
}

// Whether something is at `path`; not opened, since opening a pipe blocks (what it is, the
// parameter-set reader checks).
bool is_file(const std::string& path)
{
    struct stat st { };
    return ::stat(path.c_str(), &st) == 0;
}

} // namespace

std::vector<std::string> section_keys(const std::string& kind)
{
    if (kind == "campaign") {
        // The name, the options rngvet run shares (battery_choice.hpp), the seeds and shards.
        std::vector<std::string> keys = { "name" };
        for (const BatteryChoiceOption& row : battery_choice_options())
            keys.push_back(row.name);
        keys.insert(keys.end(), { "seeds", "seed-count", "shards" });
        return keys;
    }
    if (kind == "slurm")
        return { "partition", "account", "qos", "time", "cpus-per-task", "mem", "gres",
            "constraint", "merge-time", "gpu", "gpu-request", "tasks-per-gpu" };
    if (kind != "configuration") return {};
    // The configuration options a campaign file reads (configuration_options.hpp), generator
    // first, then the seeds.
    std::vector<std::string> keys;
    for (const ConfigurationOption& row : configuration_options())
        if (row.places & in_campaign_file) keys.push_back(row.name);
    keys.insert(keys.begin() + 1, { "seeds", "seed-count" });
    return keys;
}

Campaign parse_campaign(
    const std::string& text, const std::string& file_name, const std::string& base_dir)
{
    const ini::Reader p(file_name);
    const std::vector<ini::Section> sections = p.sections(text);
    Campaign c;
    const ini::Section* campaign = nullptr;
    const ini::Section* slurm = nullptr;
    std::vector<const ini::Section*> configurations;
    for (const ini::Section& s : sections) {
        if (s.kind == "campaign" || s.kind == "slurm") {
            if (!s.name.empty()) p.fail(s.line, "[" + s.kind + "] takes no name");
            const ini::Section*& slot = s.kind == "campaign" ? campaign : slurm;
            if (slot)
                p.fail(s.line,
                    "[" + s.kind + "] is given twice (first on line " + std::to_string(slot->line)
                        + ")");
            slot = &s;
        } else if (s.kind == "configuration") {
            if (!valid_name(s.name))
                p.fail(s.line,
                    "[configuration NAME] needs a name of letters, digits, '.', '_' and '-', got '"
                        + s.name + "'");
            for (const ini::Section* earlier : configurations)
                if (earlier->name == s.name)
                    p.fail(s.line,
                        "configuration '" + s.name + "' is defined twice (first on line "
                            + std::to_string(earlier->line) + ")");
            configurations.push_back(&s);
        } else {
            p.fail(s.line,
                "unknown section [" + s.kind
                    + "] (valid: [campaign], [configuration NAME], [slurm])");
        }
    }
    if (!campaign) throw InputError(file_name + ": the [campaign] section is missing");
    if (configurations.empty()) throw InputError(file_name + ": no [configuration NAME] section");

    p.known_keys(*campaign, section_keys("campaign"));
    std::vector<std::string> campaign_seeds;
    std::int64_t campaign_seed_count = 0;
    const ini::Entry* shards = nullptr;
    // The entries of the rows of battery_choice.hpp, by the member they fill.
    std::vector<std::pair<std::string BatteryChoiceText::*, const ini::Entry*>> choice;
    c.battery.clear();
    for (const ini::Entry& e : campaign->entries) {
        if (e.key == "name") {
            if (!valid_name(e.value))
                p.fail(e.line,
                    "the campaign's name has letters, digits, '.', '_' and '-' only, got '"
                        + e.value + "'");
            c.name = e.value;
        } else if (e.key == "seeds") {
            campaign_seeds = seed_list(p, e);
        } else if (e.key == "seed-count") {
            campaign_seed_count = p.integer(e, 1, 100000);
        } else if (e.key == "shards") {
            shards = &e;
        } else if (const BatteryChoiceOption* row = find_battery_choice_option(e.key)) {
            choice.emplace_back(row->field, &e);
            // The battery is read where it stands (the tests and the engine need it).
            if (row->field != &BatteryChoiceText::battery) continue;
            try {
                c.battery = catalogue_for(e.value).name;
            } catch (const InputError& error) {
                p.fail(e.line, error.what());
            }
        }
    }
    const auto entry = [&](std::string BatteryChoiceText::*field) -> const ini::Entry* {
        for (const auto& [member, e] : choice)
            if (member == field) return e;
        return nullptr;
    };
    const ini::Entry* tests = entry(&BatteryChoiceText::tests);
    const ini::Entry* engine = entry(&BatteryChoiceText::engine);
    if (c.name.empty()) p.fail(campaign->line, "[campaign] needs 'name'");
    if (c.battery.empty())
        p.fail(campaign->line, "[campaign] needs 'battery' (" + battery_names() + ")");
    const BatteryCatalogue& battery = catalogue_for(c.battery);
    if (tests) c.tests = test_list(p, *tests, battery);
    if (engine) {
        try {
            const Engine parsed = parse_engine(engine->value);
            check_engine(parsed, battery, c.tests);
            c.engine = to_string(parsed);
        } catch (const InputError& error) {
            p.fail(engine->line, error.what());
        }
    }
    const std::size_t test_count = c.tests.empty() ? battery.tests.size() : c.tests.size();
    if (shards)
        c.shards = static_cast<int>(p.integer(*shards, 1, static_cast<std::int64_t>(test_count)));

    if (slurm) {
        p.known_keys(*slurm, section_keys("slurm"));
        for (const ini::Entry& e : slurm->entries) {
            if (e.value.find_first_of(" \t") != std::string::npos)
                p.fail(e.line,
                    "'" + e.key + "' goes into an #SBATCH line and cannot hold white space");
            if ((e.key == "time" || e.key == "merge-time") && !slurm_time(e.value))
                p.fail(e.line,
                    "'" + e.key + "' is a Slurm time: minutes, HH:MM:SS or D-HH:MM:SS, got '"
                        + e.value + "'");
            if (e.key == "partition")
                c.slurm.partition = e.value;
            else if (e.key == "account")
                c.slurm.account = e.value;
            else if (e.key == "qos")
                c.slurm.qos = e.value;
            else if (e.key == "time")
                c.slurm.time = e.value;
            else if (e.key == "merge-time")
                c.slurm.merge_time = e.value;
            else if (e.key == "mem")
                c.slurm.mem = e.value;
            else if (e.key == "gres")
                c.slurm.gres = e.value;
            else if (e.key == "constraint")
                c.slurm.constraint = e.value;
            else if (e.key == "cpus-per-task")
                c.slurm.cpus_per_task = static_cast<int>(p.integer(e, 1, 4096));
            else if (e.key == "tasks-per-gpu")
                c.slurm.tasks_per_gpu = static_cast<int>(p.integer(e, 1, 1024));
            else if (e.key == "gpu") {
                if (e.value != "auto" && e.value != "yes" && e.value != "no")
                    p.fail(e.line,
                        "'gpu' is auto (tasks of backend cuda ask for a GPU), yes (every task) or "
                        "no, got '"
                            + e.value + "'");
                c.slurm.gpu = e.value;
            } else if (e.key == "gpu-request") {
                try {
                    c.slurm.gpu_request = check_gpu_request(e.value);
                } catch (const InputError& error) {
                    p.fail(e.line, error.what());
                }
            }
        }
    }

    for (const ini::Section* s : configurations) {
        p.known_keys(*s, section_keys("configuration"));
        CampaignConfiguration conf;
        conf.name = s->name;
        ConfigurationKeys& o = conf.keys;
        int seeds_line = 0;
        std::int64_t seed_count = 0;
        for (const ini::Entry& e : s->entries) {
            if (e.key == "seeds") {
                conf.seeds = seed_list(p, e);
                seeds_line = e.line;
            } else if (e.key == "seed-count") {
                seed_count = p.integer(e, 1, 100000);
                if (!seeds_line) seeds_line = e.line;
            } else if (const ConfigurationOption* row
                = find_configuration_option(e.key, in_campaign_file)) {
                if (row->field.word)
                    set_option_word(o, *row, e.value);
                else
                    set_option_number(
                        o, *row, static_cast<std::uint64_t>(p.integer(e, row->min, row->max)));
            }
        }
        // A parameter-set file named relative to the campaign file.
        if (!o.params.empty() && o.params.find('=') == std::string::npos && o.params[0] != '/'
            && !base_dir.empty() && is_file(base_dir + "/" + o.params))
            o.params = base_dir + "/" + o.params;
        if (o.generator.empty())
            p.fail(s->line, "[configuration " + s->name + "] needs 'generator'");
        // A file that the generator loads (a plugin library) named relative to the campaign file;
        // an external stream, refused.
        bool external = false;
        try {
            GeneratorName g = parse_generator(o.generator);
            external = family_traits(g).reads_words;
            if (family_traits(g).loaded_sha256 && !g.path.empty() && g.path[0] != '/'
                && !base_dir.empty() && is_file(base_dir + "/" + g.path)) {
                g.path = base_dir + "/" + g.path;
                o.generator = to_string(g);
            }
        } catch (const InputError&) {
            // refused with its line below
        }
        if (external)
            p.fail(s->line,
                "[configuration " + s->name
                    + "]: a campaign runs its tests sharded, and the external stream '"
                    + o.generator + "' can only run serially");
        if (conf.seeds.empty()) conf.seeds = campaign_seeds;
        if (seed_count == 0) seed_count = campaign_seed_count;
        const int line = seeds_line ? seeds_line : s->line;
        if (seed_count > 0) {
            // seed-count N: the first N seeds of the series from the one seed given (or the
            // generator's default first seed), as rngvet run --seeds N runs them.
            if (conf.seeds.size() > 1)
                p.fail(line,
                    "[configuration " + s->name + "]: seed-count " + std::to_string(seed_count)
                        + " counts on from one first seed, and 'seeds' lists "
                        + std::to_string(conf.seeds.size()));
            try {
                const GeneratorFamily generator_family = family(parse_generator(o.generator));
                const std::vector<std::int64_t> first = conf.seeds.empty()
                    ? default_first_seed(generator_family)
                    : configuration_of(o, conf.seeds.front()).seed;
                conf.seeds.clear();
                for (std::int64_t k = 0; k < seed_count; ++k)
                    conf.seeds.push_back(seed_string(series_seed(generator_family, first, k)));
            } catch (const InputError& error) {
                p.fail(line, "[configuration " + s->name + "]: seed-count: " + error.what());
            }
        }
        if (conf.seeds.empty())
            p.fail(s->line,
                "[configuration " + s->name
                    + "] has no seeds, and [campaign] has no 'seeds' for all");
        // Each seed's configuration, resolved once, here: the seed as its run stores it
        // (RANMAR's IJKL as IJ,KL), each once, and the configuration's canonical name.
        std::set<std::string> canonical_seeds;
        Configuration first;
        for (std::string& seed : conf.seeds) {
            Configuration config;
            try {
                config = configuration_of(o, seed);
            } catch (const InputError& error) {
                p.fail(line,
                    "[configuration " + s->name + "] with seed " + seed + ": " + error.what());
            }
            seed = seed_string(config.seed);
            if (!canonical_seeds.insert(seed).second)
                p.fail(line, "[configuration " + s->name + "]: seed " + seed + " is listed twice");
            conf.configs.push_back(canonical_name(config));
            if (conf.configs.size() == 1) first = config;
        }
        // Its tests run sharded, which needs its jumps (a plugin's skip function).
        if (!jumps_ahead(first))
            p.fail(s->line,
                "[configuration " + s->name + "]: a campaign runs its tests sharded, and "
                    + family_traits(first.generator).why_no_jumps(first));
        // A loaded file (a plugin's library): its absolute path and SHA-256 go into every
        // task's arguments.
        if (family_traits(first.generator).loaded_sha256) {
            o.generator = to_string(first.generator);
            o.library_sha256 = family_traits(first.generator).loaded_sha256(first);
        }
        c.configurations.push_back(conf);
    }
    return c;
}

Campaign parse_campaign_file(const std::string& path)
{
    const std::string text = read_input_file(path, "campaign file");
    const auto slash = path.rfind('/');
    return parse_campaign(text, path, slash == std::string::npos ? "." : path.substr(0, slash));
}

} // namespace rngvet::campaigns
