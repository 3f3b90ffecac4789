// The plugin family (lib:PATH[:SYMBOL], docs/plugins.md): the library loaded and checked
// (load_plugin_library: the ABI of rngvet/plugin.h), a state of its generator as an engine
// (PluginEngine), and the family's row and answers: the library loaded once and its canonical
// head lib[NAME#HASH], the checks of its seed (by the library itself), the seeding of its
// instances and its reference stream. plugin.hpp declares what others call.
#include "engines.hpp"
#include "error.hpp"
#include "family_common.hpp"
#include "plugin.hpp"
#include "sha256.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <rngvet/plugin.h>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace rngvet {

PluginLibrary::~PluginLibrary()
{
    if (handle) ::dlclose(handle);
}

const char* default_plugin_symbol()
{
    return RNGVET_PLUGIN_SYMBOL;
}

namespace {

// dlerror's text on one line.
std::string dl_error()
{
    const char* e = ::dlerror();
    std::string text = e ? e : "unknown error";
    for (char& ch : text)
        if (ch == '\n') ch = ' ';
    return text;
}

bool valid_plugin_name(const char* name)
{
    if (!name) return false;
    const std::size_t n = std::strlen(name);
    if (n == 0 || n > 64) return false;
    for (std::size_t i = 0; i < n; ++i) {
        const char ch = name[i];
        const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
            || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '+' || ch == '-';
        if (!ok) return false;
    }
    return true;
}

} // namespace

std::shared_ptr<const PluginLibrary> load_plugin_library(
    const std::string& path, const std::string& symbol)
{
    struct stat st { };
    if (path.empty()) throw InputError("--generator lib:PATH needs a path after 'lib:'");
    if (::stat(path.c_str(), &st) != 0)
        throw InputError("cannot open plugin library '" + path + "': " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw InputError("the plugin library '" + path + "' is not a regular file");
    char resolved[PATH_MAX];
    if (!::realpath(path.c_str(), resolved))
        throw InputError("cannot open plugin library '" + path + "': " + std::strerror(errno));
    auto library = std::make_shared<PluginLibrary>();
    library->path = resolved;
    library->symbol = symbol.empty() ? default_plugin_symbol() : symbol;
    library->sha256 = sha256_of_file(library->path);
    const std::string what = "the plugin library '" + library->path + "'";
    (void)::dlerror();
    library->handle = ::dlopen(library->path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library->handle)
        throw InputError(what + " is not a shared library rngvet can load (" + dl_error() + ")");
    (void)::dlerror();
    void* entry = ::dlsym(library->handle, library->symbol.c_str());
    if (!entry)
        throw InputError(what + " exports no function '" + library->symbol
            + "' (rngvet/plugin.h; name another with lib:PATH:SYMBOL)");
    // dlsym returns functions as void*; POSIX guarantees the conversion.
    rngvet_plugin_entry function = nullptr;
    static_assert(sizeof function == sizeof entry, "function and object pointers differ");
    std::memcpy(&function, &entry, sizeof function);
    const rngvet_plugin* api = function();
    const std::string from = what + ": " + library->symbol + "()";
    if (!api) throw InputError(from + " returned no generator (NULL)");
    if (api->abi_version != RNGVET_PLUGIN_ABI_VERSION)
        throw InputError(from + " is of plugin ABI version " + std::to_string(api->abi_version)
            + "; this rngvet reads version " + std::to_string(RNGVET_PLUGIN_ABI_VERSION));
    if (api->bits != 32 && api->bits != 64)
        throw InputError(from + " says its outputs have " + std::to_string(api->bits)
            + " bits; a plugin's have 32 or 64");
    if (!valid_plugin_name(api->name))
        throw InputError(from + " gives no valid name (1 to 64 letters, digits, . _ + -)");
    if (!api->next) throw InputError(from + " has no next function (NULL)");
    if (!api->seed) throw InputError(from + " has no seed function (NULL)");
    if ((api->create == nullptr) != (api->destroy == nullptr))
        throw InputError(from + " gives one of create and destroy without the other");
    if (api->create == nullptr && api->state_size == 0)
        throw InputError(from + " gives neither a state_size nor create and destroy");
    if (api->create != nullptr && api->state_size != 0)
        throw InputError(from + " gives both a state_size and create and destroy");
    library->api = api;
    library->name = api->name;
    library->bits = static_cast<int>(api->bits);
    library->has_skip = api->skip != nullptr;
    return library;
}

void PluginEngine::Release::operator()(void* state) const
{
    if (!state) return;
    if (library && library->api->destroy)
        library->api->destroy(state);
    else
        std::free(state);
}

PluginEngine::PluginEngine(
    std::shared_ptr<const PluginLibrary> library, const std::vector<std::uint64_t>& seed)
    : library_(std::move(library))
    , state_(nullptr, Release{ library_.get() })
    , mask_(library_->bits == 64 ? ~std::uint64_t(0) : 0xFFFFFFFFull)
{
    const rngvet_plugin& api = *library_->api;
    void* state = api.create ? api.create() : std::calloc(1, api.state_size);
    if (!state) throw InputError("the plugin '" + library_->name + "' could not make a state");
    state_.reset(state);
    if (api.seed(state, seed.data(), seed.size()) != 0) {
        std::string words;
        for (std::uint64_t w : seed)
            words += (words.empty() ? "" : ",") + std::to_string(w);
        throw InputError("the plugin '" + library_->name + "' refuses the seed " + words);
    }
}

std::uint64_t PluginEngine::next()
{
    return library_->api->next(state_.get()) & mask_;
}

void PluginEngine::jump(std::uint64_t n)
{
    if (n == 0) return;
    if (library_->api->skip) {
        library_->api->skip(state_.get(), n);
        return;
    }
    for (std::uint64_t k = 0; k < n; ++k)
        (void)library_->api->next(state_.get());
}

} // namespace rngvet

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
