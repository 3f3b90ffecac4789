#include "batteries/engine.hpp"
#include "batteries/feed_bench.hpp"
#include "batteries/native/native.hpp"
#include "batteries/runner.hpp"
#include "bench_lattice.hpp"
#include "bench_library.hpp"
#include "commands.hpp"
#include "generators/error.hpp"
#include "guards.hpp"
#include "kernels/auto_backend.hpp"
#include "kernels/backend.hpp"
#include "kernels/bench.hpp"
#include "kernels/references.hpp"
#include "options.hpp"
#include "reports/store.hpp"
#include "runs/stored_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace rngvet::cli {
namespace {

// The longest a measurement may be asked to take: an hour.
constexpr double max_bench_seconds = 3600;

// OpenMP launches: at most 2^20 numbers (8 MiB), which stay in the host's caches.
std::size_t openmp_launch(std::size_t launch)
{
    return std::min(launch, std::size_t(1) << 20);
}

// A row's share of a limit measured in the same run, as the table prints it ("-": none).
std::string percent_of(const Throughput& r, double limit)
{
    if (limit <= 0) return "-";
    return std::to_string(int(100 * r.bytes_per_second() / limit + 0.5)) + "%";
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

// `--feed BATTERY`: batteries/feed_bench.hpp. Prints the per-battery sums and, with --csv,
// every test's row.
int bench_feed(const std::string& battery_name, const std::string& backend, int jobs, bool prefetch,
    int instances, const std::string& csv_path)
{
    const BatteryCatalogue& battery = catalogue_for(battery_name);
    // One instance: TestU01's RANMAR stream, bit for bit (on a device, jump-parallel: many units
    // of the one instance). More: the same family interleaved.
    const bool same_stream = instances == 1;
    Configuration config = config_of(
        "ranmar24", instances, same_stream ? "single" : "interleave", backend, "1802,9373");
    if (config.backend == Backend::automatic) { // measured once, here, in a child
        std::string report;
        config.backend = resolve_auto_backend(config, BackendOptions{}, &report);
        std::cerr << report;
    }
    (void)check_backend_stream(config); // in a child: the workers fork after this
    std::vector<int> tests;
    for (const auto& t : battery.tests)
        tests.push_back(t.number);
    std::cerr << "rngvet: bench: feeding " << battery.name << " (" << tests.size()
              << " tests, each on TestU01's RANMAR and on " << canonical_name(config) << " via "
              << to_string(config.backend) << (prefetch ? ", prefetch" : "") << "), " << jobs
              << " jobs\n";
    const auto at = [&](std::uint64_t offset) {
        Configuration c = config;
        c.skip += offset;
        return make_backend_stream(c);
    };
    const std::vector<FeedComparison> rows = compare_feeding(at, battery, tests, jobs, prefetch);
    double native = 0, fed = 0, setup = 0;
    std::uint64_t numbers = 0, refills = 0, waits = 0;
    int same = 0, statistics = 0;
    bool device_fed = false;
    for (const FeedComparison& r : rows) {
        native += r.native_cpu;
        fed += r.fed_cpu;
        setup += r.setup_cpu;
        numbers += r.numbers;
        refills += r.refills;
        waits += r.refill_waits;
        same += r.same_pvalues;
        statistics += r.statistics;
        device_fed = device_fed || r.device_fed;
    }
    std::printf("| quantity | value |\n|---|---:|\n");
    std::printf("| tests (statistics) | %zu (%d) |\n", rows.size(), statistics);
    if (same_stream)
        std::printf("| tests whose p-values are identical on both generators | %d |\n", same);
    else
        std::printf("| p-values | not compared: %d instances interleaved are another stream |\n",
            instances);
    std::printf("| numbers read | %.4g |\n", static_cast<double>(numbers));
    std::printf("| CPU, TestU01's RANMAR | %.1f s |\n", native);
    std::printf("| CPU, %s through the feed (%s) | %.1f s |\n", to_string(config.backend),
        device_fed     ? "device read-ahead, in place"
            : prefetch ? "producer thread"
                       : "in place",
        fed);
    std::printf("| CPU, making the streams (once per test process) | %.1f s |\n", setup);
    std::printf("| **feeding ratio** fed / native | **%.4f** |\n", native > 0 ? fed / native : 0);
    std::printf("| ratio with the stream set-up counted | %.4f |\n",
        native > 0 ? (fed + setup) / native : 0);
    std::printf("| refills (%s) | %llu |\n", device_fed ? "launches read ahead" : "blocks",
        static_cast<unsigned long long>(refills));
    std::printf("| refills that waited | %llu (%.3f%%) |\n", static_cast<unsigned long long>(waits),
        refills > 0 ? 100.0 * static_cast<double>(waits) / static_cast<double>(refills) : 0.0);
    if (!csv_path.empty()) {
        std::ostringstream csv;
        csv << "test,native_cpu,fed_cpu,setup_cpu,numbers,refills,refill_waits,device_fed,"
               "statistics,same_pvalues\n";
        for (const FeedComparison& r : rows)
            csv << r.test << "," << r.native_cpu << "," << r.fed_cpu << "," << r.setup_cpu << ","
                << r.numbers << "," << r.refills << "," << r.refill_waits << "," << r.device_fed
                << "," << r.statistics << "," << r.same_pvalues << "\n";
        write_file_atomically(csv_path, csv.str());
    }
    if (same_stream && same != static_cast<int>(rows.size())) {
        std::cerr << "rngvet: error: the fed and native runs disagree on "
                  << rows.size() - static_cast<std::size_t>(same) << " tests\n";
        return 1;
    }
    return 0;
}

// rngvet bench --native BATTERY: each native test beside TestU01's function on the same stream
// (ranmar48 (1802,9373) on `backend`), both timed, their p-values compared as bits first.
int bench_native(const std::string& battery_name, const std::string& tests_text,
    const std::string& backend, int threads, const std::string& csv_path)
{
    const BatteryCatalogue& battery = catalogue_for(battery_name);
    const std::vector<int> tests
        = tests_text.empty() ? std::vector<int>{} : parse_tests(tests_text, battery);
    if (threads > 0) native::set_threads(threads);
    const Configuration c = config_of("ranmar48", 1, "single", backend, "1802,9373");
    const auto make = [&c] { return make_backend_stream(c); };
    const std::vector<EngineCheck> checks = check_native_engine(make, battery, tests);
    if (checks.empty())
        throw InputError("no test of " + battery.name + " selected has a native form");
    std::ofstream csv;
    if (!csv_path.empty()) {
        csv.open(csv_path);
        csv << "battery,test,name,equal,testu01_cpu_s,testu01_wall_s,native_cpu_s,native_wall_"
               "s,threads\n";
    }
    std::printf("native engine beside TestU01 on %s, %d threads (CPU and wall seconds)\n",
        canonical_name(c).c_str(), native::threads());
    std::printf("%5s  %-18s %6s %10s %10s %10s %10s %9s\n", "test", "name", "equal", "TestU01",
        "wall", "native", "wall", "speed-up");
    double total_testu01 = 0, total_wall = 0;
    int differing = 0;
    for (const EngineCheck& r : checks) {
        differing += !r.equal;
        total_testu01 += r.testu01_seconds;
        total_wall += r.native_wall;
        std::printf("%5d  %-18s %6s %10.3f %10.3f %10.3f %10.3f %8.1fx\n", r.test, r.name.c_str(),
            r.equal ? "yes" : "NO", r.testu01_seconds, r.testu01_wall, r.native_seconds,
            r.native_wall, r.testu01_seconds / r.native_wall);
        if (csv.is_open())
            csv << battery.name << "," << r.test << "," << r.name << "," << (r.equal ? 1 : 0) << ","
                << r.testu01_seconds << "," << r.testu01_wall << "," << r.native_seconds << ","
                << r.native_wall << "," << native::threads() << "\n";
    }
    std::printf("all %zu: TestU01 %.3f CPU s, native %.3f wall s, %.1fx%s\n", checks.size(),
        total_testu01, total_wall, total_testu01 / total_wall,
        differing ? "; SOME P-VALUES DIFFER (rngvet validate --engine native)" : "");
    if (csv.is_open() && !csv.flush()) throw std::runtime_error("cannot write '" + csv_path + "'");
    return differing ? 1 : 0;
}

} // namespace

int cmd_bench(int argc, char** argv)
{
    std::string backends_text, csv_path, sweep_prefix, db_path, sdk_path, feed_battery, only;
    std::string prefetch = "on", native_battery, native_tests;
    int jobs = 1, feed_instances = 1, native_threads = 0;
    Unsigned<std::uint64_t> segments{ 0 }, segment_length{ 0 };
    double seconds = 0.5;
    // 2^26: with 16384 instances, 4096 numbers per instance and launch, so that loading and
    // storing the instances' states (97 words each) is a few per cent of the traffic.
    Unsigned<std::size_t> launch{ std::size_t(1) << 26 };
    const std::string library_default = "ranmar48/1/single/increment/1802,9373;zero=smallest";
    std::string library;
    Unsigned<std::uint64_t> library_count{ 100000000 };
    int lattice_side = 4096;
    po::options_description options("rngvet bench options");
    const std::string backend_help = "comma-separated backends of " + word_list(backend_words())
        + ", any case (auto with --feed or --library only; default: all available)";
    options.add_options()("backend", po::value(&backends_text), backend_help.c_str())("seconds",
        po::value(&seconds)->default_value(0.5), "minimum time per measurement, at most 3600")(
        "launch", po::value(&launch)->default_value(launch), "numbers per launch")("sdk-params",
        po::value(&sdk_path),
        "the NVIDIA SDK's MersenneTwister.dat, to bench its 4096-twister set-up")("only",
        po::value(&only),
        "bench only the configurations whose name contains this text (e.g. for a profiler)")(
        "csv", po::value(&csv_path), "write every measurement to this CSV file")("sweep",
        po::value(&sweep_prefix),
        "also sweep instances x numbers per launch on the first device backend; writes PREFIX.csv "
        "and PREFIX.svg")("db", po::value(&db_path), "store the measurements in this result store")(
        "feed", po::value(&feed_battery),
        "instead: the feeding overhead of a battery (smallcrush, crush, bigcrush), each test on "
        "TestU01's RANMAR and on ranmar24 through the feed of --backend")("native",
        po::value(&native_battery),
        ("instead: each test of this battery (" + native_battery_names()
            + ") that has a native form, beside TestU01's function on the same stream, p-values "
              "compared as bits")
            .c_str())("tests", po::value(&native_tests), "--native: only these tests, e.g. 1,2")(
        "threads", po::value(&native_threads)->default_value(0),
        "--native: threads of the native engine (0: every core)")(
        "jobs", po::value(&jobs)->default_value(1), "--feed: worker processes")("instances",
        po::value(&feed_instances)->default_value(1),
        "--feed: RANMAR instances of the fed stream (1: TestU01's stream, p-values compared; more: "
        "interleaved)")("prefetch", po::value(&prefetch)->default_value("on"),
        ("--feed: " + word_alternatives(feed_prefetch_words())).c_str())("library",
        po::value(&library)->implicit_value(library_default),
        "instead: librngvet in a simulation's pattern (10 doubles a call, and 10^6) beside the "
        "sequential reference engine; the configuration's canonical name (default: CORSIKA's "
        "ranmar48)")("count", po::value(&library_count)->default_value(library_count),
        "--library: doubles per row")("lattice",
        po::value(&lattice_side)->implicit_value(lattice_side),
        "instead: the lattice battery's Ising chains on one --backend (default cuda, else openmp, "
        "else cpu) beside its generation rate: Metropolis spin updates per second on an L x L "
        "lattice (default 4096; on the device where the stream runs on CUDA) and Wolff "
        "cluster-spin flips per second over replicas on every thread")("segments",
        po::value(&segments)->default_value(segments),
        "jump-parallel units per instance, RANMAR's and the MTs' (0: the backend's plan; 1: off)")(
        "segment-length", po::value(&segment_length)->default_value(segment_length),
        "jump-parallel chunk length in numbers (0: the backend's plan)");
    po::variables_map vm;
    if (!parse(argc, argv, options,
            "usage: rngvet bench [--backend B,...] [--csv FILE] [--sweep PREFIX]", vm))
        return 0;
    // Infinite, NaN and huge values would measure for ever.
    if (!(seconds > 0 && seconds <= max_bench_seconds)) {
        std::ostringstream given;
        given << seconds;
        throw InputError("--seconds must be a number of seconds above 0 and at most "
            + std::to_string(static_cast<int>(max_bench_seconds)) + ", got " + given.str());
    }
    if (launch.value < 1024) throw InputError("--launch must be at least 1024");
    if (!db_path.empty()) check_store_path(db_path);
    check_fits_in_memory(
        launch.value * sizeof(std::uint64_t) * 2, "--launch " + std::to_string(launch.value));
    refuse_overwriting_input(csv_path, "--csv", { db_path });
    if (!sweep_prefix.empty()) {
        refuse_overwriting_input(sweep_prefix + ".csv", "--sweep", { db_path });
        refuse_overwriting_input(sweep_prefix + ".svg", "--sweep", { db_path });
    }
    if (vm.count("library")) {
        std::vector<std::string> library_backends;
        std::stringstream in(backends_text.empty() ? std::string("auto") : backends_text);
        for (std::string b; std::getline(in, b, ',');)
            library_backends.push_back(b);
        return bench_library(library, library_backends, library_count.value);
    }
    if (!vm["count"].defaulted()) throw InputError("--count goes with --library");
    if (vm.count("lattice")) {
        for (const char* other : { "native", "feed", "sweep", "only", "sdk-params" })
            if (vm.count(other))
                throw InputError(std::string("--lattice does not go with --") + other);
        return bench_lattice(lattice_side, backends_text, seconds, csv_path, db_path);
    }
    if (vm.count("native")) {
        if (native_threads < 0 || native_threads > 4096)
            throw InputError("--threads must be 0 (every core) to 4096");
        if (backends_text.find(',') != std::string::npos)
            throw InputError("--native takes one --backend");
        return bench_native(native_battery, native_tests,
            backends_text.empty() ? "cpu" : backends_text, native_threads, csv_path);
    }
    if (vm.count("tests") || !vm["threads"].defaulted())
        throw InputError("--tests and --threads go with --native");
    if (vm.count("feed")) {
        if (jobs < 1) throw InputError("--jobs must be at least 1");
        const Prefetch feed_prefetch = parse_term(feed_prefetch_terms, prefetch, "prefetch");
        if (backends_text.find(',') != std::string::npos)
            throw InputError("--feed takes one --backend");
        if (feed_instances < 1) throw InputError("--instances must be at least 1");
        return bench_feed(feed_battery, backends_text.empty() ? "cpu" : backends_text, jobs,
            feed_prefetch == Prefetch::on, feed_instances, csv_path);
    }
    for (const char* feed_only : { "jobs", "instances", "prefetch" })
        if (!vm[feed_only].defaulted())
            throw InputError(std::string("--") + feed_only + " goes with --feed");

    std::vector<std::string> backends;
    if (backends_text.empty())
        for (const Backend b : available_backends())
            backends.push_back(to_string(b));
    else {
        std::stringstream in(backends_text);
        for (std::string b; std::getline(in, b, ',');) {
            b = lower_case(b);
            if (b == "auto")
                throw InputError(
                    "--backend auto goes with --feed (the table measures each backend)");
            backends.push_back(b);
        }
    }
    // The fastest kind of device that is benched: cuda, else opencl, else openmp; refused
    // before anything is measured or stored when there is none.
    std::string device_backend;
    for (const char* preferred : { "cuda", "opencl", "openmp" })
        if (device_backend.empty()
            && std::find(backends.begin(), backends.end(), preferred) != backends.end())
            device_backend = preferred;
    if (!sweep_prefix.empty() && device_backend.empty())
        throw InputError("--sweep needs a device backend (cuda, opencl, openmp)");

    std::vector<Throughput> rows;
    const std::string james = "1802,9373";
    for (const std::string& backend : backends) {
        const bool device = backend == "cuda" || backend == "opencl";
        // OpenMP: 256 instances, 16 per thread on 16 threads, so that under interleave each
        // thread's part of an output row is whole cache lines (no false sharing).
        const int many = device ? 16384 : 256;
        const std::size_t backend_launch = backend == "cpu" ? (std::size_t(1) << 16)
            : backend == "openmp"                           ? openmp_launch(launch.value)
                                                            : launch.value;
        // Many instances, then one and eight (jump-parallel where the backend's plan has
        // units: the "jump-parallel" column; RANMAR everywhere, the MTs on OpenMP and CUDA).
        std::vector<Configuration> configs = {
            config_of("ranmar24", many, "interleave", backend, james),
            config_of("ranmar48", many, "interleave", backend, james),
            config_of("ranmar48x", many, "interleave", backend, james),
            config_of("ranmar24", 1, "single", backend, james),
            config_of("ranmar48", 1, "single", backend, james),
            config_of("ranmar48x", 1, "single", backend, james),
            config_of("ranmar24", 8, "interleave", backend, james),
            config_of("ranmar48", 8, "interleave", backend, james),
            config_of("ranmar48x", 8, "interleave", backend, james),
            config_of("mtdc", 32, "block:65536", backend, "0", "fixstars-mt521", "stride:0x33ff"),
            config_of("mt19937", 1, "single", backend, "5489", "", "same"),
            config_of("mtdc", 1, "single", backend, "0", "fixstars-mt521", "same"),
            config_of("mtdc", 8, "interleave", backend, "0", "fixstars-mt521", "stride:0x33ff"),
        };
        if (!sdk_path.empty())
            configs.push_back(
                config_of("mtdc", 4096, "interleave", backend, "777", sdk_path, "same"));
        for (const Configuration& c : configs) {
            if (canonical_name(c).find(only) == std::string::npos) continue;
            // Few instances on a GPU: the launch lengths a run asks for, not --launch: the
            // feed's (BackendOptions' default, 2^22) in every placement, and on the device also
            // the native engine's (native_engine_launch; for the MTs on CUDA only, which runs
            // them jump-parallel: elsewhere one MT19937 thread would take seconds per 2^26).
            // Both with the plan of a stream of the default launch (segment_plan).
            const bool few = device && c.instances <= 8;
            std::vector<std::pair<const char*, std::size_t>> runs;
            for (const char* placement : { "device", "host", "host-copy" }) {
                if (backend == "cpu" && std::string(placement) != "host") continue;
                runs.emplace_back(placement,
                    few ? std::min(backend_launch, BackendOptions{}.launch_numbers)
                        : backend_launch);
                if (few && std::string(placement) == "device"
                    && (family(c.generator) == families::ranmar || backend == "cuda"))
                    runs.emplace_back(placement, native_engine_launch);
            }
            for (const auto& [placement, run_launch] : runs) {
                try {
                    rows.push_back(measure_stream(
                        c, run_launch, placement, seconds, segments.value, segment_length.value));
                    const auto& r = rows.back();
                    std::cerr << "rngvet: bench: " << r.what << " " << r.backend << " "
                              << r.placement << " " << si(r.numbers_per_second(), "numbers/s")
                              << " (launch " << r.launch << (r.plan.empty() ? "" : ", " + r.plan)
                              << ")\n";
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
    // OpenMP's "device" is host memory: its limit is its own threads' stores to a buffer of its
    // launch's size (the rows' percentages), and to 1 GiB (main memory) for comparison.
    double openmp_write_limit = 0;
    if (std::find(backends.begin(), backends.end(), "openmp") != backends.end()) {
        const auto launch_sized
            = openmp_references(openmp_launch(launch.value) * sizeof(std::uint64_t), seconds);
        const auto main_memory = openmp_references(std::size_t(1) << 30, seconds);
        if (!launch_sized.empty()) openmp_write_limit = launch_sized.front().bytes_per_second();
        const auto arithmetic = openmp_compute_reference(seconds);
        rows.insert(rows.end(), launch_sized.begin(), launch_sized.end());
        rows.insert(rows.end(), main_memory.begin(), main_memory.end());
        rows.insert(rows.end(), arithmetic.begin(), arithmetic.end());
    }

    std::cout
        << "| what | backend | placement | numbers/s | GB/s | of device write | of pinned D2H "
           "| launch | jump-parallel |\n"
           "|---|---|---|---:|---:|---:|---:|---:|---|\n";
    for (const auto& r : rows) {
        const bool on_device = r.placement == "device";
        const bool on_host = r.placement == "host" || r.placement == "host-copy";
        const double device_write = r.backend == "openmp" ? openmp_write_limit : write_limit;
        char line[512];
        const std::string launch_text = r.launch == 0 ? "-"
            : (r.launch & (r.launch - 1)) == 0
            ? "2^" + std::to_string(static_cast<int>(std::log2(static_cast<double>(r.launch))))
            : std::to_string(r.launch);
        std::snprintf(line, sizeof line, "| %s | %s | %s | %.3e | %.1f | %s | %s | %s | %s |\n",
            r.what.c_str(), r.backend.c_str(), r.placement.c_str(), r.numbers_per_second(),
            r.bytes_per_second() / 1e9, percent_of(r, on_device ? device_write : 0).c_str(),
            percent_of(r, on_host ? copy_limit : 0).c_str(), launch_text.c_str(),
            r.plan.empty() ? "-" : r.plan.c_str());
        std::cout << line;
    }

    if (!csv_path.empty()) {
        std::ostringstream csv;
        csv << "what,backend,placement,numbers,seconds,bytes_per_number,numbers_per_second,bytes_"
               "per_second,launch,jump_parallel\n";
        for (const auto& r : rows)
            csv << '"' << r.what << "\"," << r.backend << "," << r.placement << "," << r.numbers
                << "," << r.seconds << "," << r.bytes_per_number << "," << r.numbers_per_second()
                << "," << r.bytes_per_second() << "," << r.launch << ",\"" << r.plan << "\"\n";
        write_file_atomically(csv_path, csv.str());
    }
    if (!db_path.empty()) store_bench_rows(db_path, rows);

    if (!sweep_prefix.empty()) {
        const std::vector<int> instances = device_backend == "openmp"
            ? std::vector<int>{ 16, 64, 256 }
            : std::vector<int>{ 1024, 4096, 16384, 65536 };
        const std::vector<std::size_t> launches
            = { 1u << 18, 1u << 20, 1u << 22, 1u << 24, 1u << 26 };
        std::vector<Throughput> points;
        std::ostringstream csv;
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
        write_file_atomically(sweep_prefix + ".csv", csv.str());
        write_file_atomically(sweep_prefix + ".svg",
            sweep_svg("ranmar48x, interleave, " + device_backend + ": device-resident throughput",
                points, launches, instances));
    }
    return 0;
}

} // namespace rngvet::cli
