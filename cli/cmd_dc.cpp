// rngvet dc: the Dynamic Creator. `dc create` searches Mersenne Twister parameter sets and
// writes them in rngvet's text format; `dc verify` checks a parameter file or built-in set.
// Exit status: 0 every check passed, 1 a check failed, 2 bad input.
#include "batteries/runner.hpp"
#include "dc/dynamic_creator.hpp"
#include "generators/error.hpp"
#include "generators/gf2poly.hpp"
#include "generators/mt_params.hpp"
#include "guards.hpp"
#include "options.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
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
    = "usage: rngvet dc create --p P --count N --seed S [--start-id I] [--compat dcmt-0.6.1]\n"
      "                        [--out FILE] [--threads T]\n"
      "       rngvet dc verify FILE|BUILT-IN-SET [--verbose] [--max-defect D] [--threads T]\n"
      "\n"
      "  create   search N Mersenne Twister parameter sets (ids I..I+N-1) of period 2^P-1\n"
      "  verify   check primitivity, distinct ids and characteristic polynomials, k(v)\n"
      "(rngvet dc create --help, rngvet dc verify --help for their options)";

const char* const create_help
    = "Modes (docs/dynamic_creator.md):\n"
      "  default (rngvet)    set i is searched with its own MT19937 seeded by\n"
      "                      init_by_array({seed, id}): a set depends only on (p, seed, id).\n"
      "                      The first two primitive aaa of that stream get dcmt 0.6.1's\n"
      "                      tempering search; the one with the lower k(v) defect sum over\n"
      "                      v = 1..32 is kept, then single-bit flips of maskB and maskC that\n"
      "                      lower it further, so never worse than dcmt's search on the first.\n"
      "  --compat dcmt-0.6.1 the exact sets of dcmt 0.6.1 (and 0.6.2) for\n"
      "                      get_mt_parameters_st(32, P, I, I+N-1, S), which equals init_dc(S)\n"
      "                      then get_mt_parameters(32, P, N-1) for I = 0. One candidate stream\n"
      "                      for all ids, as in dcmt; its candidates are tested in parallel and\n"
      "                      the first primitive one in stream order is kept.\n"
      "Both modes run on --threads threads; progress and an ETA go to standard error when it is\n"
      "a terminal. The file header records creator= and dc_seed=; each set is followed by its\n"
      "k(v) defect sum.\n";

int error_exit(const std::string& message)
{
    std::cerr << "rngvet: error: " << one_line(message) << "\n";
    return 2;
}

// A decimal integer in [lo, hi]; no sign, no wrap-around.
std::int64_t parse_bounded(
    const std::string& name, const std::string& text, std::int64_t lo, std::int64_t hi)
{
    const bool digits = !text.empty() && text.size() <= 12
        && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const std::int64_t v = digits ? std::stoll(text) : -1;
    if (!digits || v < lo || v > hi) {
        throw InputError("--" + name + " " + text + ": need an integer in " + std::to_string(lo)
            + ".." + std::to_string(hi));
    }
    return v;
}

std::string kv_list(const MtEquidistribution& kv)
{
    std::ostringstream out;
    for (int v = 1; v <= 32; ++v)
        out << (v > 1 ? " " : "") << kv.k[v];
    return out.str();
}

std::string format_seconds(double s)
{
    std::ostringstream out;
    if (s < 120) {
        out << static_cast<int>(s + 0.5) << " s";
    } else if (s < 7200) {
        out << static_cast<int>(s / 60 + 0.5) << " min";
    } else {
        out << std::fixed << std::setprecision(1) << s / 3600 << " h";
    }
    return out.str();
}

