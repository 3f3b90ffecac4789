// What a configuration's words name, typed: the generator (one row of the registry table below,
// which its family's file states), RANMAR's zero policy and the backend. Each is parsed from its
// command-line spelling in one place (parse_generator, parse_zero_policy, parse_backend) with one
// error message, and written back by to_string; everything after the parse asks the rows or
// compares the typed words (generator_id.hpp).
#pragma once

#include "backend_list.hpp"
#include "generator_id.hpp"
#include "ranmar.hpp" // ZeroPolicy
#include "words.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rngvet {

struct Configuration;
class Stream;

// A generator as a configuration names it: its kind, and for a name with an argument (file:PATH,
// file64:PATH, lib:PATH[:SYMBOL]) the path and what its family reads after it. It converts from its
// name
// ("ranmar48", "file:words.bin") through parse_generator, so a name that is not a generator is
// an InputError where it is given.
struct GeneratorName {
    GeneratorKind kind{ "ranmar48" }; // the default generator
    // The argument after the row's prefix: the file of 32-bit or 64-bit words (file:, file64:),
    // the library (lib:).
    std::string path;
    // What the family's parse_argument takes off the end of the argument, written back after a
    // ':' (PREFIX PATH[:QUALIFIER]: a plugin's exported function); "" for none.
    std::string qualifier;

    GeneratorName() = default;
    GeneratorName(GeneratorKind k, std::string file_path = "")
        : kind(k)
        , path(std::move(file_path))
    {
    }
    GeneratorName(const std::string& name);
    GeneratorName(const char* name);
};

bool operator==(const GeneratorName& a, const GeneratorName& b);
bool operator!=(const GeneratorName& a, const GeneratorName& b);

// One row of the registry: what a generator is.
struct GeneratorTraits {
    GeneratorKind kind; // the word that names it in the code ("ranmar48", "file")
    const char* name; // as written after --generator ("file:PATH", "file64:PATH" for the files)
    GeneratorFamily family;
    // Resolution of its outputs (before a view). 64 for the 64-bit external streams, whose
    // outputs are always read through a view of 32-bit words (make_stream); 0 for a plugin,
    // whose library says (32 or 64: output_bits of configuration.hpp).
    int bits;
    const char* seed_format; // what --seed takes ("" for none)
    bool parameter_sets; // takes --params and --param-id
    // The prefix of a name with an argument ("file:", "file64:", "lib:"); "" for none.
    const char* prefix = "";
    // Whether a run records the SHA-256 of the file its name holds (runs.input_sha256): the
    // input files, the plugin library.
    bool hashed = false;
};

// One row per family: what every generator of the family shares, stated once, so that the
// files that would switch on the family (the seeds' series and one-number form, the
// configuration's memory bound and its checks, its canonical name, its reference stream and
// instance seeding, librngvet's `auto` and CERNLIB seeds, `rngvet list`, the reports) ask the
// row instead. Each row is its family's file, generators/family_<name>.cpp (family_ranmar,
// family_mt, family_r250, family_external, family_plugin), with the family's answers and its
// generators' rows; the engines, their seeding and jumps, and the words of its kinds and family,
// are its header's (ranmar.hpp, mt.hpp, r250.hpp, plugin.hpp; the external streams' words are
// their family file's, as nothing else names them); its kernels, where it has any, the traits
// of kernels/families.hpp's list.
struct FamilyTraits {
    GeneratorFamily family;
    const char* name; // "ranmar", "mt", "r250", "external", "plugin"
    // The backends that have its arithmetic beside cpu: the kernels of kernels/ on openmp
    // (on_devices), and on opencl and cuda as well (on_gpus). runs_on reads them; kernels/
    // families.hpp lists the kernels, and tests/test_backends.cpp checks that the two agree.
    bool on_devices;
    bool on_gpus;
    // Whether its stream is words read from outside rngvet (no seed, one instance, cpu only).
    bool reads_words;
    // An upper bound of one instance's state in bytes: the --instances bound checked before
    // anything is allocated (a Mersenne Twister keeps p/32 + 1 words, 1391 for p = 44497;
    // RANMAR 97 table words and its sequence; R250 250 words).
    std::uint64_t state_bytes;
    // The first seed of a series when none is given (docs/findings.md's first seeds).
    std::vector<std::int64_t> first_seed;
    // Seed k of the series that starts at `first` (series_seed of configuration.hpp); null for
    // a family without seeds.
    std::vector<std::int64_t> (*series)(const std::vector<std::int64_t>& first, std::int64_t k);
    // The seed that one number n stands for (RANMAR's IJKL: its IJ,KL; the others: n), for
    // `generator`'s messages; InputError where n is out of the form's range. Null for a family
    // without seeds.
    std::vector<std::int64_t> (*seed_of_number)(const std::string& generator, std::int64_t n);
    // The inverse, where the seed is one number's (RANMAR's IJ,KL: IJKL; a single seed: itself),
    // else -1; null for a family whose seeds are not numbers of that form (external, plugin).
    std::int64_t (*number_of_seed)(const std::vector<std::int64_t>& seed);
    // What `rngvet list` says of a generator of the family, in its parentheses.
    std::string (*describe)(const GeneratorTraits& generator);

