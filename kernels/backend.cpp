#include "kernels/backend.hpp"

#include "generators/error.hpp"
#include "kernels/device_stream.hpp"
#include "kernels/families.hpp"
#include "process/child_pool.hpp"
#include "process/memory.hpp"

#include <algorithm>
#include <stdexcept>

namespace rngvet {

std::vector<std::string> check_backend_stream(const Configuration& c)
{
    if (c.backend != Backend::cuda && c.backend != Backend::opencl) {
        (void)make_backend_stream(c);
        return backend_devices(c.backend);
    }
    // The child answers with one device per line.
    const std::string text = answer_in_child(
        [&] {
            (void)make_backend_stream(c);
            std::string devices;
            for (const std::string& d : backend_devices(c.backend))
                devices += d + "\n";
            return devices;
        },
        std::string("backend '") + to_string(c.backend) + "': the check of the configuration");
    std::vector<std::string> devices;
    std::size_t at = 0;
    for (std::size_t nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1)
        devices.push_back(text.substr(at, nl - at));
    return devices;
}

bool BackendProbe::has(Backend b) const
{
    return std::find(available.begin(), available.end(), b) != available.end();
}

const std::string& BackendProbe::why(Backend b) const
{
    static const std::string none;
    const auto at = unavailable.find(b);
    return at == unavailable.end() ? none : at->second;
}

std::string BackendProbe::available_list() const
{
    std::string s;
    for (const Backend b : available)
        s += (s.empty() ? "" : ", ") + std::string(to_string(b));
    return s;
}

const BackendProbe& backend_probe()
{
    static const BackendProbe result = [] {
        BackendProbe p;
#define RNGVET_PROBE(name, gpu)                                                                    \
    if (std::string why; name##_usable(why))                                                       \
        p.available.push_back(Backend::name);                                                      \
    else                                                                                           \
        p.unavailable[Backend::name] = why;
        RNGVET_FOR_EACH_KERNEL_BACKEND(RNGVET_PROBE)
#undef RNGVET_PROBE
        return p;
    }();
    return result;
}

std::vector<Backend> available_backends()
{
    return backend_probe().available;
}

std::string backend_unavailable_reason(Backend backend)
{
    const BackendProbe& pr = backend_probe();
    if (backend == Backend::automatic || pr.has(backend)) return "";
    return pr.why(backend);
}

Backend parse_backend_here(const std::string& text)
{
    try {
        return parse_backend(text);
    } catch (const InputError& e) {
        throw InputError(
            std::string(e.what()) + "; available: " + backend_probe().available_list());
    }
}

std::vector<std::string> backend_devices(Backend backend)
{
    if (backend == Backend::cpu) return { "reference engine (one host thread)" };
#define RNGVET_DEVICES_OF(name, gpu)                                                               \
    if (backend == Backend::name) return name##_device_names();
    RNGVET_FOR_EACH_KERNEL_BACKEND(RNGVET_DEVICES_OF)
#undef RNGVET_DEVICES_OF
    return {};
}

std::unique_ptr<Stream> make_backend_stream(const Configuration& c)
{
    return make_backend_stream(c, BackendOptions{});
}

std::string jump_parallel_plan(const Configuration& c, const BackendOptions& options)
{
    if (!runs_on(traits(c.generator), Backend::cuda) || c.backend == Backend::cpu) return "";
    SegmentPlan plan;
    visit_kernel_family(
        family(c.generator), [&](auto kernels) { plan = decltype(kernels)::plan(c, options); });
    if (plan.segments <= 1) return "";
    return std::to_string(plan.segments) + " units x " + std::to_string(plan.length)
        + " numbers per instance";
}

std::unique_ptr<Stream> make_backend_stream(const Configuration& c, const BackendOptions& options)
{
    if (c.backend == Backend::automatic)
        throw InputError("--backend auto is resolved once by run, generate and bench --feed "
                         "(resolve_auto_backend), not per stream");
    if (c.backend == Backend::cpu) return make_stream(c); // with its view
    if (c.view != BitView::top32)
        return make_viewed_stream(
            c, [&](const Configuration& outputs) { return make_backend_stream(outputs, options); });
    const BackendProbe& pr = backend_probe();
    const std::string backend = to_string(c.backend);
    if (!pr.has(c.backend))
        throw InputError("backend '" + backend + "' is not available (" + pr.why(c.backend)
            + "); available: " + pr.available_list());
    if (options.launch_numbers == 0) throw InputError("launch_numbers must be at least 1");
    const GeneratorTraits& g = traits(c.generator);
    if (!runs_on(g, Backend::openmp)) {
        // The generators with kernels, from the registry's rows.
        std::vector<std::string> kernels;
        for (const GeneratorTraits& row : generator_registry())
            if (runs_on(row, c.backend)) kernels.push_back(row.name);
        std::string list;
        for (std::size_t i = 0; i < kernels.size(); ++i)
            list += (i == 0 ? "" : i + 1 == kernels.size() ? " and " : ", ") + kernels[i];
        throw InputError("backend '" + backend + "' runs " + list + "; use --backend cpu for '"
            + to_string(c.generator) + "'");
    }
    if (!runs_on(g, c.backend))
        throw InputError("backend '" + backend + "' has no kernel for '" + to_string(c.generator)
            + "'; it runs on cpu and openmp (or --backend auto)");
    std::unique_ptr<Stream> stream;
    visit_kernel_family(g.family, [&](auto kernels) {
        using Family = decltype(kernels);
        const typename Family::Setup setup = Family::setup(c, Family::plan(c, options));
        stream = make_device_stream(make_device<Family>(c.backend, setup, options.device),
            setup.start, setup.bits, setup.name, options.launch_numbers);
    });
    if (!stream)
        throw std::logic_error("make_backend_stream: the registry gives '" + to_string(c.generator)
            + "' kernels that kernels/families.hpp does not list");
    return stream;
}

Configuration resolve_configuration_here(const ConfigurationText& text)
{
    // The generator states alone, bounded from above by the family's row.
    const std::uint64_t state_bytes = family_traits(parse_generator(text.generator)).state_bytes;
    check_fits_in_memory(std::uint64_t(text.instances > 0 ? text.instances : 0) * state_bytes,
        "--instances " + std::to_string(text.instances));
    (void)parse_backend_here(text.backend);
    return resolve_configuration(text);
}

} // namespace rngvet