int run_create(int argc, char** argv)
{
    int p = 0;
    std::string count_text, seed_text, start_text = "0", compat, out_path, threads_text = "0";
    std::string exponents;
    for (const int e : mersenne_exponents())
        if (e >= 521) exponents += " " + std::to_string(e);
    const std::string compat_help
        = word_help(dc_compat_words()) + ": dcmt's exact sets (the two give the same)";
    po::options_description options("rngvet dc create options");
    options.add_options()(
        "p", po::value<int>(&p)->required(), ("Mersenne exponent:" + exponents).c_str())("count",
        po::value<std::string>(&count_text)->required(),
        "number of sets (ids start-id..start-id+count-1)")("seed",
        po::value<std::string>(&seed_text)->required(), "seed of the search (0..4294967295)")(
        "start-id", po::value<std::string>(&start_text), "first id (default 0; ids <= 65535)")(
        "compat", po::value<std::string>(&compat), compat_help.c_str())(
        "out", po::value<std::string>(&out_path), "output file (default: standard output)")(
        "threads", po::value<std::string>(&threads_text), "worker threads (default: all cores)");
    po::variables_map vm;
    if (!parse(argc, argv, options,
            std::string("usage: rngvet dc create --p P --count N --seed S [--start-id I] "
                        "[--compat dcmt-0.6.1] [--out FILE] [--threads T]\n\n")
                + create_help,
            vm)) {
        return 0;
    }
    if (!is_mersenne_exponent(p) || p < 521) {
        throw InputError("--p " + std::to_string(p) + ": need a Mersenne exponent in 521..44497");
    }
    DcCreateOptions o;
    o.p = p;
    o.seed = static_cast<std::uint32_t>(parse_bounded("seed", seed_text, 0, 0xFFFFFFFFll));
    o.start_id = static_cast<int>(parse_bounded("start-id", start_text, 0, 65535));
    o.count = static_cast<int>(parse_bounded("count", count_text, 1, 65536 - o.start_id));
    o.threads = static_cast<int>(parse_bounded("threads", threads_text, 0, 4096));
    if (vm.count("compat")) {
        if (!find_word(dc_compat_words(), compat))
            throw InputError("--compat " + compat + ": expected "
                + word_alternatives(dc_compat_words()) + " (the two give the same sets)");
        o.creator = DcCreator::dcmt_061;
    }
    const bool tty = isatty(STDERR_FILENO) != 0;
    const auto start = std::chrono::steady_clock::now();
    o.progress = [tty, start](int done, int total) {
        if (!tty) return;
        const double el
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cerr << "\rrngvet dc create: " << (100 * done / total) << "% (" << format_seconds(el)
                  << " elapsed, ETA " << format_seconds(el / done * (total - done)) << ")   "
                  << std::flush;
    };
    MtParamSet set = dc_create(o);
    if (tty) std::cerr << "\n";
    const DcVerifyReport rep = dc_verify(set, DcVerifyOptions{ o.threads, true, -1 });
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
    const std::string how = o.creator == DcCreator::dcmt_061
        ? "in dcmt 0.6.1 compatibility mode: the sets of get_mt_parameters_st(32, "
            + std::to_string(p) + ", " + std::to_string(o.start_id) + ", "
            + std::to_string(o.start_id + o.count - 1) + ", " + std::to_string(o.seed) + ")"
        : "in rngvet mode";
    const std::vector<std::string> comments = {
        "Mersenne Twister parameter sets made by the rngvet Dynamic Creator (rngvet dc create)",
        how,
        "p=" + std::to_string(p) + " w=32, DC seed " + std::to_string(o.seed) + ", ids "
            + std::to_string(o.start_id) + ".." + std::to_string(o.start_id + o.count - 1)
            + ", created " + utc_now(),
        lay.str(),
        "Columns: id aaa maskB maskC (hex); after each set: its k(v) defect sum and k(1..32)"
    };
    const std::string text = format_param_text(set, comments,
        std::string("creator=") + dc_creator_name(o.creator) + " dc_seed=" + std::to_string(o.seed),
        set_comments);
    if (out_path.empty()) {
        std::cout << text;
    } else {
        write_file_atomically(out_path, text);
        std::cerr << "rngvet dc create: wrote " << o.count << " sets to " << out_path << "\n";
    }
    if (!rep.passed()) {
        for (const auto& f : rep.failures())
            std::cerr << "rngvet: check failed: " << f << "\n";
        return 1;
    }
    return 0;
}

