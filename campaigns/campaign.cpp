#include "campaign.hpp"

#include "batteries/engine.hpp"
#include "batteries/registry.hpp"
#include "generators/error.hpp"
#include "generators/input_file.hpp"
#include "generators/sha256.hpp"
#include "kernels/backend.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace rngvet::campaigns {
namespace {

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

struct IniEntry {
    std::string key, value;
    int line = 0;
};
struct IniSection {
    std::string kind, name;
    int line = 0;
    std::vector<IniEntry> entries;
};

class Parser {
public:
    explicit Parser(std::string file)
        : file_(std::move(file))
    {
    }
    [[noreturn]] void fail(int line, const std::string& message) const
    {
        throw InputError(file_ + ":" + std::to_string(line) + ": " + message);
    }

    std::vector<IniSection> sections(const std::string& text) const
    {
        std::vector<IniSection> out;
        std::istringstream in(text);
        int number = 0;
        for (std::string raw; std::getline(in, raw);) {
            ++number;
            std::string line = trim(raw);
            if (line.empty() || line[0] == '#' || line[0] == ';') continue;
            // A comment may follow a value after white space: "shards = 3   # per seed".
            for (std::size_t i = 1; i < line.size(); ++i)
                if (line[i] == '#' && (line[i - 1] == ' ' || line[i - 1] == '\t')) {
                    line = trim(line.substr(0, i));
                    break;
                }
            if (line[0] == '[') {
                if (line.back() != ']') fail(number, "a section header ends with ']'");
                std::istringstream words(line.substr(1, line.size() - 2));
                IniSection s;
                s.line = number;
                words >> s.kind;
                std::getline(words, s.name);
                s.name = trim(s.name);
                out.push_back(s);
                continue;
            }
            const auto eq = line.find('=');
            if (eq == std::string::npos) fail(number, "expected 'key = value' or '[section]'");
            if (out.empty())
                fail(number, "'" + trim(line.substr(0, eq)) + "' is outside any section");
            IniEntry e{ trim(line.substr(0, eq)), trim(line.substr(eq + 1)), number };
            if (e.key.empty()) fail(number, "a key is missing before '='");
            if (e.value.empty()) fail(number, "'" + e.key + "' has no value");
            for (const IniEntry& earlier : out.back().entries)
                if (earlier.key == e.key)
                    fail(number,
                        "'" + e.key + "' is given twice in this section (first on line "
                            + std::to_string(earlier.line) + ")");
            out.back().entries.push_back(e);
        }
        return out;
    }

    void known_keys(const IniSection& s, const std::vector<std::string>& keys) const
    {
        for (const IniEntry& e : s.entries)
            if (std::find(keys.begin(), keys.end(), e.key) == keys.end()) {
                std::string valid;
                for (const auto& k : keys)
                    valid += (valid.empty() ? "" : ", ") + k;
                fail(e.line,
                    "unknown key '" + e.key + "' in [" + s.kind
                        + (s.name.empty() ? "" : " " + s.name) + "] (valid: " + valid + ")");
            }
    }

    std::int64_t integer(const IniEntry& e, std::int64_t low, std::int64_t high) const
    {
        std::size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(e.value, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != e.value.size() || v < low || v > high)
            fail(e.line,
                "'" + e.key + "' must be an integer in " + std::to_string(low) + ".."
                    + std::to_string(high) + ", got '" + e.value + "'");
        return v;
    }

    // Seeds separated by white space; A..B stands for the single-number seeds A to B.
    std::vector<std::string> seeds(const IniEntry& e) const
    {
        std::vector<std::string> out;
        std::set<std::string> seen;
        std::istringstream words(e.value);
        auto add = [&](const std::string& token) {
            std::string canonical;
            try {
                canonical = seed_string(parse_seed(token));
            } catch (const InputError& error) {
                fail(e.line, "seed '" + token + "': " + error.what());
            }
            if (!seen.insert(canonical).second)
                fail(e.line, "seed " + canonical + " is listed twice");
            out.push_back(canonical);
        };
        for (std::string token; words >> token;) {
            const auto dots = token.find("..");
            if (dots == std::string::npos) {
                add(token);
                continue;
            }
            const IniEntry low{ e.key, token.substr(0, dots), e.line };
            const IniEntry high{ e.key, token.substr(dots + 2), e.line };
            const std::int64_t a = integer(low, 0, std::int64_t{ 1 } << 62);
            const std::int64_t b = integer(high, 0, std::int64_t{ 1 } << 62);
            if (b < a)
                fail(e.line,
                    "seed range " + token
                        + " ends before it starts (write the smaller seed first)");
            if (b - a >= 100000)
                fail(e.line, "seed range " + token + " has more than 100000 seeds");
            for (std::int64_t s = a; s <= b; ++s)
                add(std::to_string(s));
        }
        return out;
    }

