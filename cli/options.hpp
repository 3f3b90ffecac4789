// Command-line pieces shared by the subcommands.
#pragma once

#include "batteries/records.hpp"
#include "generators/configuration.hpp"

#include <boost/program_options.hpp>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

namespace rngvet::cli {

namespace po = boost::program_options;

// An unsigned option value. Boost reads "-1" into an unsigned type as 2^N - 1; this type takes
// decimal digits only, so a negative or malformed number is an input error instead.
template <class T> struct Unsigned {
    T value{};
};
template <class T> std::ostream& operator<<(std::ostream& out, const Unsigned<T>& u)
{
    return out << u.value;
}
// Boost's hook for parsing an option of type Unsigned<T> (found by argument-dependent lookup).
template <class T>
void validate(boost::any& out, const std::vector<std::string>& values, Unsigned<T>*, int)
{
    const std::string& text = po::validators::get_single_string(values);
    T v = 0;
    bool ok = !text.empty() && text.size() <= 20;
    for (char c : text) {
        if (!ok || c < '0' || c > '9') {
            ok = false;
            break;
        }
        const T digit = static_cast<T>(c - '0');
        if (v > (std::numeric_limits<T>::max() - digit) / 10) ok = false;
        v = static_cast<T>(v * 10 + digit);
    }
    if (!ok) throw po::invalid_option_value(text);
    out = Unsigned<T>{ v };
}

// The options that name a generator configuration (--generator, --seed, --instances, ...): the
// rows of configuration_options.hpp read on the command line, into the ConfigurationText this is.
struct ConfigurationOptions : ConfigurationText {
    void add_to(po::options_description& options, bool generator_required = true);
    // Parses and validates; throws InputError.
    Configuration configuration() const;
    // The options as given, one per line ("--seed\n1802,9373\n..."), to rebuild the
    // configuration later (rngvet run --resume).
    std::string arguments() const;
};

// Whether a run fills the next block on a producer thread (--prefetch of rngvet run; rngvet bench
// --feed takes on and off).
enum class Prefetch { on, off, automatic };
inline constexpr Term<Prefetch> prefetch_terms[] = {
    { Prefetch::on, "on", "" },
    { Prefetch::off, "off", "" },
    { Prefetch::automatic, "auto", "on for GPU backends (cuda, opencl)" },
};
inline constexpr Term<Prefetch> feed_prefetch_terms[] = {
    { Prefetch::on, "on", "" },
    { Prefetch::off, "off", "" },
};

// The values of the command line's own word options, with what each means: --mode and
// --prefetch of rngvet run (from run_mode_terms and prefetch_terms), --prefetch of rngvet bench
// --feed (feed_prefetch_terms), --format of rngvet generate.
const Words& mode_words();
const Words& prefetch_words();
const Words& feed_prefetch_words();
const Words& format_words();
// --compat of rngvet dc create.
const Words& dc_compat_words();
// The word of `words` that `text` is; else InputError "--OPTION must be a, b or c, got 'x'".
const Word& check_word(const Words& words, const std::string& text, const std::string& option);
// The value of `terms` whose text `text` is; else check_word's InputError.
template <class E, std::size_t N>
E parse_term(const Term<E> (&terms)[N], const std::string& text, const std::string& option)
{
    const auto value = term_value(terms, text);
    if (!value) check_word(term_words(terms), text, option); // throws
    return *value;
}

// The batteries with a test of native form, "smallcrush, ..., bigcrush" (for option help).
std::string native_battery_names();

// Parses argv against `options`; returns false (after printing usage) when --help was given.
// Throws InputError on unknown or malformed options.
bool parse(int argc, char** argv, const po::options_description& options, const std::string& usage,
    po::variables_map& vm, const po::positional_options_description* positional = nullptr);

// The process's command line, shell-quoted where needed, for provenance.
std::string command_line(int argc, char** argv);
void set_command_line(int argc, char** argv);
const std::string& recorded_command_line();

// A configuration in the command line's words, resolved as `rngvet run` resolves its options
// (rngvet bench's and rngvet validate's own configurations).
Configuration config_of(const std::string& generator, int instances, const std::string& layout,
    const std::string& backend, const std::string& seed, const std::string& params = "",
    const std::string& seeding = "increment");

} // namespace rngvet::cli
