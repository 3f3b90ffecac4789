// A generator configuration: which engine, how many instances, how their outputs are combined
// into one stream (layout), how each instance is seeded, and the options of the engine.
// Every configuration has one canonical name (see canonical_name) that TestU01's generator
// name, the result store and the reports all use.
#pragma once

#include "loaded_file.hpp"
#include "mt_params.hpp"
#include "registry.hpp"
#include "stream.hpp"
#include "view.hpp"
#include "words.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rngvet {

enum class LayoutKind { single, interleave, block, request };
enum class SeedingKind { increment, same, stride, hash, split };

struct Layout {
    LayoutKind kind = LayoutKind::single;
    std::uint64_t block = 0; // K for LayoutKind::block, R for LayoutKind::request
};

struct Seeding {
    SeedingKind kind = SeedingKind::increment;
    std::uint64_t stride = 0; // S for SeedingKind::stride and SeedingKind::split
};

struct Configuration {
    GeneratorName generator; // a row of the registry (registry.hpp), with file:PATH's path
    std::vector<std::int64_t>
        seed; // ranmar: {ij, kl}; mtdc, r250: {s}; mt19937: {s} or a key array
    // External streams (stdin32, stdin64, file:PATH, file64:PATH) only: the name of the
    // generator behind the stream (--name, "" for none) and the seed it was given (--seed, as
    // given; "" for none). rngvet reads the stream and only records them: the name takes the
    // place of the path in the canonical name, and the seed is the run's seed.
    std::string stream_name;
    std::string stream_seed;
    std::string params; // mtdc: a built-in set name, a file, or p=P,aaa=A,maskB=B,maskC=C
    // mtdc: the sets `params` names, read, parsed and hashed once (load_param_sets) and shared
    // by every copy of the configuration; null until loaded.
    std::shared_ptr<const MtParamSet> param_sets;
    // The file the generator's family loads (the family row's load, through load_param_sets;
    // lib:PATH[:SYMBOL]: its PluginLibrary), loaded, checked and hashed once and shared by every
    // copy of the configuration; null until loaded, and for the families that load no file.
    std::shared_ptr<const LoadedFile> loaded;
    int param_id = 0; // mtdc: instance i uses set param_id + i of the file
    int instances = 1;
    Layout layout;
    Seeding seeding;
    ZeroPolicy zero = ZeroPolicy::keep; // ranmar only
    std::uint64_t skip = 0; // numbers of the combined stream skipped before use
    Backend backend = Backend::cpu;
    BitView view = BitView::top32; // the words TestU01 reads (view.hpp); skip counts view words
};

// A configuration in the words of the command line (rngvet run's --generator, --seed, ...),
// the form the command line, campaign files and librngvet's options text are read into. Each
// member is a row of configuration_options.hpp's schema; the initial values are the options'
// defaults.
struct ConfigurationText {
    std::string generator;
    std::string seed; // "" for none
    std::string name; // external streams' --name; "" for none
    // lib:PATH: the SHA-256 the library must have (--library-sha256, as a campaign's tasks
    // pass the hash they were planned with); "" for any.
    std::string library_sha256;
    std::string params;
    int param_id = 0;
    int instances = 1;
    std::string layout; // "": default_layout(instances)
    std::string seeding = "increment";
    std::string zero = "keep";
    std::uint64_t skip = 0;
    std::string backend = "cpu";
    std::string view = "top32";
};

// The one mapping from the words to a Configuration (configuration_options.cpp): each row of
// the schema's parser in turn (with its message), the parameter sets loaded, then validate, then
// the rows' checks. The configuration comes back validated, and what builds streams takes it as
// given. Throws InputError.
Configuration resolve_configuration(const ConfigurationText& text);

// Parsers for the command-line spellings; each throws InputError naming what is valid.
std::vector<std::int64_t> parse_seed(const std::string& text);
Layout parse_layout(const std::string& text);
// The values --layout and --seeding accept, as parse_layout and parse_seeding read them.
const Words& layout_words();
const Words& seeding_words();
// The layout when none is given: single for one instance, interleave for more.
Layout default_layout(int instances);
Seeding parse_seeding(const std::string& text);
std::string to_string(const Layout& layout);
// The layout's code for the arithmetic of layout_index.hpp (RNGVET_LAYOUT_*).
std::uint64_t layout_code(const Layout& layout);
std::string to_string(const Seeding& seeding);

// Seed k of the series that starts at `first` (k = 0 is `first`), the rule of docs/findings.md:
// RANMAR's IJ,KL steps by (1553, 2671) modulo (31329, 30082), a single-number seed by 1.
// Throws InputError for a stream without seeds and for a seed of several numbers outside
// RANMAR (mt19937's key arrays), which no series continues.
std::vector<std::int64_t> series_seed(
    GeneratorFamily family, const std::vector<std::int64_t>& first, std::int64_t k);
