#include "options.hpp"

#include "batteries/engine.hpp"
#include "batteries/registry.hpp"
#include "generators/error.hpp"
#include "guards.hpp"
#include "kernels/backend.hpp"

#include <iostream>
#include <sstream>

namespace rngvet::cli {
namespace {

// "seeds: ranmar24, ranmar48, ranmar48x IJ,KL; mtdc S; ...", from the registry: the rows that
// take seeds, those of one format together.
std::string seed_help()
{
    std::string help, names;
    const auto& rows = generator_registry();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!*rows[i].seed_format) continue;
        names += (names.empty() ? "" : ", ") + std::string(rows[i].name);
        const bool last
            = i + 1 == rows.size() || std::string(rows[i + 1].seed_format) != rows[i].seed_format;
        if (!last) continue;
        help += (help.empty() ? "seeds: " : "; ") + names + " " + rows[i].seed_format;
        names.clear();
    }
    return help
        + " (e.g. 1802,9373 for RANMAR, or CERNLIB's IJKL 54217137, that is IJ = IJKL / 30082, "
          "KL = IJKL mod 30082; K1,K2,... seeds mt19937 by init_by_array); external "
          "streams: the seed their generator was given, recorded as given";
}

} // namespace

void ConfigurationOptions::add_to(po::options_description& options, bool generator_required)
{
    auto* generator_value = po::value(&generator);
    if (generator_required) generator_value->required();
    // The help of each option that takes words is written from the parser's own table.
    const std::string generator_help = "generator (any case): " + generator_list();
    const std::string params_help = "mtdc parameter sets: a built-in set, "
        + word_help(builtin_param_set_words())
        + "; a file (.dat of the NVIDIA SDK, or rngvet's text format); or "
          "p=P,aaa=A,maskB=B,maskC=C";
    const std::string layout_help = "how instances combine: " + word_help(layout_words());
    const std::string seeding_help = "instance seeds: " + word_help(seeding_words());
    const std::string zero_help = "RANMAR's exact zero: " + word_help(zero_words());
    const std::string backend_help
        = "where the numbers are made (any case; see rngvet list): " + word_help(backend_words());
    const std::string view_help = "the 32-bit words TestU01 reads: " + word_help(view_words());
    options.add_options()("generator,g", generator_value, generator_help.c_str())(
        "seed,s", po::value(&seed), seed_help().c_str())("name", po::value(&name),
        "external streams (stdin32, stdin64, file:PATH, file64:PATH): the name of the generator "
        "behind them (letters, digits, . _ + -); the configuration becomes stdin32[NAME] etc., "
        "so runs of other generators or seeds are told apart")("params", po::value(&params),
        params_help.c_str())("param-id", po::value(&param_id)->default_value(0),
        "mtdc: instance i uses parameter set param-id + i")("instances,n",
        po::value(&instances)->default_value(1),
        "independent instances")("layout", po::value(&layout), layout_help.c_str())("seeding",
        po::value(&seeding)->default_value("increment"),
        seeding_help.c_str())("zero", po::value(&zero)->default_value("keep"), zero_help.c_str())(
        "skip", po::value(&skip)->default_value(skip), "numbers skipped before use")(
        "backend", po::value(&backend)->default_value("cpu"), backend_help.c_str())(
        "view", po::value(&view)->default_value("top32"), view_help.c_str())("library-sha256",
        po::value(&library_sha256),
        "plugin generators (lib:PATH): refuse unless the library's SHA-256 is this, e.g. the hash "
        "a campaign's tasks were planned with");
}

const Words& mode_words()
{
    static const Words words = term_words(run_mode_terms);
    return words;
}

const Words& prefetch_words()
{
    static const Words words = term_words(prefetch_terms);
    return words;
}

const Words& feed_prefetch_words()
{
    static const Words words = term_words(feed_prefetch_terms);
    return words;
}

const Words& format_words()
{
    static const Words words = {
        { "u32", "little-endian top 32 bits, as TestU01's GetBits" },
        { "double", "little-endian, as GetU01" },
        { "text-u32", "" },
        { "text-double", "%.17g" },
    };
    return words;
}

std::string native_battery_names()
{
    std::string out;
    for (const BatteryFamily& f : battery_registry())
        if (!native_tests_text(catalogue_for(f.name)).empty())
            out += (out.empty() ? "" : ", ") + std::string(f.name);
    return out;
}

