#include "registry.hpp"

#include "error.hpp"

#include <stdexcept>

namespace rngvet {

const std::vector<GeneratorTraits>& generator_registry()
{
    static const std::vector<GeneratorTraits> table = {
        { GeneratorKind::ranmar24, "ranmar24", GeneratorFamily::ranmar, RanmarVariant::r24, 24,
            "IJ,KL or IJKL", false },
        { GeneratorKind::ranmar48, "ranmar48", GeneratorFamily::ranmar, RanmarVariant::r48, 48,
            "IJ,KL or IJKL", false },
        { GeneratorKind::ranmar48x, "ranmar48x", GeneratorFamily::ranmar, RanmarVariant::r48x, 48,
            "IJ,KL or IJKL", false },
        { GeneratorKind::mtdc, "mtdc", GeneratorFamily::mt, RanmarVariant::r48, 32, "S", true },
        { GeneratorKind::mt19937, "mt19937", GeneratorFamily::mt, RanmarVariant::r48, 32,
            "S or K1,K2,...", false },
        { GeneratorKind::r250, "r250", GeneratorFamily::r250, RanmarVariant::r48, 32, "S", false,
            R250Taps::stated },
        { GeneratorKind::r250gsl, "r250gsl", GeneratorFamily::r250, RanmarVariant::r48, 32, "S",
            false, R250Taps::gsl },
        { GeneratorKind::stdin32, "stdin32", GeneratorFamily::external, RanmarVariant::r48, 32, "",
            false },
        { GeneratorKind::file, "file:PATH", GeneratorFamily::external, RanmarVariant::r48, 32, "",
            false, R250Taps::stated, "file:", true },
        { GeneratorKind::stdin64, "stdin64", GeneratorFamily::external, RanmarVariant::r48, 64, "",
            false },
        { GeneratorKind::file64, "file64:PATH", GeneratorFamily::external, RanmarVariant::r48, 64,
            "", false, R250Taps::stated, "file64:", true },
        { GeneratorKind::plugin, "lib:PATH[:SYMBOL]", GeneratorFamily::plugin, RanmarVariant::r48,
            0, "S or S1,S2,...", false, R250Taps::stated, "lib:", true },
    };
    return table;
}

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

const std::vector<FamilyTraits>& family_registry()
{
    static const std::vector<FamilyTraits> table
        = { ranmar_family(), mt_family(), r250_family(), external_family(), plugin_family() };
    return table;
}

const FamilyTraits& family_traits(GeneratorFamily family)
{
    for (const FamilyTraits& f : family_registry())
        if (f.family == family) return f;
    throw std::logic_error("generator family missing from the family table");
}

const GeneratorTraits& traits(GeneratorKind kind)
{
    for (const GeneratorTraits& t : generator_registry())
        if (t.kind == kind) return t;
    throw std::logic_error("generator kind missing from the registry");
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

namespace {

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

} // namespace

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
        if (t.kind == GeneratorKind::plugin) {
            // lib:PATH:SYMBOL: a symbol after the path's last ':'.
            const auto colon = g.path.rfind(':');
            if (colon != std::string::npos && colon > 0
                && is_identifier(g.path.substr(colon + 1))) {
                g.symbol = g.path.substr(colon + 1);
                g.path = g.path.substr(0, colon);
            }
        }
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
    return a.kind == b.kind && a.path == b.path && a.symbol == b.symbol;
}

bool operator!=(const GeneratorName& a, const GeneratorName& b)
{
    return !(a == b);
}

bool reads_file(const GeneratorName& g)
{
    return g.kind == GeneratorKind::file || g.kind == GeneratorKind::file64;
}

std::string hashed_file(const GeneratorName& g)
{
    return traits(g).hashed ? g.path : "";
}

int external_word_bytes(const GeneratorName& g)
{
    if (!family_traits(g).reads_words) return 0;
    return g.kind == GeneratorKind::stdin64 || g.kind == GeneratorKind::file64 ? 8 : 4;
}

std::string to_string(const GeneratorName& g)
{
    const std::string prefix = traits(g).prefix;
    if (prefix.empty()) return traits(g).name;
    return prefix + g.path + (g.symbol.empty() ? "" : ":" + g.symbol);
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
    return { Backend::cpu, Backend::openmp, Backend::opencl, Backend::cuda, Backend::automatic };
}

const Words& backend_words()
{
    static const Words words = {
        { "cpu", "the reference; the default" },
        { "openmp", "" },
        { "opencl", "" },
        { "cuda", "" },
        { "auto", "the faster of the GPU and openmp, measured; the run records the one chosen" },
    };
    return words;
}

bool runs_on(const GeneratorTraits& g, Backend b)
{
    const FamilyTraits& f = family_traits(g.family);
    switch (b) {
    case Backend::cpu:
    case Backend::automatic:
        return true;
    case Backend::openmp:
        return f.on_devices;
    case Backend::opencl:
    case Backend::cuda:
        return f.on_devices && f.on_gpus;
    }
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
    switch (backend) {
    case Backend::cpu:
        return "cpu";
    case Backend::openmp:
        return "openmp";
    case Backend::opencl:
        return "opencl";
    case Backend::cuda:
        return "cuda";
    case Backend::automatic:
        return "auto";
    }
    return "?";
}

} // namespace rngvet