    // The options only some families take: --params and --param-id (the Mersenne Twisters;
    // mt19937 keeps a --param-id, which its instance configurations count like mtdc's) and
    // --zero (RANMAR). validate refuses them elsewhere, with one message each.
    bool takes_params;
    bool takes_zero;
    // The family's part of validate (configuration.hpp), after the checks every configuration
    // shares: its seeds, its parameters or library. Throws InputError.
    void (*check)(const Configuration& config);
    // The reference (CPU) stream of a validated configuration, with the top32 view, before its
    // skip (make_stream applies both).
    std::unique_ptr<Stream> (*make_reference)(const Configuration& config);
    // What a canonical name's first field is: null for the generator's name, else the family's
    // head ("mtdc[SETS#HASH@ID]", "lib[NAME#HASH]").
    std::string (*canonical_head)(const Configuration& config);
    // The whole canonical name, for a family whose names have no five fields (the external
    // streams); null for generator/instances/layout/seeding/seed.
    std::string (*canonical_name)(const Configuration& config);
    // What load_param_sets loads into the configuration (mtdc's sets, a plugin's library);
    // null for nothing.
    void (*load)(Configuration& config);
    // Instance i's seed (and parameter set) in `one`, the single-instance configuration of
    // instance_configuration; null where instances have no seeds (the external streams).
    void (*instance_seed)(const Configuration& config, int i, Configuration& one);
    // The bits of its outputs before a view, where the generator's row does not say (a
    // plugin's library); null for the row's.
    int (*output_bits)(const Configuration& config);
    // Whether the stream jumps ahead without making the numbers it skips (jumps_ahead).
    bool (*jumps_ahead)(const Configuration& config);
    // parse_canonical_name's side of canonical_head: the prefix of the family's head ("mtdc[",
    // "lib["; null for none); parse_head reads such a head (which ends in ']') into the
    // configuration's generator, parameters or library and the hash the head names, and returns
    // why it is not a head of the family ("" when it is), input_path being where the run's
    // library is (a plugin's head leaves it out) and params_file where its parameter sets are;
    // head_mismatch, after the configuration is loaded, why the hash is not that of what was
    // loaded ("" when it is; null for a family without a hash).
    const char* head_prefix;
    std::string (*parse_head)(const std::string& head, const std::string& params_file,
        const std::string& input_path, Configuration& config, std::string& hash);
    std::string (*head_mismatch)(const Configuration& config, const std::string& hash);
    // Its place in the registry: the families in ascending `order` (ranmar 10, mt 20, r250 30,
    // external 40, plugin 50), then each family's generators in their order, are `rngvet list`'s
    // order and the order in which parse_generator tries the names.
    int order;
    // Its generators, the rows of the registry (each row's `family` is this family's).
    std::vector<GeneratorTraits> generators;
    // What a name's argument holds besides the path, taken off g.path after the row's prefix is
    // (a plugin's :SYMBOL); InputError where it is not such an argument. Null for the path alone.
    void (*parse_argument)(GeneratorName& g);
    // Why a configuration whose stream does not jump ahead (jumps_ahead false) cannot: the clause
    // of the refusals of sharded runs and campaigns ("the plugin 'NAME' has no skip function");
    // null for a family that always jumps ahead.
    std::string (*why_no_jumps)(const Configuration& config);
    // The SHA-256 of the file that a configuration of the family loaded, taken as it was loaded
    // (a plugin's library): what its run records, what a campaign's tasks pin, and what a
    // resumed run checks before the file is loaded again. Null for a family that loads no file.
    std::string (*loaded_sha256)(const Configuration& config);
};

