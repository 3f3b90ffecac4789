// rngvet bench --library: librngvet in a simulation code's pattern. CORSIKA asks for about 10
// numbers a call; a library stream must beat the sequential CPU RANMAR it replaces at that, and
// approach the device-to-host limit when requests are large.
#include "bench_library.hpp"

#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "rngvet/rngvet.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace rngvet::cli {
namespace {

struct Row {
    std::string what;
    std::string backend;
    std::size_t request;
    double seconds;
    double checksum; // the sum of the numbers, so that nothing is optimised away
};

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The reference engine, sequentially, `request` doubles a call (the library's CPU baseline).
Row reference_row(const std::string& name, std::uint64_t count, std::size_t request)
{
    const Configuration c = parse_canonical_name(name);
    auto stream = make_stream(c);
    const int bits = stream->bits();
    std::vector<std::uint64_t> x(request);
    std::vector<double> d(request);
    double sum = 0;
    const double t0 = now();
    for (std::uint64_t done = 0; done < count; done += request) {
        stream->fill(x.data(), request);
        for (std::size_t i = 0; i < request; ++i)
            d[i] = to_u01(x[i], bits);
        sum += d[request - 1];
    }
    return { "sequential reference engine (cpu, this thread)", "cpu", request, now() - t0, sum };
}

Row library_row(const std::string& name, const std::string& backend, int interface,
    std::uint64_t count, std::size_t request)
{
    rngvet_options o;
    rngvet_options_init(&o);
    o.backend = backend.c_str();
    o.interface = interface;
    o.buffer_numbers = std::size_t(1) << 22;
    rngvet_stream* s = nullptr;
    if (rngvet_open(&s, name.c_str(), &o) != RNGVET_OK)
        throw InputError(std::string("bench --library: ") + rngvet_last_error());
    std::vector<double> d(request);
    double sum = 0;
    const double t0 = now();
    for (std::uint64_t done = 0; done < count; done += request) {
        if (rngvet_u01(s, d.data(), request) != RNGVET_OK) {
            const std::string why = rngvet_last_error();
            rngvet_close(s);
            throw std::runtime_error("bench --library: " + why);
        }
        sum += d[request - 1];
    }
    const double seconds = now() - t0;
    Row r{ std::string("librngvet ") + (interface == RNGVET_BUFFERED ? "buffered" : "direct"),
        rngvet_stream_backend(s), request, seconds, sum };
    rngvet_close(s);
    return r;
}

} // namespace

int bench_library(
    const std::string& name, const std::vector<std::string>& backends, std::uint64_t count)
{
    parse_canonical_name(name); // a bad name is an input error before anything runs
    if (count < 1000000) throw InputError("--count must be at least 10^6 for --library");
    std::vector<Row> rows;
    rows.push_back(reference_row(name, count, 10));
    for (const std::string& backend : backends) {
        rows.push_back(library_row(name, backend, RNGVET_BUFFERED, count, 10));
        rows.push_back(library_row(name, backend, RNGVET_BUFFERED, count, 1000000));
        rows.push_back(library_row(name, backend, RNGVET_DIRECT, count, 1000000));
    }
    const double base = static_cast<double>(count) / rows[0].seconds;
    std::printf(
        "librngvet, %s: %.3g doubles per row\n\n", name.c_str(), static_cast<double>(count));
    std::printf("| interface | backend | numbers a call | seconds | numbers/s | doubles GB/s | vs "
                "reference |\n|---|---|---:|---:|---:|---:|---:|\n");
    for (const Row& r : rows) {
        const double rate = static_cast<double>(count) / r.seconds;
        std::printf("| %s | %s | %zu | %.3f | %.3g | %.2f | %.2fx |\n", r.what.c_str(),
            r.backend.c_str(), r.request, r.seconds, rate, rate * 8 / 1e9, rate / base);
    }
    double check = 0;
    for (const Row& r : rows)
        check += r.checksum;
    std::fprintf(stderr, "rngvet: bench --library: checksum %.6f\n", check);
    return 0;
}

} // namespace rngvet::cli