    // "1,4,7-10": tests of the battery, ascending, each once.
    std::vector<int> tests(const IniEntry& e, const BatteryCatalogue& battery) const
    {
        std::set<int> out;
        std::istringstream parts(e.value);
        const int n = static_cast<int>(battery.tests.size());
        for (std::string part; std::getline(parts, part, ',');) {
            part = trim(part);
            const auto dash = part.find('-');
            const IniEntry a{ e.key, trim(part.substr(0, dash)), e.line };
            const int first = static_cast<int>(integer(a, 1, n));
            int last = first;
            if (dash != std::string::npos)
                last = static_cast<int>(
                    integer({ e.key, trim(part.substr(dash + 1)), e.line }, first, n));
            for (int t = first; t <= last; ++t)
                out.insert(t);
        }
        return { out.begin(), out.end() };
    }

private:
    std::string file_;
};

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

Configuration configuration_of(const ConfigurationKeys& keys, const std::string& seed)
{
    ConfigurationText text = keys;
    text.seed = seed;
    return resolve_configuration_here(text);
}

std::vector<std::string> run_options(const ConfigurationKeys& keys, const std::string& seed)
{
    std::vector<std::string> out{ "--generator", keys.generator };
    if (!seed.empty()) out.insert(out.end(), { "--seed", seed });
    if (!keys.params.empty())
        out.insert(
            out.end(), { "--params", keys.params, "--param-id", std::to_string(keys.param_id) });
    out.insert(out.end(), { "--instances", std::to_string(keys.instances) });
    if (!keys.layout.empty()) out.insert(out.end(), { "--layout", keys.layout });
    out.insert(out.end(),
        { "--seeding", keys.seeding, "--zero", keys.zero, "--skip", std::to_string(keys.skip),
            "--backend", keys.backend });
    if (keys.view != "top32") out.insert(out.end(), { "--view", keys.view });
    // A plugin's library as it was when the campaign was planned: a task refuses another.
    if (!keys.library_sha256.empty())
        out.insert(out.end(), { "--library-sha256", keys.library_sha256 });
    return out;
}

Campaign parse_campaign(
    const std::string& text, const std::string& file_name, const std::string& base_dir)
{
    const Parser p(file_name);
    const std::vector<IniSection> sections = p.sections(text);
    Campaign c;
    const IniSection* campaign = nullptr;
    const IniSection* slurm = nullptr;
    std::vector<const IniSection*> configurations;
    for (const IniSection& s : sections) {
        if (s.kind == "campaign" || s.kind == "slurm") {
            if (!s.name.empty()) p.fail(s.line, "[" + s.kind + "] takes no name");
            const IniSection*& slot = s.kind == "campaign" ? campaign : slurm;
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
            for (const IniSection* earlier : configurations)
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

    p.known_keys(
        *campaign, { "name", "battery", "seeds", "seed-count", "shards", "tests", "engine" });
    std::vector<std::string> campaign_seeds;
    std::int64_t campaign_seed_count = 0;
    const IniEntry* shards = nullptr;
    const IniEntry* tests = nullptr;
    const IniEntry* engine = nullptr;
    c.battery.clear();
    for (const IniEntry& e : campaign->entries) {
        if (e.key == "name") {
            if (!valid_name(e.value))
                p.fail(e.line,
                    "the campaign's name has letters, digits, '.', '_' and '-' only, got '"
                        + e.value + "'");
            c.name = e.value;
        } else if (e.key == "battery") {
            try {
                c.battery = catalogue_for(e.value).name;
            } catch (const InputError& error) {
                p.fail(e.line, error.what());
            }
        } else if (e.key == "seeds") {
            campaign_seeds = p.seeds(e);
        } else if (e.key == "seed-count") {
            campaign_seed_count = p.integer(e, 1, 100000);
        } else if (e.key == "shards") {
            shards = &e;
        } else if (e.key == "tests") {
            tests = &e;
        } else if (e.key == "engine") {
            engine = &e;
        }
    }
    if (c.name.empty()) p.fail(campaign->line, "[campaign] needs 'name'");
    if (c.battery.empty())
        p.fail(campaign->line, "[campaign] needs 'battery' (" + battery_names() + ")");
    const BatteryCatalogue& battery = catalogue_for(c.battery);
    if (tests) c.tests = p.tests(*tests, battery);
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
        p.known_keys(*slurm,
            { "partition", "account", "qos", "time", "cpus-per-task", "mem", "gres", "constraint",
                "merge-time", "gpu", "gpu-request", "tasks-per-gpu" });
        for (const IniEntry& e : slurm->entries) {
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

    for (const IniSection* s : configurations) {
        p.known_keys(*s,
            { "generator", "seeds", "seed-count", "instances", "layout", "seeding", "params",
                "param-id", "zero", "skip", "backend", "view" });
        CampaignConfiguration conf;
        conf.name = s->name;
        ConfigurationKeys& o = conf.keys;
        int seeds_line = 0;
        std::int64_t seed_count = 0;
        for (const IniEntry& e : s->entries) {
            if (e.key == "generator")
                o.generator = e.value;
            else if (e.key == "seeds") {
                conf.seeds = p.seeds(e);
                seeds_line = e.line;
            } else if (e.key == "seed-count") {
                seed_count = p.integer(e, 1, 100000);
                if (!seeds_line) seeds_line = e.line;
            } else if (e.key == "instances")
                o.instances = static_cast<int>(p.integer(e, 1, 1 << 30));
            else if (e.key == "layout")
                o.layout = e.value;
            else if (e.key == "seeding")
                o.seeding = e.value;
            else if (e.key == "params") {
                o.params = e.value;
                // A parameter-set file named relative to the campaign file.
                if (e.value.find('=') == std::string::npos && e.value[0] != '/' && !base_dir.empty()
                    && is_file(base_dir + "/" + e.value))
                    o.params = base_dir + "/" + e.value;
            } else if (e.key == "param-id")
                o.param_id = static_cast<int>(p.integer(e, 0, 1 << 30));
            else if (e.key == "zero")
                o.zero = e.value;
            else if (e.key == "skip")
                o.skip = static_cast<std::uint64_t>(
                    p.integer(e, 0, std::numeric_limits<std::int64_t>::max()));
            else if (e.key == "backend")
                o.backend = e.value;
            else if (e.key == "view")
                o.view = e.value;
        }
        if (o.generator.empty())
            p.fail(s->line, "[configuration " + s->name + "] needs 'generator'");
        // A plugin library named relative to the campaign file.
        if (lower_case(o.generator).rfind("lib:", 0) == 0 && o.generator.size() > 4
            && o.generator[4] != '/' && !base_dir.empty()) {
            try {
                GeneratorName g = parse_generator(o.generator);
                if (is_file(base_dir + "/" + g.path)) {
                    g.path = base_dir + "/" + g.path;
                    o.generator = to_string(g);
                }
            } catch (const InputError&) {
                // refused with its line below
            }
        }
        const std::string generator = lower_case(o.generator); // read in any case
        if (generator == "stdin32" || generator == "stdin64" || generator.rfind("file:", 0) == 0
            || generator.rfind("file64:", 0) == 0)
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
        // Each seed as its run stores it (RANMAR's IJKL as IJ,KL), each once.
        std::set<std::string> canonical_seeds;
        for (std::string& seed : conf.seeds) {
            try {
                seed = seed_string(configuration_of(o, seed).seed);
            } catch (const InputError& error) {
                p.fail(line,
                    "[configuration " + s->name + "] with seed " + seed + ": " + error.what());
            }
            if (!canonical_seeds.insert(seed).second)
                p.fail(line, "[configuration " + s->name + "]: seed " + seed + " is listed twice");
        }
        // A plugin: its library's absolute path and SHA-256 go into every task's arguments, and
        // its tests run sharded, which needs its skip.
        const Configuration first = configuration_of(o, conf.seeds.front());
        if (family(first.generator) == GeneratorFamily::plugin) {
            if (!jumps_ahead(first))
                p.fail(s->line,
                    "[configuration " + s->name
                        + "]: a campaign runs its tests sharded, and the plugin '"
                        + first.plugin->name + "' has no skip function");
            o.generator = to_string(first.generator);
            o.library_sha256 = first.plugin->sha256;
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

std::string check_gpu_request(const std::string& value)
{
    const std::string forms = "gres=SPEC (e.g. gres=gpu:h100:1), gpus=[TYPE:]N, "
                              "gpus-per-task=[TYPE:]N, gpus-per-node=[TYPE:]N or none";
    if (value == "none") return value;
    const auto eq = value.find('=');
    if (eq == std::string::npos)
        throw InputError("GPU request '" + value + "' is none of " + forms);
    const std::string key = value.substr(0, eq), spec = value.substr(eq + 1);
    if (key != "gres" && key != "gpus" && key != "gpus-per-task" && key != "gpus-per-node")
        throw InputError(
            "GPU request '" + value + "': '" + key + "' is no GPU option; use " + forms);
    // What an #SBATCH line can hold unquoted: names, counts, ':' and ','.
    const bool plain = !spec.empty()
        && spec.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789_.:,-")
            == std::string::npos
        && spec.front() != ':' && spec.back() != ':' && spec.front() != ',' && spec.back() != ',';
    if (!plain)
        throw InputError("GPU request '" + value + "': '" + spec
            + "' is not a Slurm resource (letters, digits, '_', '.', '-', ':' and ','); use "
            + forms);
    if (key != "gres") {
        // [TYPE:]N, N a positive count.
        const std::string count = spec.substr(spec.rfind(':') + 1);
        if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos
            || count.find_first_not_of('0') == std::string::npos || count.size() > 4
            || spec.find(',') != std::string::npos)
            throw InputError("GPU request '" + value + "': " + key
                + " takes [TYPE:]N with N a count of GPUs, e.g. " + key + "=1 or " + key
                + "=h100:1");
    }
    return value;
}

namespace {
bool is_cuda(const CampaignConfiguration& c)
{
    return c.keys.backend == "cuda";
}
} // namespace

SlurmShape slurm_shape(const Campaign& campaign)
{
    const SlurmResources& r = campaign.slurm;
    std::vector<const CampaignConfiguration*> gpu, host;
    for (const CampaignConfiguration& c : campaign.configurations)
        (is_cuda(c) ? gpu : host).push_back(&c);
    SlurmShape shape;
    if (r.gpu == "no") {
        if (!gpu.empty())
            throw InputError("[configuration " + gpu.front()->name
                + "] runs on backend cuda and needs a GPU, which [slurm] gpu = no asks for none "
                  "(gpu-request = none leaves the GPU to the site)");
    } else if (r.gpu == "yes" || host.empty()) {
        shape.gpu = true;
    } else if (!gpu.empty() && (r.gpu_request != "none" || r.tasks_per_gpu > 1)) {
        throw InputError("[configuration " + gpu.front()->name
            + "] needs a GPU (backend cuda) and [configuration " + host.front()->name
            + "] none (backend " + host.front()->keys.backend
            + "), and every task of a Slurm array asks for the same resources: split the campaign "
              "in two, or set gpu = yes in [slurm] to give every task a GPU");
    }
    if (r.tasks_per_gpu > 1) {
        if (!shape.gpu)
            throw InputError("[slurm] tasks-per-gpu = " + std::to_string(r.tasks_per_gpu)
                + " packs tasks onto a GPU, and no task of this campaign asks for one (backend "
                  "cuda, or gpu = yes in [slurm])");
        shape.tasks_per_array_task = r.tasks_per_gpu;
    }
    return shape;
}

std::vector<int> array_tasks_of(const std::vector<int>& ids, int tasks_per_array_task)
{
    std::set<int> out;
    for (int id : ids)
        out.insert(id / std::max(1, tasks_per_array_task));
    return { out.begin(), out.end() };
}

std::vector<int> tasks_of_array_tasks(
    const std::vector<int>& array_tasks, int tasks_per_array_task, std::size_t count)
{
    const int k = std::max(1, tasks_per_array_task);
    std::set<int> out;
    for (int a : array_tasks)
        for (int t = a * k; t < (a + 1) * k && t < static_cast<int>(count); ++t)
            out.insert(t);
    return { out.begin(), out.end() };
}

std::vector<std::vector<int>> pack_shards(
    const BatteryCatalogue& battery, const std::vector<int>& tests, int shards)
{
    std::vector<int> order = tests;
    if (order.empty())
        for (const TestEntry& t : battery.tests)
            order.push_back(t.number);
    if (shards < 1 || static_cast<std::size_t>(shards) > order.size())
        throw InputError("cannot split " + std::to_string(order.size()) + " tests into "
            + std::to_string(shards) + " shards");
    // Costliest first; equal costs in test order, so the packing is reproducible.
    std::stable_sort(order.begin(), order.end(),
        [&](int a, int b) { return battery.test(a).cost > battery.test(b).cost; });
    std::vector<std::vector<int>> bins(static_cast<std::size_t>(shards));
    std::vector<double> load(bins.size(), 0);
    for (int t : order) {
        const auto least
            = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
        bins[least].push_back(t);
        load[least] += battery.test(t).cost;
    }
    for (auto& b : bins)
        std::sort(b.begin(), b.end());
    std::sort(bins.begin(), bins.end(),
        [](const auto& a, const auto& b) { return a.front() < b.front(); });
    return bins;
}

double longest_first_makespan(std::vector<double> costs, int workers)
{
    if (workers < 1) workers = 1;
    std::sort(costs.begin(), costs.end(), std::greater<>());
    std::vector<double> load(static_cast<std::size_t>(workers), 0);
    for (double c : costs)
        *std::min_element(load.begin(), load.end()) += c;
    return *std::max_element(load.begin(), load.end());
}

std::vector<CampaignTask> expand(const Campaign& campaign)
{
    const BatteryCatalogue& battery = catalogue_for(campaign.battery);
    const auto shards = pack_shards(battery, campaign.tests, campaign.shards);
    std::vector<CampaignTask> tasks;
    for (const CampaignConfiguration& conf : campaign.configurations)
        for (const std::string& seed : conf.seeds) {
            const Configuration config = configuration_of(conf.keys, seed);
            for (const auto& shard : shards) {
                CampaignTask t;
                t.id = static_cast<int>(tasks.size());
                t.configuration = conf.name;
                t.config = canonical_name(config);
                t.seed = seed_string(config.seed);
                t.tests = shard;
                for (int n : shard)
                    t.cost += battery.test(n).cost;
                t.run_arguments = run_options(conf.keys, seed);
                t.run_arguments.insert(t.run_arguments.end(),
                    { "--battery", campaign.battery, "--tests", join_ints(shard) });
                if (!campaign.engine.empty())
                    t.run_arguments.insert(t.run_arguments.end(), { "--engine", campaign.engine });
                tasks.push_back(t);
            }
        }
    return tasks;
}

CampaignPlan plan_campaign(
    const Campaign& campaign, const std::vector<CampaignTask>& tasks, int nodes, int cpus_per_node)
{
    const BatteryCatalogue& battery = catalogue_for(campaign.battery);
    CampaignPlan p;
    p.cpus_per_task = campaign.slurm.cpus_per_task;
    for (const auto& conf : campaign.configurations)
        p.pairs += conf.seeds.size();
    std::vector<double> walls;
    for (const CampaignTask& t : tasks) {
        p.cpu_seconds += t.cost;
        std::vector<double> costs;
        for (int n : t.tests)
            costs.push_back(battery.test(n).cost);
        walls.push_back(longest_first_makespan(costs, p.cpus_per_task));
    }
    p.slots = nodes * std::max(1, cpus_per_node / p.cpus_per_task);
    if (!walls.empty()) {
        p.shortest_task = *std::min_element(walls.begin(), walls.end());
        p.longest_task = *std::max_element(walls.begin(), walls.end());
    }
    p.wall_seconds = longest_first_makespan(walls, p.slots);
    return p;
}

std::string join_ints(const std::vector<int>& values)
{
    std::string s;
    for (std::size_t i = 0; i < values.size(); ++i)
        s += (i ? "," : "") + std::to_string(values[i]);
    return s;
}

std::string id_ranges(const std::vector<int>& ids)
{
    std::string s;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            ++j;
        s += (s.empty() ? "" : ",") + std::to_string(ids[i]);
        if (j > i) s += "-" + std::to_string(ids[j]);
        i = j + 1;
    }
    return s;
}

std::string shell_quote(const std::string& word)
{
    if (!word.empty()
        && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789-_./,:=+@%")
            == std::string::npos)
        return word;
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string clock_time(double seconds)
{
    const long s = static_cast<long>(seconds + 0.5);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

namespace {
const char* const table_header
    = "task\tconfiguration\tconfig\tseed\ttests\testimated_seconds\trngvet_run_arguments";

void no_tabs(const std::string& field)
{
    if (field.find_first_of("\t\n") != std::string::npos)
        throw InputError(
            "'" + field + "' holds a tab or a line break, which the task table cannot hold");
}
} // namespace

std::string write_task_table(const TaskTable& table)
{
    std::ostringstream out;
    out << "# rngvet campaign task table: written by 'rngvet campaign submit' or 'run', read by "
           "merge,\n"
           "# status and resubmit. Do not edit; DIR/campaign.sbatch holds the same tasks.\n";
    out << "campaign\t" << table.campaign_id << "\nname\t" << table.name << "\nbattery\t"
        << table.battery << "\ntests\t" << table.tests_selected << "\n";
    if (table.tasks_per_array_task > 1)
        out << "tasks-per-array-task\t" << table.tasks_per_array_task << "\n";
    out << table_header << "\n";
    for (const CampaignTask& t : table.tasks) {
        for (const std::string* f : { &t.configuration, &t.config, &t.seed })
            no_tabs(*f);
        std::string args;
        for (const auto& a : t.run_arguments) {
            no_tabs(a);
            args += (args.empty() ? "" : " ") + shell_quote(a);
        }
        char cost[32];
        std::snprintf(cost, sizeof cost, "%.1f", t.cost);
        out << t.id << "\t" << t.configuration << "\t" << t.config << "\t" << t.seed << "\t"
            << join_ints(t.tests) << "\t" << cost << "\t" << args << "\n";
    }
    // The end line: the number of tasks and the SHA-256 of everything above it, so that a
    // truncated or altered table is refused instead of read as a smaller campaign.
    const std::string body = out.str();
    return body + "end\t" + std::to_string(table.tasks.size()) + "\t" + sha256_hex(body) + "\n";
}

TaskTable read_task_table(const std::string& path)
{
    if (::access(path.c_str(), F_OK) != 0)
        throw InputError(
            "no campaign task table at '" + path + "' (written by rngvet campaign submit or run)");
    return parse_task_table(read_input_file(path, "campaign task table"), path);
}

TaskTable parse_task_table(const std::string& text, const std::string& path)
{
    // The end line must close the table and match what precedes it.
    const auto end_at = text.rfind("end\t");
    if (end_at == std::string::npos || (end_at > 0 && text[end_at - 1] != '\n')
        || text.back() != '\n')
        throw InputError("'" + path
            + "' is truncated: its end line (end, task count, SHA-256) "
              "is missing");
    const std::string body = text.substr(0, end_at);
    std::istringstream end_line(text.substr(end_at + 4));
    std::size_t count = 0;
    std::string hash;
    end_line >> count >> hash;
    if (hash != sha256_hex(body))
        throw InputError("'" + path
            + "' was altered or truncated: its SHA-256 is not the one "
              "its end line records");
    std::istringstream in(body);
    TaskTable table;
    bool rows = false;
    int number = 0;
    auto bad = [&](const std::string& why) {
        throw InputError(path + ":" + std::to_string(number) + ": " + why);
    };
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, '\t');)
            f.push_back(x);
        if (!line.empty() && line.back() == '\t') f.push_back("");
        if (!rows) {
            if (line == table_header) {
                rows = true;
            } else if (f.size() == 2 || (f.size() == 1 && f[0] == "tests")) {
                const std::string value = f.size() == 2 ? f[1] : "";
                if (f[0] == "campaign")
                    table.campaign_id = value;
                else if (f[0] == "name")
                    table.name = value;
                else if (f[0] == "battery")
                    table.battery = value;
                else if (f[0] == "tests")
                    table.tests_selected = value;
                else if (f[0] == "tasks-per-array-task") {
                    std::size_t used = 0;
                    int k = 0;
                    try {
                        k = std::stoi(value, &used);
                    } catch (const std::exception&) {
                        used = 0;
                    }
                    if (used == 0 || used != value.size() || k < 2 || k > 1024)
                        bad("tasks-per-array-task is a count in 2..1024, got '" + value + "'");
                    table.tasks_per_array_task = k;
                } else
                    bad("unknown header line '" + f[0] + "'");
            } else {
                bad("not a task table header line");
            }
            continue;
        }
        if (f.size() != 7) bad("a task row has 7 tab-separated fields");
        CampaignTask t;
        try {
            t.id = std::stoi(f[0]);
            t.cost = std::stod(f[5]);
            for (std::int64_t n : parse_seed(f[4]))
                t.tests.push_back(static_cast<int>(n));
        } catch (const std::exception&) {
            bad("malformed task row");
        }
        if (t.id != static_cast<int>(table.tasks.size()))
            bad("task ids must be 0, 1, 2, ... in order");
        t.configuration = f[1];
        t.config = f[2];
        t.seed = f[3];
        table.tasks.push_back(t);
    }
    if (!rows || table.campaign_id.empty() || table.battery.empty() || table.tasks.empty())
        throw InputError("'" + path + "' is not a complete campaign task table");
    if (table.tasks.size() != count)
        throw InputError("'" + path + "' holds " + std::to_string(table.tasks.size())
            + " tasks where its end line counts " + std::to_string(count));
    return table;
}

bool same_tasks(const std::vector<CampaignTask>& a, const std::vector<CampaignTask>& b)
{
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].id != b[i].id || a[i].configuration != b[i].configuration
            || a[i].config != b[i].config || a[i].seed != b[i].seed || a[i].tests != b[i].tests)
            return false;
    return true;
}

namespace {

void resource_lines(std::ostream& out, const SlurmResources& r, bool task, bool gpu = false)
{
    auto line = [&](const char* key, const std::string& value, const char* hint) {
        if (!value.empty())
            out << "#SBATCH --" << key << "=" << value << "\n";
        else
            out << "##SBATCH --" << key << "=" << hint << "   (not set; remove one '#' to use)\n";
    };
    line("partition", r.partition, "PARTITION");
    line("account", r.account, "ACCOUNT");
    if (!r.qos.empty()) out << "#SBATCH --qos=" << r.qos << "\n";
    if (task) {
        line("time", r.time, "HH:MM:SS");
        out << "#SBATCH --cpus-per-task=" << r.cpus_per_task << "\n";
        if (!r.mem.empty()) out << "#SBATCH --mem=" << r.mem << "\n";
        std::string gres = r.gres, gpu_option;
        if (gpu) {
            if (r.gpu_request == "none") {
                out << "# The tasks use the GPU the site gives them unasked ([slurm] gpu-request = "
                       "none).\n";
            } else {
                out << "# A GPU for each array task ([slurm] gpu-request or campaign submit "
                       "--gpu-request;\n# the line may be edited to the site's form).\n";
                if (r.gpu_request.rfind("gres=", 0) == 0)
                    gres += (gres.empty() ? "" : ",") + r.gpu_request.substr(5);
                else
                    gpu_option = r.gpu_request;
            }
        }
        if (!gres.empty()) out << "#SBATCH --gres=" << gres << "\n";
        if (!gpu_option.empty()) out << "#SBATCH --" << gpu_option << "\n";
        if (!r.constraint.empty()) out << "#SBATCH --constraint=" << r.constraint << "\n";
    } else {
        out << "#SBATCH --time=" << r.merge_time << "\n#SBATCH --cpus-per-task=1\n";
    }
}

} // namespace

std::string array_script(const Campaign& campaign, const TaskTable& table, const ScriptPaths& paths)
{
    const BatteryCatalogue& battery = catalogue_for(campaign.battery);
    const SlurmShape shape = slurm_shape(campaign);
    const int per = shape.tasks_per_array_task;
    if (table.tasks_per_array_task != per)
        throw InputError("the task table packs " + std::to_string(table.tasks_per_array_task)
            + " tasks per array task, the campaign " + std::to_string(per));
    const int cpus = std::max(1, campaign.slurm.cpus_per_task / per);
    const std::size_t array_tasks = (table.tasks.size() + per - 1) / per;
    double total = 0, longest = 0;
    for (const CampaignTask& t : table.tasks) {
        total += t.cost;
        std::vector<double> costs;
        for (int n : t.tests)
            costs.push_back(battery.test(n).cost);
        longest = std::max(longest, longest_first_makespan(costs, cpus));
    }
    std::ostringstream out;
    out << "#!/bin/bash\n"
        << "# rngvet campaign '" << campaign.name << "' (id " << table.campaign_id
        << "): " << table.tasks.size() << " tasks of " << campaign.battery
        << ", one per configuration,\n"
        << "# seed and shard of the tests. Each task runs 'rngvet run' for its shard into "
           "its own\n"
        << "# SQLite file, " << paths.dir
        << "/tasks/task-<i>.sqlite; 'rngvet campaign merge' folds them.\n";
    if (per > 1)
        out << "# Array task <a> runs tasks <a>*" << per << " to <a>*" << per << "+" << per - 1
            << " at once on its GPU ([slurm] tasks-per-gpu = " << per
            << "), each\n# a process of its own with " << cpus
            << " of the array task's CPUs, its output in logs/task-<i>.job-<array job>.out.\n";
    out << "# Estimated CPU time " << clock_time(total) << " in all; the longest task about "
        << clock_time(longest) << " on " << cpus << " CPU(s) (rough: catalogue costs).\n"
        << "# The #SBATCH lines may be edited. 'rngvet campaign resubmit' submits this script "
           "again\n"
        << "# with --array set to the " << (per > 1 ? "array tasks that hold tasks" : "tasks")
        << " that are missing or failed.\n"
        << "#SBATCH --job-name=rngvet-" << campaign.name << "\n"
        << "#SBATCH --array=0-" << array_tasks - 1 << "\n";
    resource_lines(out, campaign.slurm, true, shape.gpu);
    out << "#SBATCH --output=" << paths.dir
        << (per > 1 ? "/logs/array-%a.job-%A.out\n" : "/logs/task-%a.job-%A.out\n") << "\nset -eu\n"
        << "RNGVET=" << shell_quote(paths.rngvet) << "\n"
        << "DIR=" << shell_quote(paths.dir) << "\n";
    std::string indent;
    if (per == 1) {
        out << "TASK=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch --array}\n"
            << "JOBS=${SLURM_CPUS_PER_TASK:-1}\n";
    } else {
        out << "ARRAY_TASK=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch --array}\n"
            << "PER=" << per << "   # campaign tasks per array task, at once\n"
            << "TASKS=" << table.tasks.size() << "\n"
            << "JOBS=$(( ${SLURM_CPUS_PER_TASK:-1} / PER ))\n"
            << "[ \"$JOBS\" -ge 1 ] || JOBS=1\n\n"
            << "# One campaign task, in a subshell of its own.\n"
            << "run_task() {\n"
            << "  TASK=$1\n";
        indent = "  ";
    }
    out << indent << "DB=\"$DIR/tasks/task-$TASK.sqlite\"\n\n" << indent << "case \"$TASK\" in\n";
    for (const CampaignTask& t : table.tasks) {
        out << indent << "  # configuration " << t.configuration << ", seed " << t.seed
            << ", tests " << join_ints(t.tests) << ", about " << clock_time(t.cost) << " CPU\n"
            << indent << "  " << t.id << ") RUN=(";
        for (std::size_t i = 0; i < t.run_arguments.size(); ++i)
            out << (i ? " " : "") << shell_quote(t.run_arguments[i]);
        out << ") ;;\n";
    }
    out << indent
        << "  *) echo \"rngvet campaign: no task $TASK in this campaign\" >&2; exit 2 ;;\n"
        << indent << "esac\n\n"
        << indent
        << "# Stamps the task database with the campaign and task (a database of another task "
           "is\n"
        << indent
        << "# refused) and prints the run to resume when an earlier attempt was cut short (time "
           "limit,\n"
        << indent << "# node failure): its finished tests are kept, only the missing ones run.\n"
        << indent << "RESUME=$(\"$RNGVET\" campaign prepare \"$DIR\" \"$TASK\")\n"
        << indent << "if [ -n \"$RESUME\" ]; then\n"
        << indent
        << "  exec \"$RNGVET\" run --resume \"$RESUME\" --mode sharded --jobs \"$JOBS\" --db "
           "\"$DB\"\n"
        << indent << "fi\n"
        << indent
        << "exec \"$RNGVET\" run \"${RUN[@]}\" --mode sharded --jobs \"$JOBS\" --db \"$DB\"\n";
    if (per > 1)
        out << "}\n\n"
            << "# The array task's campaign tasks at once; it fails when one of them fails (the "
               "others\n"
            << "# still finish). A task already done only confirms its stored run.\n"
            << "PIDS=()\n"
            << "RUNS=()\n"
            << "for ((TASK = ARRAY_TASK * PER; TASK < (ARRAY_TASK + 1) * PER && TASK < TASKS; "
               "TASK++)); do\n"
            << "  ( run_task \"$TASK\" ) "
               ">\"$DIR/logs/task-$TASK.job-${SLURM_ARRAY_JOB_ID:-0}.out\" "
               "2>&1 &\n"
            << "  PIDS+=(\"$!\")\n"
            << "  RUNS+=(\"$TASK\")\n"
            << "done\n"
            << "[ \"${#PIDS[@]}\" -gt 0 ] || { echo \"rngvet campaign: no array task $ARRAY_TASK "
               "in this campaign\" >&2; exit 2; }\n"
            << "STATUS=0\n"
            << "for i in \"${!PIDS[@]}\"; do\n"
            << "  if wait \"${PIDS[$i]}\"; then\n"
            << "    echo \"task ${RUNS[$i]}: done\"\n"
            << "  else\n"
            << "    CODE=$?\n"
            << "    echo \"task ${RUNS[$i]}: exit status $CODE\" >&2\n"
            << "    STATUS=1\n"
            << "  fi\n"
            << "done\n"
            << "exit \"$STATUS\"\n";
    return out.str();
}

std::string merge_script(const Campaign& campaign, const TaskTable& table, const ScriptPaths& paths)
{
    std::ostringstream out;
    out << "#!/bin/bash\n"
        << "# Merges the task databases of rngvet campaign '" << campaign.name << "' (id "
        << table.campaign_id << ")\n# into " << paths.dir
        << "/campaign.sqlite. Submitted with --dependency=afterany:<array job>,\n"
        << "# so it runs once every task has ended, however it ended; it lists missing or failed "
           "tasks.\n"
        << "#SBATCH --job-name=rngvet-" << campaign.name << "-merge\n";
    resource_lines(out, campaign.slurm, false);
    out << "#SBATCH --output=" << paths.dir << "/logs/merge.job-%j.out\n\n"
        << "exec " << shell_quote(paths.rngvet) << " campaign merge " << shell_quote(paths.dir)
        << "\n";
    return out.str();
}

std::string new_campaign_id(const std::string& name)
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char when[32];
    std::strftime(when, sizeof when, "%Y%m%dT%H%M%SZ", &utc);
    std::random_device device;
    char tag[16];
    std::snprintf(tag, sizeof tag, "%06x", static_cast<unsigned>(device() & 0xffffffu));
    return name + "-" + when + "-" + tag;
}

} // namespace rngvet::campaigns