// The family rows: each family file generators/family_<name>.cpp defines its row as
// `const FamilyTraits& <name>_family()`, and the registry asks each of them, from the list of
// family files that the build writes (generators/CMakeLists.txt), so that no file names them all.

// What the families of single-number seeds share (mt, r250, plugin): a series counts the seed
// up by 1; one number n is the seed n and back. And `rngvet list`'s line of a family rngvet
// computes.
std::vector<std::int64_t> single_series(const std::vector<std::int64_t>& first, std::int64_t k);
std::vector<std::int64_t> single_seed_of_number(const std::string& generator, std::int64_t n);
std::int64_t single_number_of_seed(const std::vector<std::int64_t>& seed);
std::string describe_computed(const GeneratorTraits& generator);

// The family table, one row per family file, in ascending `order`. Throws std::logic_error
// where two families or two generators have one word, or a generator's row names another
// family.
const std::vector<FamilyTraits>& family_registry();
const FamilyTraits& family_traits(GeneratorFamily family);

// The registry, one row per generator: the families' generators, in the order `rngvet list`
// shows them.
const std::vector<GeneratorTraits>& generator_registry();
const GeneratorTraits& traits(GeneratorKind kind);
inline const GeneratorTraits& traits(const GeneratorName& g)
{
    return traits(g.kind);
}
inline GeneratorFamily family(const GeneratorName& g)
{
    return traits(g.kind).family;
}
inline const FamilyTraits& family_traits(const GeneratorName& g)
{
    return family_traits(family(g));
}

// "ranmar48", "file:PATH" and "file64:PATH" with their paths; a name in any case ("RANMAR48"),
// the path as given. Throws InputError for a name not in the registry
// ("unknown generator 'x' (valid: ...)") and for "file:" without a path.
GeneratorName parse_generator(const std::string& name);
std::string to_string(const GeneratorName& g);
// Whether the generator reads a file (file:PATH, file64:PATH); its path is g.path.
bool reads_file(const GeneratorName& g);
// The file whose SHA-256 a run of the generator records (runs.input_sha256) and a resumed run
// checks: an input file's or a plugin library's path; "" for the others.
std::string hashed_file(const GeneratorName& g);
// The external streams' word width in bytes: 4 (stdin32, file:), 8 (stdin64, file64:); 0 for
// the generators rngvet computes.
int external_word_bytes(const GeneratorName& g);
// A seed as the store and canonical names write it: "1802,9373", "-" for none.
std::string seed_string(const std::vector<std::int64_t>& seed);
// The registry's names joined by ", " (for messages and option help).
std::string generator_list();

// RANMAR's exact zero: keep | smallest.
ZeroPolicy parse_zero_policy(const std::string& text);
const Words& zero_words();
const char* to_string(ZeroPolicy zero);

// Where a stream is computed: the reference engine, the kernels of kernels/ on a backend of
// RNGVET_FOR_EACH_KERNEL_BACKEND (backend_list.hpp: OpenMP, OpenCL, CUDA), or "auto" (chosen by
// measuring, before any stream is made).
#define RNGVET_BACKEND_VALUE(name, gpu) name,
enum class Backend { cpu, RNGVET_FOR_EACH_KERNEL_BACKEND(RNGVET_BACKEND_VALUE) automatic };
#undef RNGVET_BACKEND_VALUE
// A backend's name in any case ("CUDA" is cuda).
Backend parse_backend(const std::string& text);
// The values --backend accepts (all_backends, with what each means).
const Words& backend_words();
const char* to_string(Backend backend);
// The backends a configuration can name, "auto" last.
std::vector<Backend> all_backends();
// Whether backend b has the generator's arithmetic: cpu every generator, openmp those whose
// family is on_devices, opencl and cuda those on_gpus; auto every generator (it picks one that
// has it).
bool runs_on(const GeneratorTraits& g, Backend b);

} // namespace rngvet
