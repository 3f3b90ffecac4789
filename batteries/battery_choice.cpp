#include "battery_choice.hpp"

#include "engine.hpp"
#include "registry.hpp"

namespace rngvet {

const std::vector<BatteryChoiceOption>& battery_choice_options()
{
    static const std::vector<BatteryChoiceOption> rows = {
        { "battery", 'b', &BatteryChoiceText::battery,
            [] {
                return "battery (any case): " + battery_names()
                    + "; also with its parameters, e.g. rabbit(nb=2^20), mcpi(points=10^6,reps=4)";
            },
            battery_names, Written::always },
        { "tests", 0, &BatteryChoiceText::tests,
            [] { return std::string("run only these tests of the battery, e.g. 1,5,10"); }, nullptr,
            Written::if_given },
        { "engine", 0, &BatteryChoiceText::engine,
            [] {
                std::string native_by_default;
                for (const BatteryFamily& family : battery_registry())
                    if (family.native_by_default)
                        native_by_default
                            += (native_by_default.empty() ? "" : ", ") + std::string(family.name);
                return "what computes the statistics: " + word_help(engine_words())
                    + "; default: auto for a battery proven wholly native (" + native_by_default
                    + "), testu01 otherwise; see rngvet list";
            },
            [] { return word_list(engine_words()); }, Written::if_given },
    };
    return rows;
}

const BatteryChoiceOption* find_battery_choice_option(const std::string& name)
{
    for (const BatteryChoiceOption& row : battery_choice_options())
        if (name == row.name) return &row;
    return nullptr;
}

std::vector<std::string> battery_choice_arguments(const BatteryChoiceText& text)
{
    static const BatteryChoiceText defaults;
    std::vector<std::string> out;
    for (const BatteryChoiceOption& row : battery_choice_options()) {
        const std::string& value = text.*row.field;
        // (No row is written with the row before it.)
        if (row.written == Written::always
            || (row.written == Written::if_given && value != defaults.*row.field))
            out.insert(out.end(), { std::string("--") + row.name, value });
    }
    return out;
}

} // namespace rngvet
