#include "configuration_options.hpp"

#include "error.hpp"
#include "mt_params.hpp"

#include <limits>
#include <stdexcept>

namespace rngvet {
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

void resolve_seed(Configuration& c, const ConfigurationText& t)
{
    // An external stream's seed is the user's generator's, recorded as given.
    if (family_traits(c.generator).reads_words)
        c.stream_seed = t.seed;
    else if (!t.seed.empty())
        c.seed = parse_seed(t.seed);
    // A one-number seed is stored as the seed it stands for (RANMAR's IJKL: its IJ,KL).
    if (c.seed.size() == 1 && family_traits(c.generator).seed_of_number)
        c.seed = family_traits(c.generator).seed_of_number(to_string(c.generator), c.seed[0]);
}

void check_library_sha256(const Configuration& c, const ConfigurationText& t)
{
    if (t.library_sha256.empty()) return;
    const FamilyTraits& f = family_traits(c.generator);
    if (!f.loaded_sha256)
        throw InputError("--library-sha256 applies to generators that load a library "
                         "(lib:PATH), not to "
            + to_string(c.generator));
    const std::string sha256 = f.loaded_sha256(c);
    if (sha256 != t.library_sha256)
        throw InputError("the library '" + c.generator.path + "' has SHA-256 " + sha256 + ", not "
            + t.library_sha256
            + " (--library-sha256): it changed since the run was "
              "planned");
}

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr unsigned cli_and_library = on_command_line | in_library_options;

} // namespace

const std::vector<ConfigurationOption>& configuration_options()
{
    // The help of each option that takes words is written from its parser's own table.
    static const std::vector<ConfigurationOption> rows = {
        { "generator", 'g', word_field(&ConfigurationText::generator), 0, 0,
            [](Configuration& c, const ConfigurationText& t) {
                c.generator = parse_generator(t.generator);
            },
            nullptr, [] { return "generator (any case): " + generator_list(); }, generator_list,
            everywhere, Written::always },
        { "seed", 's', word_field(&ConfigurationText::seed), 0, 0, resolve_seed, nullptr, seed_help,
            nullptr, cli_and_library, Written::if_given },
        { "name", 0, word_field(&ConfigurationText::name), 0, 0,
            [](Configuration& c, const ConfigurationText& t) { c.stream_name = t.name; }, nullptr,
            [] {
                return std::string(
                    "external streams (stdin32, stdin64, file:PATH, file64:PATH): the name of "
                    "the generator behind them (letters, digits, . _ + -); the configuration "
                    "becomes stdin32[NAME] etc., so runs of other generators or seeds are told "
                    "apart");
            },
            nullptr, on_command_line, Written::if_given },
        { "params", 0, word_field(&ConfigurationText::params), 0, 0,
            [](Configuration& c, const ConfigurationText& t) { c.params = t.params; }, nullptr,
            [] {
                return "mtdc parameter sets: a built-in set, "
                    + word_help(builtin_param_set_words())
                    + "; a file (.dat of the NVIDIA SDK, or rngvet's text format); or "
                      "p=P,aaa=A,maskB=B,maskC=C";
            },
            [] { return word_list(builtin_param_set_words()) + ", FILE"; }, everywhere,
            Written::if_given },
        { "param-id", 0, count_field(&ConfigurationText::param_id), 0, 1 << 30,
            [](Configuration& c, const ConfigurationText& t) { c.param_id = t.param_id; }, nullptr,
            [] { return std::string("mtdc: instance i uses parameter set param-id + i"); }, nullptr,
            everywhere, Written::with_previous },
        { "instances", 'n', count_field(&ConfigurationText::instances), 1, 1 << 30,
            [](Configuration& c, const ConfigurationText& t) { c.instances = t.instances; },
            nullptr, [] { return std::string("independent instances"); }, nullptr, everywhere,
            Written::always },
        { "layout", 0, word_field(&ConfigurationText::layout), 0, 0,
            [](Configuration& c, const ConfigurationText& t) {
                c.layout = t.layout.empty() ? default_layout(t.instances) : parse_layout(t.layout);
            },
            nullptr, [] { return "how instances combine: " + word_help(layout_words()); },
            [] { return word_list(layout_words()); }, everywhere, Written::if_given },
        { "seeding", 0, word_field(&ConfigurationText::seeding), 0, 0,
            [](Configuration& c, const ConfigurationText& t) {
                c.seeding = parse_seeding(t.seeding);
            },
            nullptr, [] { return "instance seeds: " + word_help(seeding_words()); },
            [] { return word_list(seeding_words()); }, everywhere, Written::always },
        { "zero", 0, word_field(&ConfigurationText::zero), 0, 0,
            [](Configuration& c, const ConfigurationText& t) {
                c.zero = parse_zero_policy(t.zero);
            },
            nullptr, [] { return "RANMAR's exact zero: " + word_help(zero_words()); },
            [] { return word_list(zero_words()); }, everywhere, Written::always },
        { "skip", 0, number_field(&ConfigurationText::skip), 0, int64_max,
            [](Configuration& c, const ConfigurationText& t) { c.skip = t.skip; }, nullptr,
            [] { return std::string("numbers skipped before use"); }, nullptr, everywhere,
            Written::always },
        { "backend", 0, word_field(&ConfigurationText::backend), 0, 0,
            [](Configuration& c, const ConfigurationText& t) {
                c.backend = parse_backend(t.backend);
            },
            nullptr,
            [] {
                return "where the numbers are made (any case; see rngvet list): "
                    + word_help(backend_words());
            },
            [] { return word_list(backend_words()); }, everywhere, Written::always },
        { "view", 0, word_field(&ConfigurationText::view), 0, 0,
            [](Configuration& c, const ConfigurationText& t) { c.view = parse_view(t.view); },
            nullptr, [] { return "the 32-bit words TestU01 reads: " + word_help(view_words()); },
            [] { return word_list(view_words()); }, everywhere, Written::if_given },
        { "library-sha256", 0, word_field(&ConfigurationText::library_sha256), 0, 0,
            [](Configuration&, const ConfigurationText&) {}, check_library_sha256,
            [] {
                return std::string(
                    "generators that load a library (lib:PATH): refuse unless its SHA-256 is this, "
                    "e.g. the hash a campaign's tasks were planned with");
            },
            nullptr, on_command_line, Written::if_given },
    };
    return rows;
}

