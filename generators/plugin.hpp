// Plugin generators: a shared library that implements the C ABI of rngvet/plugin.h
// (`--generator lib:PATH[:SYMBOL]`, docs/plugins.md). The library is loaded and checked once per
// configuration (load_plugin_library) and shared by the configuration's copies; each instance
// of the configuration is a PluginEngine, one state of the library's generator. All of it is
// defined in the family's file, family_plugin.cpp.
#pragma once

#include "generator_id.hpp"
#include "loaded_file.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct rngvet_plugin;

namespace rngvet {

// The family's words (generator_id.hpp): the family and its one generator, lib:PATH[:SYMBOL].
namespace families {
inline constexpr GeneratorFamily plugin{ "plugin" };
}
namespace kinds {
inline constexpr GeneratorKind plugin{ "plugin" };
}

// A loaded and checked plugin library (its path and SHA-256 are the LoadedFile's). The library
// stays loaded while any copy is alive.
struct PluginLibrary : LoadedFile {
    std::string symbol; // the exported function called ("rngvet_generator" by default)
    std::string name; // the generator's own name (rngvet_plugin::name)
    int bits = 0; // 32 or 64
    bool has_skip = false;
    const rngvet_plugin* api = nullptr;
    void* handle = nullptr;

    PluginLibrary() = default;
    ~PluginLibrary() override;
};

// The default exported function's name (RNGVET_PLUGIN_SYMBOL).
const char* default_plugin_symbol();

// Loads the library at `path` (made absolute), calls `symbol` ("" for the default) and checks
// what it returns. Throws InputError with one line for a missing file, a file that is not a
// shared library, a missing symbol, another ABI version, bits other than 32 and 64, a missing
// function or a bad name.
std::shared_ptr<const PluginLibrary> load_plugin_library(
    const std::string& path, const std::string& symbol);

// One state of a plugin's generator: seeded from the seed words, its outputs masked to the
// generator's bits. Movable, not copyable.
class PluginEngine {
public:
    // A new state seeded with `seed`; InputError when the library refuses the seed or cannot
    // make a state.
    PluginEngine(
        std::shared_ptr<const PluginLibrary> library, const std::vector<std::uint64_t>& seed);
    std::uint64_t next();
    // n outputs on: the library's skip, else n outputs made and dropped.
    void jump(std::uint64_t n);

private:
    struct Release {
        const PluginLibrary* library = nullptr;
        void operator()(void* state) const;
    };
    std::shared_ptr<const PluginLibrary> library_;
    std::unique_ptr<void, Release> state_;
    std::uint64_t mask_ = 0;
};

struct Configuration;

// lib:PATH[:SYMBOL]: the configuration's library, config.loaded when it was loaded from the
// generator's path and symbol, else loaded now (family_plugin.cpp). Throws InputError.
std::shared_ptr<const PluginLibrary> plugin_library(const Configuration& config);

// The seed words of plugin instance `instance` of a validated plugin configuration.
std::vector<std::uint64_t> plugin_instance_seed(const Configuration& config, int instance);

} // namespace rngvet
