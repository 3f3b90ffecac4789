#include "batteries/runner.hpp"
#include "commands.hpp"
#include "generators/error.hpp"
#include "kernels/backend.hpp"
#include "kernels/bench.hpp"
#include "options.hpp"
#include "reports/store.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace rngvet::cli {
namespace {

Configuration config_of(const std::string& g, int instances, const std::string& layout,
    const std::string& backend, const std::vector<std::int64_t>& seed,
    const std::string& params = "", const std::string& seeding = "increment")
{
    Configuration c;
    c.generator = g;
    c.seed = seed;
    c.instances = instances;
    c.layout = parse_layout(layout);
    c.seeding = parse_seeding(seeding);
    c.params = params;
    c.backend = backend;
    return c;
}

std::string si(double v, const char* unit)
{
    const char* prefixes[] = { "", "k", "M", "G", "T" };
    int p = 0;
    while (v >= 1000 && p < 4) {
        v /= 1000;
        ++p;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g %s%s", v, prefixes[p], unit);
    return buf;
}

// A line plot of throughput against numbers per launch, one line per instance count.
std::string sweep_svg(const std::string& title, const std::vector<Throughput>& points,
    const std::vector<std::size_t>& launches, const std::vector<int>& instances)
{
    const double w = 640, h = 400, left = 70, right = 150, top = 30, bottom = 50;
    double ymax = 0;
    for (const auto& p : points)
        ymax = std::max(ymax, p.bytes_per_second());
    if (ymax <= 0) ymax = 1;
    auto x = [&](std::size_t i) {
        return left
            + (w - left - right)
            * (launches.size() > 1 ? double(i) / double(launches.size() - 1) : 0.5);
    };
    auto y = [&](double v) { return top + (h - top - bottom) * (1 - v / ymax); };
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" "
         "fill=\"white\"/>\n";
    o << "<text x=\"" << left << "\" y=\"18\" font-size=\"13\">" << title << "</text>\n";
    o << "<line x1=\"" << left << "\" y1=\"" << y(0) << "\" x2=\"" << w - right << "\" y2=\""
      << y(0) << "\" stroke=\"black\"/>\n<line x1=\"" << left << "\" y1=\"" << top << "\" x2=\""
      << left << "\" y2=\"" << y(0) << "\" stroke=\"black\"/>\n";
    for (int k = 0; k <= 4; ++k) {
        const double v = ymax * k / 4;
        o << "<text x=\"" << left - 5 << "\" y=\"" << y(v) + 4 << "\" text-anchor=\"end\">"
          << si(v, "B/s") << "</text>\n";
    }
    for (std::size_t i = 0; i < launches.size(); ++i)
        o << "<text x=\"" << x(i) << "\" y=\"" << h - bottom + 16 << "\" text-anchor=\"middle\">2^"
          << static_cast<int>(std::log2(double(launches[i]))) << "</text>\n";
    o << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - 12
      << "\" text-anchor=\"middle\">numbers per launch</text>\n";
    const char* colours[] = { "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02" };
    for (std::size_t c = 0; c < instances.size(); ++c) {
        o << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << colours[c % 6]
          << "\" points=\"";
        for (std::size_t i = 0; i < launches.size(); ++i) {
            const auto& p = points[c * launches.size() + i];
            o << x(i) << "," << y(p.bytes_per_second()) << " ";
        }
        o << "\"/>\n<text x=\"" << w - right + 8 << "\" y=\"" << top + 16 * double(c + 1)
          << "\" fill=\"" << colours[c % 6] << "\">" << instances[c] << " instances</text>\n";
    }
    o << "</svg>\n";
    return o.str();
}

} // namespace

int cmd_bench(int argc, char** argv)
{
    std::string backends_text, csv_path, sweep_prefix, db_path, sdk_path;
    double seconds = 0.5;
    // 2^26: with 16384 instances, 4096 numbers per instance and launch, so that loading and
    // storing the instances' states (97 words each) is a few per cent of the traffic.
    std::size_t launch = std::size_t(1) << 26;
    po::options_description options("rngvet bench options");
    options.add_options()(
        "backend", po::value(&backends_text), "comma-separated backends (default: all available)")(
        "seconds", po::value(&seconds)->default_value(0.5), "minimum time per measurement")(
        "launch", po::value(&launch)->default_value(launch), "numbers per launch")("sdk-params",
        po::value(&sdk_path),
        "the NVIDIA SDK's MersenneTwister.dat, to bench its 4096-twister set-up")(
        "csv", po::value(&csv_path), "write every measurement to this CSV file")("sweep",
        po::value(&sweep_prefix),
        "also sweep instances x numbers per launch on the first device backend; writes PREFIX.csv "
        "and PREFIX.svg")("db", po::value(&db_path), "store the measurements in this result store");
    po::variables_map vm;
    if (!parse(argc, argv, options,
            "usage: rngvet bench [--backend B,...] [--csv FILE] [--sweep PREFIX]", vm))
        return 0;
    if (seconds <= 0) throw InputError("--seconds must be positive");
    if (launch < 1024) throw InputError("--launch must be at least 1024");

    std::vector<std::string> backends;
    if (backends_text.empty())
        backends = available_backends();
    else {
        std::stringstream in(backends_text);
        for (std::string b; std::getline(in, b, ',');)
            backends.push_back(b);
    }

    std::vector<Throughput> rows;
    const std::vector<std::int64_t> james = { 1802, 9373 };
    for (const std::string& backend : backends) {
        const bool device = backend == "cuda" || backend == "opencl";
        const int many = device ? 16384 : 64;
        std::vector<Configuration> configs = {
            config_of("ranmar24", many, "interleave", backend, james),
            config_of("ranmar48", many, "interleave", backend, james),
            config_of("ranmar48x", many, "interleave", backend, james),
            config_of("ranmar48x", 1, "single", backend, james),
            config_of("mtdc", 32, "block:65536", backend, { 0 }, "fixstars-mt521", "stride:0x33ff"),
        };
        if (!sdk_path.empty())
            configs.push_back(
                config_of("mtdc", 4096, "interleave", backend, { 777 }, sdk_path, "same"));
        for (const Configuration& c : configs) {
            for (const char* placement : { "device", "host" }) {
                if (backend == "cpu" && std::string(placement) == "device") continue;
                try {
                    rows.push_back(measure_stream(
                        c, backend == "cpu" ? (1u << 16) : launch, placement, seconds));
                    const auto& r = rows.back();
                    std::cerr << "rngvet: bench: " << r.what << " " << r.backend << " "
                              << r.placement << " " << si(r.numbers_per_second(), "numbers/s")
                              << "\n";
                } catch (const std::exception& e) {
                    std::cerr << "rngvet: bench: " << canonical_name(c) << " on " << backend << ": "
                              << e.what() << "\n";
                }
            }
        }
    }
    const auto references = cuda_references(std::size_t(1) << 30);
    rows.insert(rows.end(), references.begin(), references.end());
    double write_limit = 0, copy_limit = 0;
    for (const auto& r : references) {
        if (r.what == "device memory write") write_limit = r.bytes_per_second();
        if (r.what == "pinned device-to-host copy") copy_limit = r.bytes_per_second();
    }

    std::cout
        << "| what | backend | placement | numbers/s | GB/s | of device write | of pinned D2H |\n"
           "|---|---|---|---:|---:|---:|---:|\n";
    for (const auto& r : rows) {
        char line[512];
        std::snprintf(line, sizeof line, "| %s | %s | %s | %.3e | %.1f | %s | %s |\n",
            r.what.c_str(), r.backend.c_str(), r.placement.c_str(), r.numbers_per_second(),
            r.bytes_per_second() / 1e9,
            write_limit > 0 && r.placement == "device"
                ? (std::to_string(int(100 * r.bytes_per_second() / write_limit + 0.5)) + "%")
                      .c_str()
                : "-",
            copy_limit > 0 && r.placement == "host"
                ? (std::to_string(int(100 * r.bytes_per_second() / copy_limit + 0.5)) + "%").c_str()
                : "-");
        std::cout << line;
    }

    if (!csv_path.empty()) {
        std::ofstream csv(csv_path);
        if (!csv) throw InputError("cannot write '" + csv_path + "'");
        csv << "what,backend,placement,numbers,seconds,bytes_per_number,numbers_per_second,bytes_"
               "per_second\n";
        for (const auto& r : rows)
            csv << '"' << r.what << "\"," << r.backend << "," << r.placement << "," << r.numbers
                << "," << r.seconds << "," << r.bytes_per_number << "," << r.numbers_per_second()
                << "," << r.bytes_per_second() << "\n";
    }
    if (!db_path.empty()) {
        Store store(db_path);
        for (const auto& r : rows)
            store.insert_bench({ 0, r.what, r.backend, r.backend, r.placement,
                r.numbers_per_second(), r.bytes_per_second(), utc_now(), recorded_command_line() });
    }

    if (!sweep_prefix.empty()) {
        // The fastest kind of device that was benched: cuda, else opencl, else openmp.
        std::string device_backend;
        for (const char* preferred : { "cuda", "opencl", "openmp" })
            if (device_backend.empty()
                && std::find(backends.begin(), backends.end(), preferred) != backends.end())
                device_backend = preferred;
        if (device_backend.empty())
            throw InputError("--sweep needs a device backend (cuda, opencl, openmp)");
        const std::vector<int> instances = device_backend == "openmp"
            ? std::vector<int>{ 16, 64, 256 }
            : std::vector<int>{ 1024, 4096, 16384, 65536 };
        const std::vector<std::size_t> launches
            = { 1u << 18, 1u << 20, 1u << 22, 1u << 24, 1u << 26 };
        std::vector<Throughput> points;
        std::ofstream csv(sweep_prefix + ".csv");
        if (!csv) throw InputError("cannot write '" + sweep_prefix + ".csv'");
        csv << "backend,instances,launch,numbers_per_second,bytes_per_second\n";
        for (int n : instances)
            for (std::size_t l : launches) {
                Throughput t;
                try {
                    t = measure_stream(
                        config_of("ranmar48x", n, "interleave", device_backend, james), l, "device",
                        seconds / 2);
                } catch (const std::exception& e) {
                    std::cerr << "rngvet: bench: sweep " << n << " x " << l << ": " << e.what()
                              << "\n";
                    t.what = "ranmar48x";
                }
                points.push_back(t);
                csv << device_backend << "," << n << "," << l << "," << t.numbers_per_second()
                    << "," << t.bytes_per_second() << "\n";
            }
        std::ofstream svg(sweep_prefix + ".svg");
        svg << sweep_svg(
            "ranmar48x, interleave, " + device_backend + ": device-resident throughput", points,
            launches, instances);
    }
    return 0;
}

} // namespace rngvet::cli