double median_of(std::vector<int> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

void print_summary(const DcVerifyReport& rep, bool verbose)
{
    std::size_t primitive = 0;
    for (const auto& s : rep.sets)
        primitive += s.primitive ? 1 : 0;
    std::cout << "parameter sets: " << rep.source << "\n"
              << "sha256:         " << (rep.sha256.empty() ? "-" : rep.sha256) << "\n"
              << "creator:        " << (rep.creator.empty() ? "not stated" : rep.creator)
              << (rep.dc_seed.empty() ? "" : ", DC seed " + rep.dc_seed) << "\n"
              << "p:              " << rep.p << " (w = 32), " << rep.sets.size() << " sets\n"
              << "primitive:      " << primitive << "/" << rep.sets.size() << "\n"
              << "ids distinct:   " << (rep.duplicate_ids.empty() ? "yes" : "NO") << "\n"
              << "char. polys pairwise distinct (irreducible, so coprime): "
              << (rep.equal_charpolys.empty() ? "yes" : "NO") << "\n";
    const DcmtReference* ref = dcmt_reference(rep.p);
    if (rep.kv_computed && !rep.sets.empty()) {
        std::vector<int> sums;
        for (const auto& s : rep.sets)
            sums.push_back(s.kv.defect_sum());
        std::cout << "k(v) defect sum over v=1..32: min "
                  << *std::min_element(sums.begin(), sums.end()) << ", median " << median_of(sums)
                  << ", max " << *std::max_element(sums.begin(), sums.end());
        if (rep.max_defect_sum >= 0) std::cout << " (limit " << rep.max_defect_sum << ")";
        std::cout << "\n";
        if (ref) {
            std::cout << "dcmt 0.6.1 for p=" << rep.p << " (" << ref->sets << " sets, " << ref->call
                      << "): min " << ref->min << ", median " << ref->median << ", max " << ref->max
                      << "\n";
        } else {
            std::cout << "dcmt 0.6.1 for p=" << rep.p << ": no stored reference\n";
        }
    } else {
        std::cout << "k(v):           not computed\n";
    }
    if (verbose) {
        std::cout << "\n  id  primitive  defect_sum  vs_dcmt_median  k(1..32)\n";
        for (const auto& s : rep.sets) {
            std::string vs = "-";
            if (s.kv_computed && ref) {
                std::ostringstream d;
                d << std::showpos << (s.kv.defect_sum() - ref->median);
                vs = d.str();
            }
            std::cout << std::setw(4) << s.id << "  " << std::setw(9)
                      << (s.primitive ? "yes" : "NO") << "  " << std::setw(10)
                      << (s.kv_computed ? std::to_string(s.kv.defect_sum()) : "-") << "  "
                      << std::setw(14) << vs << "  " << (s.kv_computed ? kv_list(s.kv) : "")
                      << "\n";
        }
    }
    std::cout << std::fixed << std::setprecision(2) << "time:           " << rep.seconds << " s\n";
}

int run_verify(int argc, char** argv)
{
    std::string what;
    std::string threads_text = "0";
    std::string max_defect_text;
    po::options_description options("rngvet dc verify options");
    options.add_options()("params", po::value<std::string>(&what)->required(),
        ("parameter file (.dat SDK binary or rngvet text) or built-in set: "
            + word_list(builtin_param_set_words()))
            .c_str())("verbose,v", "print k(v) for every set")("max-defect",
        po::value<std::string>(&max_defect_text), "fail sets whose k(v) defect sum exceeds this")(
        "threads", po::value<std::string>(&threads_text), "worker threads (default: all cores)");
    po::positional_options_description positional;
    positional.add("params", 1);
    po::variables_map vm;
    if (!parse(argc, argv, options, "usage: rngvet dc verify FILE|BUILT-IN-SET [options]", vm,
            &positional)) {
        return 0;
    }
    const int threads = static_cast<int>(parse_bounded("threads", threads_text, 0, 4096));
    const int max_defect = max_defect_text.empty()
        ? -1
        : static_cast<int>(parse_bounded("max-defect", max_defect_text, 0, 1 << 30));
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
