#include "registry.hpp"

#include "engines.hpp"
#include "error.hpp"

#include <stdexcept>

namespace rngvet {

const std::vector<GeneratorTraits>& generator_registry()
{
    static const std::vector<GeneratorTraits> table = {
        { GeneratorKind::ranmar24, "ranmar24", GeneratorFamily::ranmar, RanmarVariant::r24, 24,
            "IJ,KL", false, true, true, make_ranmar_reference },
        { GeneratorKind::ranmar48, "ranmar48", GeneratorFamily::ranmar, RanmarVariant::r48, 48,
            "IJ,KL", false, true, true, make_ranmar_reference },
        { GeneratorKind::ranmar48x, "ranmar48x", GeneratorFamily::ranmar, RanmarVariant::r48x, 48,
            "IJ,KL", false, true, true, make_ranmar_reference },
        { GeneratorKind::mtdc, "mtdc", GeneratorFamily::mt, RanmarVariant::r48, 32, "S", true, true,
            true, make_mt_reference },
        { GeneratorKind::mt19937, "mt19937", GeneratorFamily::mt, RanmarVariant::r48, 32,
            "S or K1,K2,...", false, true, true, make_mt_reference },
        { GeneratorKind::r250, "r250", GeneratorFamily::r250, RanmarVariant::r48, 32, "S", false,
            true, false, make_r250_reference, R250Taps::stated },
        { GeneratorKind::r250gsl, "r250gsl", GeneratorFamily::r250, RanmarVariant::r48, 32, "S",
            false, true, false, make_r250_reference, R250Taps::gsl },
        { GeneratorKind::stdin32, "stdin32", GeneratorFamily::external, RanmarVariant::r48, 32, "",
            false, false, false, make_external_reference },
        { GeneratorKind::file, "file:PATH", GeneratorFamily::external, RanmarVariant::r48, 32, "",
            false, false, false, make_external_reference },
    };
    return table;
}

const GeneratorTraits& traits(GeneratorKind kind)
{
    for (const GeneratorTraits& t : generator_registry())
        if (t.kind == kind) return t;
    throw std::logic_error("generator kind missing from the registry");
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
    static const std::string file_prefix = "file:";
    if (name.rfind(file_prefix, 0) == 0) {
        if (name.size() == file_prefix.size())
            throw InputError("--generator file:PATH needs a path after 'file:'");
        return { GeneratorKind::file, name.substr(file_prefix.size()) };
    }
    for (const GeneratorTraits& t : generator_registry())
        if (t.kind != GeneratorKind::file && name == t.name) return { t.kind };
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
    return a.kind == b.kind && a.path == b.path;
}

bool operator!=(const GeneratorName& a, const GeneratorName& b)
{
    return !(a == b);
}

std::string to_string(const GeneratorName& g)
{
    return g.kind == GeneratorKind::file ? "file:" + g.path : traits(g).name;
}

ZeroPolicy parse_zero_policy(const std::string& text)
{
    if (text == "keep") return ZeroPolicy::keep;
    if (text == "smallest") return ZeroPolicy::smallest;
    throw InputError("unknown zero convention '" + text + "' (valid: keep, smallest)");
}

const char* to_string(ZeroPolicy zero)
{
    return zero == ZeroPolicy::smallest ? "smallest" : "keep";
}

std::vector<Backend> all_backends()
{
    return { Backend::cpu, Backend::openmp, Backend::opencl, Backend::cuda, Backend::automatic };
}

bool runs_on(const GeneratorTraits& g, Backend b)
{
    switch (b) {
    case Backend::cpu:
    case Backend::automatic:
        return true;
    case Backend::openmp:
        return g.on_devices;
    case Backend::opencl:
    case Backend::cuda:
        return g.on_devices && g.on_gpus;
    }
    return false;
}

Backend parse_backend(const std::string& text)
{
    for (Backend b : all_backends())
        if (text == to_string(b)) return b;
    throw InputError("unknown backend '" + text + "' (valid: cpu, openmp, opencl, cuda, auto)");
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
