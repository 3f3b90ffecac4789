// rngvet dc: the Dynamic Creator. `dc create` searches Mersenne Twister parameter sets and
// writes them in rngvet's text format; `dc verify` checks a parameter file or built-in set.
// Exit status: 0 every check passed, 1 a check failed, 2 bad input.
#include "batteries/runner.hpp"
#include "generators/dynamic_creator.hpp"
#include "generators/error.hpp"
#include "generators/mt_params.hpp"
#include "options.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace rngvet::cli {

namespace {

namespace po = boost::program_options;

const char* const dc_usage
    = "usage: rngvet dc create --p P --count N --seed S [--out FILE] [--threads T]\n"
      "       rngvet dc verify FILE|fixstars-mt521 [--verbose] [--max-defect D] [--threads T]\n"
      "\n"
      "  create   search N Mersenne Twister parameter sets (ids 0..N-1) of period 2^P-1\n"
      "  verify   check primitivity, distinct ids and characteristic polynomials, k(v)\n"
      "(rngvet dc create --help, rngvet dc verify --help for their options)";

int error_exit(const std::string& message)
{
    std::cerr << "rngvet: error: " << message << "\n";
    return 2;
}

std::string kv_list(const MtEquidistribution& kv)
{
    std::ostringstream out;
    for (int v = 1; v <= 32; ++v)
        out << (v > 1 ? " " : "") << kv.k[v];
    return out.str();
}

int run_create(int argc, char** argv)
{
    int p = 0;
    int count = 0;
    std::uint32_t seed = 0;
    std::string out_path;
    int threads = 0;
    po::options_description options("rngvet dc create options");
    options.add_options()(
        "p", po::value<int>(&p)->required(), "Mersenne exponent: 521, 607, 1279, 2203, 2281")(
        "count", po::value<int>(&count)->required(), "number of sets (ids 0..count-1)")(
        "seed", po::value<std::uint32_t>(&seed)->required(), "seed of the search (32-bit)")(
        "out", po::value<std::string>(&out_path), "output file (default: standard output)")(
        "threads", po::value<int>(&threads), "worker threads (default: all cores)");
    po::variables_map vm;
    if (!parse(argc, argv, options, "usage: rngvet dc create --p P --count N --seed S [--out FILE]",
            vm)) {
        return 0;
    }
    if (!is_mersenne_exponent(p) || p < 521 || p > mt_kv_max_p) {
        throw InputError("--p " + std::to_string(p) + ": need a Mersenne exponent in 521.."
            + std::to_string(mt_kv_max_p));
    }
    if (count < 1 || count > 65536) throw InputError("--count must be in 1..65536");

    const bool tty = isatty(STDERR_FILENO) != 0;
    MtParamSet set = dc_create(p, count, seed, threads, [tty](int done, int total) {
        if (tty)
            std::cerr << "\rrngvet dc create: " << done << "/" << total << " sets" << std::flush;
    });
    if (tty) std::cerr << "\n";
    const DcVerifyReport rep = dc_verify(set, DcVerifyOptions{ threads, true, -1 });
    std::vector<std::string> set_comments;
    for (const auto& s : rep.sets) {
        set_comments.push_back(
            "defect_sum " + std::to_string(s.kv.defect_sum()) + " k(v) " + kv_list(s.kv));
    }
    const MtParams layout = mt_params_for(p, 0, 0, 0);
    std::ostringstream lay;
    lay << "mm=" << layout.mm << " nn=" << layout.nn << " rr=" << layout.rr
        << " shift0=" << layout.shift0 << " shift1=" << layout.shift1 << " shiftB=" << layout.shiftB
        << " shiftC=" << layout.shiftC;
    const std::vector<std::string> comments = {
        "Mersenne Twister parameter sets made by the rngvet Dynamic Creator (rngvet dc create)",
        "p=" + std::to_string(p) + " w=32, DC seed " + std::to_string(seed) + ", ids 0.."
            + std::to_string(count - 1) + ", created " + utc_now(),
        lay.str(),
        "Columns: id aaa maskB maskC (hex); after each set: its k(v) defect sum and k(1..32)"
    };
    const std::string text
        = format_param_text(set, comments, "dc_seed=" + std::to_string(seed), set_comments);
    if (out_path.empty()) {
        std::cout << text;
    } else {
        std::ofstream out(out_path, std::ios::binary);
        out << text;
        out.close();
        if (!out) throw InputError("cannot write " + out_path);
        std::cerr << "rngvet dc create: wrote " << count << " sets to " << out_path << "\n";
    }
    if (!rep.passed()) {
        for (const auto& f : rep.failures())
            std::cerr << "rngvet: check failed: " << f << "\n";
        return 1;
    }
    return 0;
}

void print_summary(const DcVerifyReport& rep, bool verbose)
{
    std::size_t primitive = 0;
    for (const auto& s : rep.sets)
        primitive += s.primitive ? 1 : 0;
    std::cout << "parameter sets: " << rep.source << "\n"
              << "sha256:         " << (rep.sha256.empty() ? "-" : rep.sha256) << "\n"
              << "p:              " << rep.p << " (w = 32), " << rep.sets.size() << " sets\n"
              << "primitive:      " << primitive << "/" << rep.sets.size() << "\n"
              << "ids distinct:   " << (rep.duplicate_ids.empty() ? "yes" : "NO") << "\n"
              << "char. polys pairwise distinct (irreducible, so coprime): "
              << (rep.equal_charpolys.empty() ? "yes" : "NO") << "\n";
    if (rep.kv_computed && !rep.sets.empty()) {
        std::vector<int> sums;
        for (const auto& s : rep.sets)
            sums.push_back(s.kv.defect_sum());
        std::sort(sums.begin(), sums.end());
        std::cout << "k(v) defect sum over v=1..32: min " << sums.front() << ", median "
                  << sums[sums.size() / 2] << ", max " << sums.back();
        if (rep.max_defect_sum >= 0) std::cout << " (limit " << rep.max_defect_sum << ")";
        std::cout << "\n";
    } else {
        std::cout << "k(v):           not computed (p > " << mt_kv_max_p << ")\n";
    }
    if (verbose) {
        std::cout << "\n  id  primitive  defect_sum  k(1..32)\n";
        for (const auto& s : rep.sets) {
            std::cout << std::setw(4) << s.id << "  " << std::setw(9)
                      << (s.primitive ? "yes" : "NO") << "  " << std::setw(10)
                      << (s.kv_computed ? std::to_string(s.kv.defect_sum()) : "-") << "  "
                      << (s.kv_computed ? kv_list(s.kv) : "") << "\n";
        }
    }
    std::cout << std::fixed << std::setprecision(2) << "time:           " << rep.seconds << " s\n";
}

int run_verify(int argc, char** argv)
{
    std::string what;
    int threads = 0;
    int max_defect = -1;
    po::options_description options("rngvet dc verify options");
    options.add_options()("params", po::value<std::string>(&what)->required(),
        "parameter file (.dat SDK binary or rngvet text) or built-in name fixstars-mt521")(
        "verbose,v", "print k(v) for every set")(
        "max-defect", po::value<int>(&max_defect), "fail sets whose k(v) defect sum exceeds this")(
        "threads", po::value<int>(&threads), "worker threads (default: all cores)");
    po::positional_options_description positional;
    positional.add("params", 1);
    po::variables_map vm;
    if (!parse(argc, argv, options, "usage: rngvet dc verify FILE|fixstars-mt521 [options]", vm,
            &positional)) {
        return 0;
    }
    const MtParamSet set = load_param_set(what);
    const DcVerifyReport rep = dc_verify(set, DcVerifyOptions{ threads, true, max_defect });
    print_summary(rep, vm.count("verbose") > 0);
    const auto failures = rep.failures();
    for (const auto& f : failures)
        std::cout << "FAILED: " << f << "\n";
    std::cout << (failures.empty() ? "all checks passed\n" : "some checks FAILED\n");
    return failures.empty() ? 0 : 1;
}

} // namespace

int cmd_dc(int argc, char** argv)
{
    try {
        if (argc < 2) {
            std::cerr << dc_usage << "\n";
            return 2;
        }
        const std::string sub = argv[1];
        if (sub == "--help" || sub == "-h") {
            std::cout << dc_usage << "\n";
            return 0;
        }
        if (sub == "create") return run_create(argc - 1, argv + 1);
        if (sub == "verify") return run_verify(argc - 1, argv + 1);
        return error_exit("unknown dc subcommand '" + sub + "' (expected create or verify)");
    } catch (const InputError& e) {
        return error_exit(e.what());
    } catch (const std::invalid_argument& e) {
        return error_exit(e.what());
    }
}

} // namespace rngvet::cli
