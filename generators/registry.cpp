#include "registry.hpp"

#include "error.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace rngvet {

// A seed of one number (or of several, which no series continues): a series counts it up by 1.
std::vector<std::int64_t> single_series(const std::vector<std::int64_t>& first, std::int64_t k)
{
    if (first.size() != 1)
        throw InputError("the seed " + seed_string(first)
            + " is a list of several numbers, which no series of seeds continues; give one "
              "number");
    return { first[0] + k };
}

std::vector<std::int64_t> single_seed_of_number(const std::string&, std::int64_t n)
{
    return { n };
}

std::int64_t single_number_of_seed(const std::vector<std::int64_t>& seed)
{
    return seed.size() == 1 ? seed[0] : -1;
}

std::string describe_computed(const GeneratorTraits& g)
{
    const FamilyTraits& f = family_traits(g.family);
    return std::to_string(g.bits) + "-bit outputs, --seed " + g.seed_format
        + (g.parameter_sets ? ", --params" : "")
        + (f.on_devices && !f.on_gpus ? ", cpu and openmp only" : "");
}

// Each family file's row function, from the list of family files the build writes
// (generators/CMakeLists.txt): RNGVET_FAMILY(name) for generators/family_<name>.cpp. Naming
// every function here links every family file into every binary that links the registry.
#define RNGVET_FAMILY(name) const FamilyTraits& name##_family();
#include "family_files.inc"
#undef RNGVET_FAMILY

namespace {

std::vector<FamilyTraits> make_family_registry()
{
    std::vector<FamilyTraits> table = {
#define RNGVET_FAMILY(name) name##_family(),
#include "family_files.inc"
#undef RNGVET_FAMILY
    };
    std::stable_sort(table.begin(), table.end(),
        [](const FamilyTraits& a, const FamilyTraits& b) { return a.order < b.order; });
    std::set<std::string> families;
    std::set<std::string> kinds;
    for (const FamilyTraits& f : table) {
        if (f.family.word() != std::string(f.name) || !families.insert(f.name).second)
            throw std::logic_error(
                std::string("generator family '") + f.name + "' is named twice or not by its word");
        for (const GeneratorTraits& g : f.generators)
            if (g.family != f.family || !kinds.insert(g.kind.word()).second)
                throw std::logic_error(std::string("generator '") + g.kind.word()
                    + "' is named twice or is in a family not its own");
    }
    return table;
}

} // namespace

const std::vector<FamilyTraits>& family_registry()
{
    static const std::vector<FamilyTraits> table = make_family_registry();
    return table;
}

const std::vector<GeneratorTraits>& generator_registry()
{
    static const std::vector<GeneratorTraits> table = [] {
        std::vector<GeneratorTraits> rows;
        for (const FamilyTraits& f : family_registry())
            rows.insert(rows.end(), f.generators.begin(), f.generators.end());
        return rows;
    }();
    return table;
}

const FamilyTraits& family_traits(GeneratorFamily family)
{
    for (const FamilyTraits& f : family_registry())
        if (f.family == family) return f;
    throw std::logic_error(
        std::string("generator family '") + family.word() + "' missing from the family table");
}

const GeneratorTraits& traits(GeneratorKind kind)
{
    for (const GeneratorTraits& t : generator_registry())
        if (t.kind == kind) return t;
    throw std::logic_error(
        std::string("generator '") + kind.word() + "' missing from the registry");
}

std::string seed_string(const std::vector<std::int64_t>& seed)
{
    std::string s;
    for (std::size_t i = 0; i < seed.size(); ++i)
        s += (i ? "," : "") + std::to_string(seed[i]);
    return s.empty() ? "-" : s;
}

std::string generator_list()
{
    std::string list;
    for (const GeneratorTraits& t : generator_registry())
        list += (list.empty() ? "" : ", ") + std::string(t.name);
    return list;
}