const ConfigurationOption* find_configuration_option(const std::string& name, OptionPlace place)
{
    for (const ConfigurationOption& row : configuration_options())
        if ((row.places & place) && name == row.name) return &row;
    return nullptr;
}

std::string configuration_option_names(OptionPlace place, const std::string& prefix)
{
    std::string out;
    for (const ConfigurationOption& row : configuration_options())
        if (row.places & place) out += (out.empty() ? "" : ", ") + prefix + row.name;
    return out;
}

std::string option_text(const ConfigurationText& text, const ConfigurationOption& row)
{
    if (row.field.word) return text.*row.field.word;
    if (row.field.count) return std::to_string(text.*row.field.count);
    return std::to_string(text.*row.field.number);
}

bool option_given(const ConfigurationText& text, const ConfigurationOption& row)
{
    static const ConfigurationText defaults;
    return option_text(text, row) != option_text(defaults, row);
}

void set_option_word(
    ConfigurationText& text, const ConfigurationOption& row, const std::string& word)
{
    if (!row.field.word) throw std::logic_error(std::string("--") + row.name + " is not a word");
    text.*row.field.word = word;
}

void set_option_number(ConfigurationText& text, const ConfigurationOption& row, std::uint64_t value)
{
    if (row.field.number) {
        text.*row.field.number = value;
    } else if (row.field.count) {
        if (value > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
            throw InputError(
                std::string("--") + row.name + " is too large: " + std::to_string(value));
        text.*row.field.count = static_cast<int>(value);
    } else {
        throw std::logic_error(std::string("--") + row.name + " is not a number");
    }
}

std::vector<std::string> configuration_arguments(const ConfigurationText& text)
{
    std::vector<std::string> out;
    bool previous = false; // whether the row before was written
    for (const ConfigurationOption& row : configuration_options()) {
        const bool write = row.written == Written::always
            || (row.written == Written::if_given && option_given(text, row))
            || (row.written == Written::with_previous && previous);
        if (write) out.insert(out.end(), { std::string("--") + row.name, option_text(text, row) });
        previous = write;
    }
    return out;
}

Configuration resolve_configuration(const ConfigurationText& text)
{
    Configuration c;
    for (const ConfigurationOption& row : configuration_options())
        row.resolve(c, text);
    // The sets are read once, here, and validate checks them; when they cannot be read,
    // validate reports the first problem in its own order (it reads them again at its step).
    try {
        load_param_sets(c);
    } catch (const InputError&) {
        validate(c);
        throw;
    }
    validate(c);
    for (const ConfigurationOption& row : configuration_options())
        if (row.check) row.check(c, text);
    return c;
}

} // namespace rngvet
