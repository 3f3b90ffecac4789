// The plugin family (lib:PATH[:SYMBOL], docs/plugins.md): its row of the family table and its
// answers, the library loaded once and its canonical head lib[NAME#HASH], the checks of its seed
// (by the library itself), the seeding of its instances and its reference stream. plugin.hpp
// loads and checks the library and wraps a state as an engine.
#include "engines.hpp"
#include "error.hpp"
#include "family_common.hpp"
#include "plugin.hpp"

#include <memory>
#include <string>
#include <vector>

namespace rngvet {
namespace {

// Seeds are kept below 2^63 (parse_seed), and so are a plugin instance's first words.
constexpr std::uint64_t plugin_seed_modulus = std::uint64_t(1) << 63;

// A plugin's canonical head: lib[NAME#HASH8], with :SYMBOL when the library's function is not
// the default one.
std::string plugin_label(const Configuration& c, const PluginLibrary& library)
{
    return "lib[" + library.name + "#" + library.sha256.substr(0, 8)
        + (c.generator.qualifier.empty() ? "" : ":" + c.generator.qualifier) + "]";
}

void check_plugin(const Configuration& c)
{
    const std::string name = to_string(c.generator);
    const std::shared_ptr<const PluginLibrary> library = plugin_library(c);
    if (c.seed.empty())
        throw InputError(name
            + " needs --seed S or S1,S2,... (the seed words its library's "
              "seed function takes)");
    if (c.seeding.kind == SeedingKind::split && !library->has_skip)
        throw InputError("--seeding split:S jumps in the stream, and the plugin '" + library->name
            + "' has no skip function");
    // The library's own check of the base seed (each instance's is checked as it is made).
    (void)PluginEngine(library, plugin_instance_seed(c, 0));
}

std::unique_ptr<Stream> make_plugin_reference(const Configuration& c)
{
    const std::shared_ptr<const PluginLibrary> library = plugin_library(c);
    std::vector<PluginEngine> engines;
    engines.reserve(static_cast<std::size_t>(c.instances));
    for (int i = 0; i < c.instances; ++i) {
        engines.emplace_back(library, plugin_instance_seed(c, i));
        if (c.seeding.kind == SeedingKind::split)
            engines.back().jump(c.seeding.stride * static_cast<std::uint64_t>(i));
    }
    return std::make_unique<CombinedStream<PluginEngine>>(
        std::move(engines), c.layout, library->bits, canonical_name(c));
}

std::string plugin_canonical_head(const Configuration& c)
{
    return plugin_label(c, *plugin_library(c));
}

void load_plugin(Configuration& c)
{
    // The default function named explicitly is the default: one configuration, one name.
    if (c.generator.qualifier == default_plugin_symbol()) c.generator.qualifier.clear();
    c.loaded = plugin_library(c);
    c.generator.path = c.loaded->path;
}

void plugin_instance_configuration(const Configuration& c, int i, Configuration& one)
{
    const std::vector<std::uint64_t> words = plugin_instance_seed(c, i);
    one.seed.assign(words.begin(), words.end());
}

int plugin_output_bits(const Configuration& c)
{
    return plugin_library(c)->bits;
}

bool plugin_jumps_ahead(const Configuration& c)
{
    return plugin_library(c)->has_skip;
}

// lib[NAME#HASH8] or lib[NAME#HASH8:SYMBOL]: the library is where the run's generator column
// says.
std::string parse_plugin_head(const std::string& head, const std::string&,
    const std::string& input_path, Configuration& c, std::string& hash)
{
    if (input_path.empty())
        return "a plugin's name leaves out its library's path, which its run records";
    c.generator = parse_generator("lib:" + input_path);
    if (c.generator.kind != kinds::plugin) return "not a plugin's path";
    const std::string inner = head.substr(4, head.size() - 5);
    const auto sharp = inner.rfind('#');
    if (sharp == std::string::npos) return "expected lib[NAME#HASH]";
    hash = inner.substr(sharp + 1, 8);
    return "";
}

std::string plugin_head_mismatch(const Configuration& c, const std::string& hash)
{
    const std::string sha256 = plugin_library(c)->sha256;
    if (sha256.substr(0, 8) == hash) return "";
    return "the library '" + c.generator.path + "' here has SHA-256 " + sha256.substr(0, 8)
        + "..., the name says " + hash;
}

// Whether text is a C identifier (a symbol name).
bool is_identifier(const std::string& text)
{
    if (text.empty() || (text[0] >= '0' && text[0] <= '9')) return false;
    for (char ch : text)
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
                || ch == '_'))
            return false;
    return true;
}

// lib:PATH:SYMBOL: a symbol after the path's last ':'.
void parse_plugin_symbol(GeneratorName& g)
{
    const auto colon = g.path.rfind(':');
    if (colon != std::string::npos && colon > 0 && is_identifier(g.path.substr(colon + 1))) {
        g.qualifier = g.path.substr(colon + 1);
        g.path = g.path.substr(0, colon);
    }
}

std::string plugin_no_jumps(const Configuration& c)
{
    return "the plugin '" + plugin_library(c)->name + "' has no skip function";
}

// The library was hashed as it was loaded.
std::string plugin_sha256(const Configuration& c)
{
    return plugin_library(c)->sha256;
}

std::string describe_plugin(const GeneratorTraits& g)
{
    return std::string("32- or 64-bit outputs of a shared library, rngvet/plugin.h; --seed ")
        + g.seed_format + ", cpu only";
}

} // namespace

std::shared_ptr<const PluginLibrary> plugin_library(const Configuration& c)
{
    const auto loaded = std::dynamic_pointer_cast<const PluginLibrary>(c.loaded);
    if (loaded && loaded->path == c.generator.path
        && loaded->symbol
            == (c.generator.qualifier.empty() ? default_plugin_symbol() : c.generator.qualifier))
        return loaded;
    return load_plugin_library(c.generator.path, c.generator.qualifier);
}

std::vector<std::uint64_t> plugin_instance_seed(const Configuration& c, int instance)
{
    std::vector<std::uint64_t> words(c.seed.begin(), c.seed.end());
    const std::uint64_t base = words.at(0);
    const auto n = static_cast<std::uint64_t>(instance);
    switch (c.seeding.kind) {
    case SeedingKind::same:
    case SeedingKind::split: // the base seed, jumped by i * S numbers (make_plugin_reference)
        break;
    case SeedingKind::increment:
        words[0] = (base + n) % plugin_seed_modulus;
        break;
    case SeedingKind::stride:
        words[0] = (base + c.seeding.stride * n) % plugin_seed_modulus;
        break;
    case SeedingKind::hash:
        words[0] = splitmix64((base << 32) ^ n) % plugin_seed_modulus;
        break;
    }
    return words;
}

const FamilyTraits& plugin_family()
{
    static const FamilyTraits row = { families::plugin, "plugin", false, false, false, 1024,
        { 777 }, single_series, single_seed_of_number, nullptr, describe_plugin, false, false,
        check_plugin, make_plugin_reference, plugin_canonical_head, nullptr, load_plugin,
        plugin_instance_configuration, plugin_output_bits, plugin_jumps_ahead, "lib[",
        parse_plugin_head, plugin_head_mismatch, 50,
        {
            { kinds::plugin, "lib:PATH[:SYMBOL]", families::plugin, 0, "S or S1,S2,...", false,
                "lib:", true },
        },
        parse_plugin_symbol, plugin_no_jumps, plugin_sha256 };
    return row;
}

} // namespace rngvet
