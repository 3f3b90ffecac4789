// What a run runs besides its configuration: the battery, which of its tests and the engine that
// computes them. These are the options rngvet run and a campaign file's [campaign] section share,
// one row each, as configuration_options.hpp's rows are the configuration's: the row names the
// option (--battery, and the key battery), the BatteryChoiceText member it fills, its help and
// its words (rngvet list). rngvet run's options and --help, the [campaign] keys, a campaign
// task's rngvet run arguments and rngvet list read the rows; each reader parses the words as its
// own place needs (rngvet run with the battery's parameter options, a campaign file with its
// line numbers).
#pragma once

#include "generators/configuration_options.hpp"

#include <string>
#include <vector>

namespace rngvet {

// The words of the options; the initial values are their defaults on the command line.
struct BatteryChoiceText {
    std::string battery = "smallcrush"; // a battery name, with parameters or not
    std::string tests; // "1,5,10"; "" for all
    std::string engine; // testu01, native, auto; "" for the battery's default
};

struct BatteryChoiceOption {
    const char* name; // --NAME of rngvet run, the [campaign] key NAME
    char short_name; // 'b' of -b; 0 for none
    std::string BatteryChoiceText::*field;
    std::string (*help)(); // for --help
    std::string (*values)(); // what rngvet list names; nullptr for the user's own text
    Written written; // in a campaign task's rngvet run arguments
};

// The rows, in the order of --help and of the written arguments.
const std::vector<BatteryChoiceOption>& battery_choice_options();
// The row named `name`; nullptr for none.
const BatteryChoiceOption* find_battery_choice_option(const std::string& name);
// The rngvet run arguments of `text` ("--battery", "crush", "--tests", "1,2"), each row as its
// `written` says.
std::vector<std::string> battery_choice_arguments(const BatteryChoiceText& text);

} // namespace rngvet
