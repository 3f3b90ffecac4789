// The options of a configuration, one row each: the schema that the command line (rngvet run,
// generate and validate), a campaign file's [configuration NAME] keys, librngvet's options form,
// the arguments a run stores and a campaign task passes, `rngvet list`'s option values (hence the
// bash completion) and --help (hence the man pages) all read. A row names the option, the
// ConfigurationText member it fills, the parser that turns the member's text into the
// Configuration (resolve_configuration runs them in the rows' order), its help, its words, where
// it is read and when it is written out. Adding an option is one row here, its member in
// ConfigurationText and its field in Configuration.
#pragma once

#include "configuration.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

// Where an option is read (a row's `places`, any of them or'ed).
enum OptionPlace : unsigned {
    on_command_line = 1u, // --NAME of rngvet run, generate and validate
    in_campaign_file = 2u, // the key NAME of a [configuration NAME] section
    in_library_options = 4u, // --NAME VALUE of librngvet's options form
};
inline constexpr unsigned everywhere = on_command_line | in_campaign_file | in_library_options;

// When the option is among the rngvet run arguments that give a configuration (the options a
// run stores, a campaign task's arguments): always; when its text differs from the default;
// when the row before it is written (--param-id with --params).
enum class Written { always, if_given, with_previous };

// The ConfigurationText member an option fills: a word, a count (int) or a number (64 bits);
// exactly one is set.
struct OptionField {
    std::string ConfigurationText::*word = nullptr;
    int ConfigurationText::*count = nullptr;
    std::uint64_t ConfigurationText::*number = nullptr;
};
constexpr OptionField word_field(std::string ConfigurationText::*m)
{
    return { m, nullptr, nullptr };
}
constexpr OptionField count_field(int ConfigurationText::*m)
{
    return { nullptr, m, nullptr };
}
constexpr OptionField number_field(std::uint64_t ConfigurationText::*m)
{
    return { nullptr, nullptr, m };
}

struct ConfigurationOption {
    const char* name; // "param-id": --param-id, the campaign key param-id
    char short_name; // 'g' of -g; 0 for none
    OptionField field;
    // A count's or number's range as a campaign file's key reads it (the command line and the
    // library read the type's range, and validate refuses what the configuration cannot take).
    std::int64_t min, max;
    // The parser: this option's text (and the rows' before it, already in `config`) into the
    // configuration; InputError with its one-line message.
    void (*resolve)(Configuration& config, const ConfigurationText& text);
    // A check once the configuration is loaded and validated (--library-sha256 compares the
    // library's hash); nullptr for none.
    void (*check)(const Configuration& config, const ConfigurationText& text);
    std::string (*help)(); // for --help
    // The values `rngvet list` names ("single, interleave, block:K, request:R"; the bash
    // completion reads them there); nullptr for the user's own text.
    std::string (*values)();
    unsigned places; // OptionPlace bits
    Written written;
};

// The rows, in the order of --help, of the written arguments and of resolution.
const std::vector<ConfigurationOption>& configuration_options();
// The row named `name` that is read at `place`; nullptr for none.
const ConfigurationOption* find_configuration_option(const std::string& name, OptionPlace place);
// The names read at `place`, "--generator, --seed, ..." (with `prefix` "--") in the rows' order.
std::string configuration_option_names(OptionPlace place, const std::string& prefix);

// The option's member of `text` as text ("4", "interleave"), and whether it differs from the
// default (ConfigurationText's own initial value).
std::string option_text(const ConfigurationText& text, const ConfigurationOption& row);
bool option_given(const ConfigurationText& text, const ConfigurationOption& row);
// Sets a word row's member, or a count's or number's (a count beyond int is InputError).
void set_option_word(
    ConfigurationText& text, const ConfigurationOption& row, const std::string& word);
void set_option_number(
    ConfigurationText& text, const ConfigurationOption& row, std::uint64_t value);

// The rngvet run arguments that give `text`'s configuration, one word per element
// ("--generator", "ranmar48", "--seed", ...), each row as its `written` says.
std::vector<std::string> configuration_arguments(const ConfigurationText& text);

} // namespace rngvet