const Words& dc_compat_words()
{
    static const Words words = {
        { "dcmt-0.6.1", "" },
        { "dcmt-0.6.2", "" },
    };
    return words;
}

const Word& check_word(const Words& words, const std::string& text, const std::string& option)
{
    for (const Word& w : words)
        if (text == w.form) return w;
    throw InputError(
        "--" + option + " must be " + word_alternatives(words) + ", got '" + text + "'");
}

Configuration ConfigurationOptions::configuration() const
{
    ConfigurationText text;
    text.generator = generator;
    text.seed = seed;
    text.name = name;
    text.params = params;
    text.param_id = param_id;
    text.instances = instances;
    text.layout = layout;
    text.seeding = seeding;
    text.zero = zero;
    text.skip = skip.value;
    text.backend = backend;
    text.view = view;
    text.library_sha256 = library_sha256;
    return resolve_configuration_here(text);
}

std::string ConfigurationOptions::arguments() const
{
    std::ostringstream out;
    out << "--generator\n" << generator << "\n";
    if (!seed.empty()) out << "--seed\n" << seed << "\n";
    if (!name.empty()) out << "--name\n" << name << "\n";
    if (!params.empty()) out << "--params\n" << params << "\n--param-id\n" << param_id << "\n";
    out << "--instances\n" << instances << "\n";
    if (!layout.empty()) out << "--layout\n" << layout << "\n";
    out << "--seeding\n" << seeding << "\n--zero\n" << zero << "\n--skip\n" << skip.value << "\n";
    out << "--backend\n" << backend << "\n";
    if (view != "top32") out << "--view\n" << view << "\n";
    if (!library_sha256.empty()) out << "--library-sha256\n" << library_sha256 << "\n";
    return out.str();
}

bool parse(int argc, char** argv, const po::options_description& options, const std::string& usage,
    po::variables_map& vm, const po::positional_options_description* positional)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::cout << usage << "\n\n" << options << "\n";
            return false;
        }
    }
    try {
        po::command_line_parser parser(argc, argv);
        parser.options(options);
        // Without positional arguments of its own a command refuses stray words.
        const po::positional_options_description none;
        parser.positional(positional ? *positional : none);
        const po::parsed_options parsed = parser.run();
        // A named option given the value '' (--layout '', --mode=) is refused, never taken as
        // its default; --db keeps its own message for the names that would keep nothing. An
        // option given without a value (a switch, an implicit value) is not one of these.
        for (const po::option& o : parsed.options) {
            if (o.position_key != -1 || o.unregistered) continue;
            const bool empty_word
                = o.original_tokens.size() > 1 && o.original_tokens.back().empty();
            const bool empty_assigned = o.original_tokens.size() == 1
                && !o.original_tokens[0].empty() && o.original_tokens[0].back() == '=';
            if (!empty_word && !empty_assigned) continue;
            if (o.string_key == "db")
                throw InputError(
                    "--db must name a file ('' is no database and would keep nothing)");
            throw InputError("--" + o.string_key + " needs a value; '' is not one (see --help)");
        }
        po::store(parsed, vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw InputError(std::string(e.what()) + " (see --help)");
    }
    return true;
}

namespace {
std::string recorded;
}

std::string command_line(int argc, char** argv)
{
    std::string out;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (i) out += ' ';
        if (a.find_first_of(" \t'\"$\\`;&|<>()*?") == std::string::npos && !a.empty()) {
            out += a;
        } else {
            out += '\'';
            for (char c : a)
                out += c == '\'' ? std::string("'\\''") : std::string(1, c);
            out += '\'';
        }
    }
    return out;
}

void set_command_line(int argc, char** argv)
{
    recorded = command_line(argc, argv);
}
const std::string& recorded_command_line()
{
    return recorded;
}

Configuration config_of(const std::string& g, int instances, const std::string& layout,
    const std::string& backend, const std::string& seed, const std::string& params,
    const std::string& seeding)
{
    ConfigurationText text;
    text.generator = g;
    text.seed = seed;
    text.params = params;
    text.instances = instances;
    text.layout = layout;
    text.seeding = seeding;
    text.backend = backend;
    return resolve_configuration(text);
}

} // namespace rngvet::cli
