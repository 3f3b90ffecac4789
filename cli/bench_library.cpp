// rngvet bench --library: librngvet in a simulation code's pattern. CORSIKA asks for about 10
// numbers a call; a library stream must beat the sequential CPU RANMAR it replaces at that (the
// inline fast path, rngvet_u01_fast, is timed beside rngvet_u01), and approach the
// device-to-host limit when requests are large.
#include "bench_library.hpp"

#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "rngvet/rngvet.h"

#include <algorithm>
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

// The inline fast path, buffered, `request` numbers a call: end to end (the caller waits for
// the background thread whenever it is ahead of it), and the caller's own cost, timed only over
// the stretches of calls its buffer served (the refills and their waits left out).
std::vector<Row> fast_rows(
    const std::string& name, const std::string& backend, std::uint64_t count, std::size_t request)
{
    rngvet_options o;
    rngvet_options_init(&o);
    o.backend = backend.c_str();
    o.buffer_numbers = std::size_t(1) << 22;
    rngvet_stream* s = nullptr;
    if (rngvet_open(&s, name.c_str(), &o) != RNGVET_OK)
        throw InputError(std::string("bench --library: ") + rngvet_last_error());
    rngvet_fast* f = rngvet_fast_of(s);
    std::vector<double> d(request);
    double sum = 0;
    const auto fail = [&] {
        const std::string why = rngvet_last_error();
        rngvet_close(s);
        throw std::runtime_error("bench --library: " + why);
    };
    double t0 = now();
    for (std::uint64_t done = 0; done < count; done += request) {
        if (rngvet_u01_fast(f, d.data(), request) != RNGVET_OK) fail();
        sum += d[request - 1];
    }
    const double total = now() - t0;
    // The same count again, timing only the calls the buffer held numbers for.
    double served = 0;
    std::uint64_t served_numbers = 0;
    for (std::uint64_t done = 0; done < count;) {
        if (static_cast<std::size_t>(f->end - f->next) < request) {
            if (rngvet_u01_fast(f, d.data(), request) != RNGVET_OK) fail(); // a refill
            sum += d[request - 1];
            done += request;
            continue;
        }
        const std::uint64_t stretch
            = std::min<std::uint64_t>(static_cast<std::uint64_t>(f->end - f->next) / request,
                (count - done + request - 1) / request);
        t0 = now();
        for (std::uint64_t i = 0; i < stretch; ++i) {
            if (rngvet_u01_fast(f, d.data(), request) != RNGVET_OK) fail();
            sum += d[request - 1];
        }
        served += now() - t0;
        served_numbers += stretch * request;
        done += stretch * request;
    }
    const std::string b = rngvet_stream_backend(s);
    rngvet_close(s);
    // The caller's cost scaled to `count` numbers, so that the table's rates stay count / seconds.
    return { { "librngvet buffered, inline rngvet_u01_fast", b, request, total, sum },
        { "librngvet buffered, inline rngvet_u01_fast, calls the buffer served", b, request,
            served * static_cast<double>(count) / static_cast<double>(served_numbers), 0 } };
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
        for (Row& r : fast_rows(name, backend, count, 10))
            rows.push_back(std::move(r));
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
