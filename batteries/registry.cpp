// The battery registry (registry.hpp) and what a battery name means (catalogue_for,
// battery_title), read from it.
#include "registry.hpp"

#include "generators/error.hpp"
#include "generators/words.hpp"
#include "lattice/ising_battery.hpp"
#include "mcpi.hpp"

#include <algorithm>
#include <stdexcept>

extern "C" {
#include <testu01/bbattery.h>
}

namespace rngvet {

const std::vector<BatteryFamily>& battery_registry()
{
    using Given = const BatteryParameters&;
    using Battery = const BatteryCatalogue&;
    const BatteryOption nb = { "nb", "nb",
        "rabbit, alphabit: bits each test reads, digits or 2^K; a multiple of 32 from 512 to 2^40 "
        "(default 2^25)" };
    const BatteryOption alphabit_r = { "alphabit-r", "r",
        "alphabit: most significant bits dropped from each number (default 0)" };
    const BatteryOption alphabit_s
        = { "alphabit-s", "s", "alphabit: bits used from each number, r + s <= 32 (default 32)" };
    const BatteryOption mcpi_points = { "mcpi-points", "points",
        "mcpi: points per replication, digits, 2^K or 10^K, at least 100 (default 4000000)" };
    const BatteryOption mcpi_reps
        = { "mcpi-reps", "reps", "mcpi: replications per test, 1 to 100 (default 10)" };
    const BatteryOption ising_L
        = { "ising-L", "L", "ising: the lattice's side L, even, 4 to 1024 (default 16)" };
    const BatteryOption ising_K = { "ising-K", "K",
        "ising: coupling K = J/kT, above 0, at most 1, or Kc (default Kc = ln(1 + sqrt 2) / 2)" };
    const BatteryOption ising_therm = { "ising-therm", "therm",
        "ising: steps per replica before measuring, digits, 2^K or 10^K (default 1024)" };
    const BatteryOption ising_steps = { "ising-steps", "steps",
        "ising: measured steps per replica (a Wolff cluster or a sweep), a multiple of 1024 "
        "(default 65536)" };
    const BatteryOption ising_reps
        = { "ising-reps", "reps", "ising: replicas per test, 2 to 64 (default 8)" };
    const BatteryOption ising_lanes = { "ising-lanes", "lanes",
        "ising: lanes M, 1 to 65536 (default 1): site or bond i draws from lane i mod M; with "
        "--instances M --layout interleave lane k is instance k (the per-site mode)" };
    const BatteryOption ising_own = { "ising-own", "own",
        "ising: 1: the replicas run together, replica r reading lane r alone (instance r under "
        "--instances M --layout interleave), reps 2 to M, up to 65536; 0: the default" };
    static const std::vector<BatteryFamily> families = {
        { "smallcrush", "SmallCrush", "", tables::smallcrush_tests, {}, "smallcrush", {},
            [](Given) -> Battery { return smallcrush_catalogue(); },
            [](unif01_Gen* gen, Battery, int* rep) { bbattery_RepeatSmallCrush(gen, rep); },
            nullptr, false, true, true },
        // mcpi, the application, right after SmallCrush: the two batteries of about the same cost.
        { "mcpi", "mcpi", "Monte Carlo pi, rngvet's own", tables::mcpi_tests, { "points", "reps" },
            "mcpi(points=N,reps=R)", { mcpi_points, mcpi_reps }, mcpi_from, nullptr, run_mcpi,
            false, false, false },
        // ising, the lattice application, after mcpi: rngvet's own batteries together.
        { "ising", "Ising", "2D Ising model against Kaufman's exact values, rngvet's own",
            tables::ising_tests, { "L", "K", "therm", "steps", "reps", "lanes", "own" },
            "ising(L=L,K=K,therm=T,steps=S,reps=R,lanes=M,own=0|1)",
            { ising_L, ising_K, ising_therm, ising_steps, ising_reps, ising_lanes, ising_own },
            ising_from, nullptr, run_ising, false, false, false },
        { "crush", "Crush", "", tables::crush_tests, {}, "crush", {},
            [](Given) -> Battery { return crush_catalogue(); },
            [](unif01_Gen* gen, Battery, int* rep) { bbattery_RepeatCrush(gen, rep); }, nullptr,
            false, true, true },
        { "bigcrush", "BigCrush", "", tables::bigcrush_tests, {}, "bigcrush", {},
            [](Given) -> Battery { return bigcrush_catalogue(); },
            [](unif01_Gen* gen, Battery, int* rep) { bbattery_RepeatBigCrush(gen, rep); }, nullptr,
            false, true, true },
        { "rabbit", "Rabbit", "", tables::rabbit_tests, { "nb" }, "rabbit(nb=BITS)", { nb },
            rabbit_from,
            [](unif01_Gen* gen, Battery b, int* rep) { bbattery_RepeatRabbit(gen, b.nb, rep); },
            nullptr, false, true, false },
        { "alphabit", "Alphabit", "", tables::alphabit_tests, { "nb", "r", "s" },
            "alphabit(nb=BITS,r=R,s=S)", { nb, alphabit_r, alphabit_s }, alphabit_from,
            [](unif01_Gen* gen, Battery b, int* rep) {
                bbattery_RepeatAlphabit(gen, b.nb, b.r, b.s, rep);
            },
            nullptr, true, true, false },
    };
    return families;
}

std::string battery_names()
{
    std::string out;
    for (const BatteryFamily& f : battery_registry())
        out += (out.empty() ? "" : ", ") + std::string(f.name);
    return out;
}

const BatteryFamily* find_battery_family(const std::string& family)
{
    const std::string name = lower_case(family);
    for (const BatteryFamily& f : battery_registry())
        if (name == f.name) return &f;
    return nullptr;
}

namespace {

// The parameters of "FAMILY(key=value,...)", each of the family's keys at most once (none for
// the bare FAMILY); any other spelling is an InputError showing the family's form.
BatteryParameters name_parameters(const std::string& battery, const BatteryFamily& family)
{
    BatteryParameters given;
    const std::size_t base = std::string(family.name).size();
    if (battery.size() == base) return given;
    const InputError refused(family.keys.empty()
            ? "battery '" + battery + "': " + family.name + " takes no parameters"
            : "battery '" + battery + "': write its parameters as " + family.form);
    if (battery[base] != '(' || battery.back() != ')') throw refused;
    const std::string list = battery.substr(base + 1, battery.size() - base - 2);
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string item = list.substr(start, comma - start);
        const std::size_t eq = item.find('=');
        const std::string key = item.substr(0, eq);
        const bool known
            = std::find(family.keys.begin(), family.keys.end(), key) != family.keys.end();
        if (eq == std::string::npos || !known
            || !given.emplace(key, ParameterText{ item.substr(eq + 1), family.name + (" " + key) })
                    .second)
            throw refused;
        start = comma + 1;
    }
    return given;
}

} // namespace

const BatteryFamily& battery_family_row(const std::string& family)
{
    if (const BatteryFamily* f = find_battery_family(family)) return *f;
    throw InputError("unknown battery '" + family + "' (valid: " + battery_names() + ")");
}

const BatteryCatalogue& catalogue_for(const std::string& battery)
{
    const BatteryFamily* family = find_battery_family(battery_family(battery));
    if (family == nullptr)
        throw InputError("unknown battery '" + battery + "' (valid: " + battery_names() + ")");
    return family->catalogue(name_parameters(battery, *family));
}

std::string battery_title(const std::string& battery)
{
    const std::string name = battery_family(battery);
    const BatteryFamily* family = find_battery_family(name);
    if (family == nullptr) return "unknown battery";
    std::string title = family->title;
    if (name.size() + 2 <= battery.size() && battery.back() == ')') {
        title += " (";
        for (char c : battery.substr(name.size() + 1, battery.size() - name.size() - 2))
            title += c == '=' ? std::string(" = ")
                : c == ','    ? std::string(", ")
                              : std::string(1, c);
        title += ")";
    }
    return title;
}

} // namespace rngvet
