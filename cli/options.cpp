#include "options.hpp"

#include "batteries/engine.hpp"
#include "batteries/registry.hpp"
#include "generators/configuration_options.hpp"
#include "generators/error.hpp"
#include "guards.hpp"
#include "kernels/backend.hpp"

#include <iostream>

namespace rngvet::cli {

void ConfigurationOptions::add_to(po::options_description& options, bool generator_required)
{
    const ConfigurationText defaults;
    for (const ConfigurationOption& row : configuration_options()) {
        if (!(row.places & on_command_line)) continue;
        const std::string spec
            = std::string(row.name) + (row.short_name ? std::string(",") + row.short_name : "");
        po::value_semantic* value = nullptr;
        if (row.field.word) {
            auto* v = po::value(&(this->*row.field.word));
            if (!(defaults.*row.field.word).empty()) v->default_value(defaults.*row.field.word);
            if (generator_required && row.field.word == &ConfigurationText::generator)
                v->required();
            value = v;
        } else if (row.field.count) {
            value = po::value(&(this->*row.field.count))->default_value(defaults.*row.field.count);
        } else {
            // Digits only (Unsigned): boost would read "-1" as 2^64 - 1.
            std::uint64_t* target = &(this->*row.field.number);
            value
                = po::value<Unsigned<std::uint64_t>>()
                      ->default_value(Unsigned<std::uint64_t>{ defaults.*row.field.number })
                      ->notifier([target](const Unsigned<std::uint64_t>& u) { *target = u.value; });
        }
        options.add_options()(spec.c_str(), value, row.help().c_str());
    }
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
    return resolve_configuration_here(*this);
}

std::string ConfigurationOptions::arguments() const
{
    std::string out;
    for (const std::string& word : configuration_arguments(*this))
        out += word + "\n";
    return out;
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