// The first seed of a series when none is given: 1802,9373 for RANMAR (Marsaglia's 12, 34, 56,
// 78), 777 for single-number seeds (docs/findings.md's first seeds).
std::vector<std::int64_t> default_first_seed(GeneratorFamily family);
// The seed a run of the configuration records: seed_string(seed), or an external stream's
// stream_seed ("-" for none).
std::string recorded_seed(const Configuration& config);

// mtdc: loads the parameter sets config.params names (a built-in set, a file, or an inline
// set) into config.param_sets, unless the sets loaded there are already those; a plugin: loads
// its library into config.loaded (and makes its path absolute) unless it is loaded already;
// other generators: nothing. Throws InputError.
void load_param_sets(Configuration& config);

// The bits of the generator's outputs before a view: its registry row's, a plugin's library's.
int output_bits(const Configuration& config);

// Whether the configuration's stream jumps ahead without making the numbers it skips: every
// generator rngvet computes, a plugin with a skip function; not the external streams. Sharded
// runs (tests at offsets 2^40 apart) need it.
bool jumps_ahead(const Configuration& config);

// Checks everything about the configuration that needs no device (seeds in range,
// instances >= 1, the options its generator takes, enough parameter sets, ...) and throws
// InputError with a one-line message on the first problem found. Asked where a configuration
// comes in: resolve_configuration (the options, campaign files, librngvet's options form),
// parse_canonical_name (librngvet's canonical form, a stored run), librngvet's CERNLIB entries
// (a seed set by the caller), and a configuration built by hand. What builds streams from a
// configuration (make_stream, instance_configuration, the per-instance states,
// make_backend_stream) takes it as validated and does not ask again.
void validate(const Configuration& config);

// Positions in a stream are 64-bit counts. A configuration keeps every position it can ask for
// below 2^64 by keeping these below 2^62 (stream_position_limit): --skip, N*K of block:K, R of
// request:R and S*(N - 1) of split:S. A run adds at most 2^40 per test to a position and a view
// at most a third, so nothing wraps. Part of validate; throws InputError.
inline constexpr std::uint64_t stream_position_limit = std::uint64_t(1) << 62;
void check_stream_positions(const Configuration& config);

// e.g. "ranmar48x/8/interleave/increment/1802,9373"; options that differ from their defaults
// are appended (";zero=smallest", ";skip=1000"). An external stream is its generator
// ("stdin32", "file64:PATH"), or with --name NAME its kind and name ("stdin32[NAME]",
// "file64[NAME]": the path is left out, so the files of one generator's seeds are one
// configuration), then ";seed=S", ";skip=N" and ";view=V" where given.
std::string canonical_name(const Configuration& config);

// The exact inverse of canonical_name: the configuration a canonical name stands for (backend
// "cpu"). An mtdc name keeps only the file name of its parameter sets, so a file is looked up
// relative to the working directory and its SHA-256 must match the name's. Throws InputError for
// a name that is not canonical (canonical_name of the result must give the name back).
// params_file, when given, is where an mtdc name's parameter sets are (a stored run's location of
// them); its file name must be the name's. input_path is where a named file stream's input is
// ("file[NAME]" leaves its path out; a stored run's generator column holds it): such a name
// without it is refused.
Configuration parse_canonical_name(const std::string& name, const std::string& params_file = "",
    const std::string& input_path = "");

// The canonical name with its seed field replaced by "*": the key of a configuration's family
// across seeds ("ranmar48/1/single/increment/*;zero=smallest"). An external stream's ";seed=S"
// becomes ";seed=*" ("stdin32[xorshift];seed=*"); one without a seed is its own key.
std::string seed_family(const std::string& canonical);

// Resolution in bits of the configuration's stream.
int resolution_bits(const Configuration& config);

// SHA-256 of the configuration's parameter-set file ("" when it has none; family_mt.cpp).
std::string params_sha256(const Configuration& config);

// The single-instance configuration that reproduces instance i of a validated `config` on its
// own (its seed, its parameter set, layout single), itself valid. Each family's seeding of its
// instances is its row's (instance_seed, in generators/family_<name>.cpp) and only there; split:S
// is this function's skip.
Configuration instance_configuration(const Configuration& config, int i);

// Builds the stream of a validated configuration on the reference (CPU) engines.
std::unique_ptr<Stream> make_stream(const Configuration& config);

// The view of c (view.hpp) over the streams `make` builds for c's outputs (c with the top32
// view and a skip in outputs). For top32, make(c) itself, except for 64-bit outputs (stdin64,
// file64:), whose top32 is the view of their high halves: `make` must then return the raw
// outputs, as make_stream's own does.
std::unique_ptr<Stream> make_viewed_stream(const Configuration& c,
    const std::function<std::unique_ptr<Stream>(const Configuration&)>& make);

} // namespace rngvet
