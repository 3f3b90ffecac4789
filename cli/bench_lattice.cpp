// rngvet bench --lattice: the 2D Ising chains of the lattice battery (batteries/lattice/ising.hpp)
// as a throughput, beside the generation rate of the stream that drives them.
#include "bench_lattice.hpp"

#include "batteries/lattice/ising.hpp"
#include "batteries/lattice/kaufman.hpp"
#include "batteries/native/source.hpp"
#include "batteries/runner.hpp"
#include "generators/error.hpp"
#include "guards.hpp"
#include "kernels/backend.hpp"
#include "kernels/bench.hpp"
#include "options.hpp"
#include "reports/store.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

namespace rngvet::cli {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Repeats `work(n)` with n doubling from 1 until one call lasts at least `seconds`; the last n
// and its time.
template <class Work> std::pair<std::uint64_t, double> timed(double seconds, const Work& work)
{
    for (std::uint64_t n = 1;; n *= 2) {
        const auto start = std::chrono::steady_clock::now();
        work(n);
        const double s = seconds_since(start);
        if (s >= seconds || n >= (std::uint64_t(1) << 40)) return { n, s };
    }
}

} // namespace

void store_bench_rows(const std::string& db_path, const std::vector<Throughput>& rows)
{
    Store store(db_path);
    for (const auto& r : rows)
        store.insert_bench({ 0, r.what, r.backend, r.backend, r.placement, r.numbers_per_second(),
            r.bytes_per_second(), utc_now(), recorded_command_line() });
}

int bench_lattice(int L, const std::string& backend_text, double seconds,
    const std::string& csv_path, const std::string& db_path)
{
    if (L < 4 || L % 2 != 0 || L > 46340)
        throw InputError(
            "--lattice must be an even side from 4 to 46340, got " + std::to_string(L));
    std::string backend = backend_text;
    if (backend.empty()) {
        const std::vector<Backend> here = available_backends();
        for (const Backend b : { Backend::cuda, Backend::openmp, Backend::cpu })
            if (backend.empty() && std::find(here.begin(), here.end(), b) != here.end())
                backend = to_string(b);
    }
    if (backend.find(',') != std::string::npos) throw InputError("--lattice takes one --backend");
    const bool device = backend == "cuda" || backend == "opencl";
    const int instances = device ? 16384 : backend == "openmp" ? 256 : 1;
    const Configuration config = config_of(
        "ranmar48", instances, instances > 1 ? "interleave" : "single", backend, "1802,9373");
    const double Kc = lattice::critical_coupling();
    std::vector<Throughput> rows;

    // Numbers per launch: on a device, 2^26 (`rngvet bench`'s default), 4096 per instance of the
    // 16384. BackendOptions' default 2^22 gives each instance 256 numbers per launch between
    // loading and storing its state (RANMAR's 97 words): the one difference found from
    // `rngvet bench`'s row, five times faster; the launch sweeps of docs/bench show the same
    // step (16384 ranmar48x instances: about 8.5e10 numbers/s at 2^22, 2.5e11 at 2^26).
    BackendOptions options;
    if (device) options.launch_numbers = std::size_t(1) << 26;

    // The backend's generation rate: left in device memory on a device (where the chain reads
    // it), delivered to host memory otherwise.
    rows.push_back(
        measure_stream(config, options.launch_numbers, device ? "device" : "host", seconds));

    // Metropolis: one chain, sweeps doubling; the first sweep (allocations) not timed.
    {
        const auto stream = make_backend_stream(config, options);
        bool on_device = lattice::run_metropolis_sweeps(L, Kc, 1, *stream);
        const auto [sweeps, s] = timed(seconds, [&](std::uint64_t n) {
            on_device = lattice::run_metropolis_sweeps(L, Kc, n, *stream);
        });
        Throughput t;
        t.what = "ising metropolis L=" + std::to_string(L) + " K=Kc spin updates ("
            + canonical_name(config) + ")";
        t.backend = backend;
        t.placement = on_device ? "device" : "host";
        t.numbers = sweeps * static_cast<std::uint64_t>(L) * static_cast<std::uint64_t>(L);
        t.seconds = s;
        rows.push_back(t);
    }

    // Wolff: replicas on every thread, each on a stream of its own (seeds 1802,k).
    {
        const int replicas = 4 * native::threads();
        std::vector<std::unique_ptr<Stream>> own;
        std::vector<Stream*> streams;
        for (int k = 0; k < replicas; ++k) {
            own.push_back(make_backend_stream(
                config_of("ranmar48", instances, instances > 1 ? "interleave" : "single", backend,
                    "1802," + std::to_string(9373 + k))));
            streams.push_back(own.back().get());
        }
        lattice::IsingRunConfig c;
        c.L = 128;
        c.K = Kc;
        c.algorithm = lattice::IsingAlgorithm::wolff;
        std::uint64_t flips = 0;
        const auto [runs, s] = timed(seconds, [&](std::uint64_t n) {
            c.measurement_steps = lattice::ising_finest_bins * n;
            flips = 0;
            for (const auto& r : lattice::run_ising(c, streams).replicas)
                flips += r.flips;
        });
        (void)runs;
        Throughput t;
        t.what = "ising wolff L=128 K=Kc cluster-spin flips, " + std::to_string(replicas)
            + " replicas (" + canonical_name(config) + ")";
        t.backend = backend;
        t.placement = "host";
        t.numbers = flips;
        t.seconds = s;
        rows.push_back(t);
    }

    // Wolff on the device: the own-lanes replicas (ising.hpp), replica r on instance r of the
    // configuration's 16384, one device thread each; steps per replica doubling, the first call
    // (allocations) not timed. Only where the stream writes device memory.
    if (device)
        for (const int side : { 16, 32, 128 }) {
            const auto stream = make_backend_stream(config, options);
            if (!lattice::run_wolff_own_lanes_on_device(side, Kc, instances, 1, *stream)) break;
            std::uint64_t flips = 0;
            const auto [steps, s] = timed(seconds, [&](std::uint64_t n) {
                flips = lattice::run_wolff_own_lanes_on_device(side, Kc, instances, n, *stream)
                            .value_or(0);
            });
            (void)steps;
            Throughput t;
            t.what = "ising wolff L=" + std::to_string(side) + " K=Kc cluster-spin flips, "
                + std::to_string(instances) + " replicas, replica r on instance r ("
                + canonical_name(config) + ")";
            t.backend = backend;
            t.placement = "device";
            t.numbers = flips;
            t.seconds = s;
            rows.push_back(t);
        }

    std::cout << "| what | backend | placement | per second |\n|---|---|---|---:|\n";
    for (const auto& r : rows) {
        char line[512];
        std::snprintf(line, sizeof line, "| %s | %s | %s | %.3e |\n", r.what.c_str(),
            r.backend.c_str(), r.placement.c_str(), r.numbers_per_second());
        std::cout << line;
    }
    if (!csv_path.empty()) {
        std::ostringstream csv;
        csv << "what,backend,placement,count,seconds,per_second\n";
        for (const auto& r : rows)
            csv << '"' << r.what << "\"," << r.backend << "," << r.placement << "," << r.numbers
                << "," << r.seconds << "," << r.numbers_per_second() << "\n";
        write_file_atomically(csv_path, csv.str());
    }
    if (!db_path.empty()) store_bench_rows(db_path, rows);
    return 0;
}

} // namespace rngvet::cli
