#include "plugin.hpp"

#include "error.hpp"
#include "sha256.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <rngvet/plugin.h>
#include <sys/stat.h>

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
