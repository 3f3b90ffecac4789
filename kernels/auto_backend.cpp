#include "kernels/auto_backend.hpp"

#include "generators/error.hpp"
#include "generators/registry.hpp"
#include "kernels/bench.hpp"
#include "kernels/device.hpp"
#include "process/child_pool.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace rngvet {

Backend resolve_auto_backend(const Configuration& c, const BackendOptions& options,
    std::string* report, int jobs, double seconds)
{
    if (jobs < 1) jobs = 1;
    if (!runs_on(traits(c.generator), Backend::openmp)) {
        if (report) *report = "auto: " + to_string(c.generator) + " runs on cpu only\n";
        return Backend::cpu;
    }
    if (!runs_on(traits(c.generator), Backend::cuda)) {
        // No GPU kernel: openmp where it is built, without measuring (and without the probe,
        // which would initialise the GPU drivers in this process).
        std::string why;
        const Backend host = openmp_usable(why) ? Backend::openmp : Backend::cpu;
        if (report)
            *report = "auto: " + to_string(c.generator) + " runs on cpu and openmp only; chose "
                + to_string(host) + "\n";
        return host;
    }
    // Everything in the child, the probe included: this process must not initialise a GPU
    // driver (nor PoCL) before it forks the workers, nor fork with one initialised.
    const std::string text = answer_in_child(
        [&] {
            const BackendProbe& pr = backend_probe();
            const Backend host = pr.has(Backend::openmp) ? Backend::openmp : Backend::cpu;
            // Backend::automatic: none.
            Backend gpu = pr.has(Backend::cuda)                   ? Backend::cuda
                : pr.has(Backend::opencl) && opencl_gpu_present() ? Backend::opencl
                                                                  : Backend::automatic;
            // Tests on machines without a GPU name a backend to play its part (opencl on PoCL).
            if (const char* env = std::getenv("RNGVET_AUTO_GPU"); env && *env) {
                const std::string named = env;
                const auto it = std::find_if(pr.available.begin(), pr.available.end(),
                    [&](Backend b) { return named == to_string(b); });
                if (it == pr.available.end() || *it == host)
                    throw InputError("RNGVET_AUTO_GPU='" + named
                        + "' is not an available backend other than " + to_string(host)
                        + " (available: " + pr.available_list() + ")");
                gpu = *it;
            }
            if (gpu == Backend::automatic)
                return "auto: no GPU backend here (" + pr.why(Backend::cuda) + ")\n"
                    + to_string(host) + "\n";
            // Delivery to host memory in place, as the feed reads it, at the run's launch length.
            std::string lines, best;
            double best_share = -1;
            for (const Backend b : { gpu, host }) {
                Configuration k = c;
                k.backend = b;
                try {
                    const double rate = measure_stream(k, options.launch_numbers, "host", seconds,
                        options.segments, options.segment_length)
                                            .numbers_per_second();
                    const double share = b == gpu ? rate : rate / jobs;
                    char line[200];
                    std::snprintf(line, sizeof line,
                        "auto: %s delivers %.4g numbers/s to host memory (%.4g per worker of %d)\n",
                        to_string(b), rate, share, jobs);
                    lines += line;
                    if (share > best_share) {
                        best_share = share;
                        best = to_string(b);
                    }
                } catch (const std::exception& e) {
                    lines += "auto: " + std::string(to_string(b)) + " failed: " + e.what() + "\n";
                }
            }
            if (best.empty())
                throw InputError("--backend auto: no backend could run " + canonical_name(c) + " ("
                    + lines + ")");
            return lines + "auto: chose " + best + "\n" + best + "\n";
        },
        "the measurement of --backend auto");
    // The last line is the backend, the others the report.
    std::string body = text;
    if (!body.empty() && body.back() == '\n') body.pop_back();
    const auto nl = body.find_last_of('\n');
    const std::string chosen = nl == std::string::npos ? body : body.substr(nl + 1);
    if (report) *report = nl == std::string::npos ? "" : body.substr(0, nl + 1);
    if (report && report->find("auto: chose") == std::string::npos)
        *report += "auto: chose " + chosen + "\n";
    return parse_backend(chosen);
}

} // namespace rngvet