GeneratorName parse_generator(const std::string& name)
{
    const std::string lower = lower_case(name);
    for (const GeneratorTraits& t : generator_registry()) {
        const std::string prefix = t.prefix; // "file:"
        if (prefix.empty() || lower.rfind(prefix, 0) != 0) continue;
        if (name.size() == prefix.size())
            throw InputError(
                "--generator " + std::string(t.name) + " needs a path after '" + prefix + "'");
        GeneratorName g{ t.kind, name.substr(prefix.size()) };
        if (family_traits(t.family).parse_argument) family_traits(t.family).parse_argument(g);
        return g;
    }
    for (const GeneratorTraits& t : generator_registry())
        if (std::string(t.prefix).empty() && lower == t.name) return { t.kind };
    throw InputError("unknown generator '" + name + "' (valid: " + generator_list() + ")");
}

GeneratorName::GeneratorName(const std::string& name)
    : GeneratorName(parse_generator(name))
{
}

GeneratorName::GeneratorName(const char* name)
    : GeneratorName(parse_generator(name))
{
}

bool operator==(const GeneratorName& a, const GeneratorName& b)
{
    return a.kind == b.kind && a.path == b.path && a.qualifier == b.qualifier;
}

bool operator!=(const GeneratorName& a, const GeneratorName& b)
{
    return !(a == b);
}

bool reads_file(const GeneratorName& g)
{
    return family_traits(g).reads_words && *traits(g).prefix;
}

std::string hashed_file(const GeneratorName& g)
{
    return traits(g).hashed ? g.path : "";
}

int external_word_bytes(const GeneratorName& g)
{
    return family_traits(g).reads_words ? traits(g).bits / 8 : 0;
}

std::string to_string(const GeneratorName& g)
{
    const std::string prefix = traits(g).prefix;
    if (prefix.empty()) return traits(g).name;
    return prefix + g.path + (g.qualifier.empty() ? "" : ":" + g.qualifier);
}

const Words& zero_words()
{
    static const Words words = {
        { "keep", "an exact 0 stays 0, as James; the default" },
        { "smallest", "0 becomes 2^-bits, as CERNLIB and CORSIKA" },
    };
    return words;
}

ZeroPolicy parse_zero_policy(const std::string& text)
{
    for (const ZeroPolicy zero : { ZeroPolicy::keep, ZeroPolicy::smallest })
        if (text == to_string(zero)) return zero;
    throw InputError(
        "unknown zero convention '" + text + "' (valid: " + word_list(zero_words()) + ")");
}

const char* to_string(ZeroPolicy zero)
{
    return zero == ZeroPolicy::smallest ? "smallest" : "keep";
}

std::vector<Backend> all_backends()
{
#define RNGVET_BACKEND_OF(name, gpu) Backend::name,
    return { Backend::cpu, RNGVET_FOR_EACH_KERNEL_BACKEND(RNGVET_BACKEND_OF) Backend::automatic };
#undef RNGVET_BACKEND_OF
}

const Words& backend_words()
{
#define RNGVET_BACKEND_WORD(name, gpu) { #name, "" },
    static const Words words = {
        { "cpu", "the reference; the default" },
        RNGVET_FOR_EACH_KERNEL_BACKEND(RNGVET_BACKEND_WORD){
            "auto", "the faster of the GPU and openmp, measured; the run records the one chosen" },
    };
#undef RNGVET_BACKEND_WORD
    return words;
}

bool runs_on(const GeneratorTraits& g, Backend b)
{
    const FamilyTraits& f = family_traits(g.family);
    if (b == Backend::cpu || b == Backend::automatic) return true;
#define RNGVET_RUNS_ON(name, gpu)                                                                  \
    if (b == Backend::name) return f.on_devices && (!(gpu) || f.on_gpus);
    RNGVET_FOR_EACH_KERNEL_BACKEND(RNGVET_RUNS_ON)
#undef RNGVET_RUNS_ON
    return false;
}

Backend parse_backend(const std::string& text)
{
    const std::string name = lower_case(text);
    for (Backend b : all_backends())
        if (name == to_string(b)) return b;
    throw InputError("unknown backend '" + text + "' (valid: " + word_list(backend_words()) + ")");
}

const char* to_string(Backend backend)
{
    if (backend == Backend::cpu) return "cpu";
    if (backend == Backend::automatic) return "auto";
#define RNGVET_BACKEND_NAME(name, gpu)                                                             \
    if (backend == Backend::name) return #name;
    RNGVET_FOR_EACH_KERNEL_BACKEND(RNGVET_BACKEND_NAME)
#undef RNGVET_BACKEND_NAME
    return "?";
}

} // namespace rngvet
