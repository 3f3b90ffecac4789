// The battery catalogues (catalogue.hpp), built from the per-battery tables of
// battery_tables.cpp (which says where names, statistic counts and costs come from), and the
// parsing of battery names and their parameters.

#include "catalogue.hpp"

#include "battery_tables.hpp"
#include "generators/error.hpp"
#include "lattice/ising.hpp"
#include "lattice/kaufman.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace rngvet {

std::string BatteryCatalogue::family() const
{
    return battery_family(name);
}

int BatteryCatalogue::total_statistics() const
{
    int total = 0;
    for (const TestEntry& t : tests)
        total += t.statistics;
    return total;
}

std::vector<int> BatteryCatalogue::selected(const std::vector<int>& numbers) const
{
    std::vector<int> out = numbers;
    if (out.empty())
        for (const TestEntry& t : tests)
            out.push_back(t.number);
    std::sort(out.begin(), out.end());
    return out;
}

const TestEntry& BatteryCatalogue::test(int number) const
{
    for (const TestEntry& t : tests)
        if (t.number == number) return t;
    throw std::out_of_range(std::string(name) + " has no test " + std::to_string(number)
        + " (tests are 1 to " + std::to_string(tests.size()) + ")");
}

namespace {

// SmallCrush, Crush, BigCrush: no parameters.
BatteryCatalogue fixed_catalogue(const std::string& name, const tables::Rows& rows)
{
    BatteryCatalogue c;
    c.name = name;
    for (const tables::TestRow& t : rows)
        c.tests.push_back({ t.number, t.name, t.statistics, t.cost });
    return c;
}

} // namespace

const BatteryCatalogue& smallcrush_catalogue()
{
    static const BatteryCatalogue catalogue
        = fixed_catalogue("smallcrush", tables::smallcrush_tests);
    return catalogue;
}

const BatteryCatalogue& crush_catalogue()
{
    static const BatteryCatalogue catalogue = fixed_catalogue("crush", tables::crush_tests);
    return catalogue;
}

const BatteryCatalogue& bigcrush_catalogue()
{
    static const BatteryCatalogue catalogue = fixed_catalogue("bigcrush", tables::bigcrush_tests);
    return catalogue;
}

namespace {

using tables::TestRow;

// Rabbit and Alphabit (bbattery_RepeatRabbit, bbattery_RepeatAlphabit): which tests run at nb
// and what they cost, from the rows' cost at nb = 2^25 (battery_tables.cpp says how).
double alphabit_min_nb(const TestRow& t, int s)
{
    if (t.number == 5) return 20.0 * s; // HammingIndep on floor(nb / s) numbers, at least 20
    if (t.number == 6) return 40.0 * s; // HammingIndep on half of them, at least 20
    return t.min_nb;
}

double rabbit_cost(const TestRow& t, double nb)
{
    const double base = bit_battery_default_nb;
    switch (t.number) {
    case 1:
        return t.cost * std::min(nb, 3e8) / base;
    case 5: {
        const auto length = [](double bits) { return std::min(10000 + 2 * std::sqrt(bits), 3e5); };
        const double q = length(nb) / length(base);
        return t.cost * q * q;
    }
    case 6:
        return t.cost * std::min(nb, 268435456.0) / base;
    case 7:
        return t.cost * std::min(nb, 1048576.0) / 1048576.0;
    default:
        return t.cost * nb / base;
    }
}

std::string format_bits(double nb)
{
    char buf[64];
    if (nb == std::floor(nb) && std::fabs(nb) < 1e18)
        std::snprintf(buf, sizeof buf, "%.0f", nb);
    else
        std::snprintf(buf, sizeof buf, "%g", nb);
    return buf;
}

void check_nb(const char* battery, double nb)
{
    const std::string given = std::string(battery) + ": nb = " + format_bits(nb) + " (--nb): ";
    if (!(nb >= bit_battery_min_nb))
        throw InputError(given + "too few bits; at least 512 (TestU01 needs 500 or more)");
    if (nb > bit_battery_max_nb)
        throw InputError(given + "too many bits; at most 2^40 = 1099511627776");
    if (nb != std::floor(nb) || std::fmod(nb, 32.0) != 0)
        throw InputError(given + "not a multiple of 32 (TestU01 reads whole 32-bit words)");
}

int parse_small_int(const std::string& text, const std::string& what)
{
    std::size_t used = 0;
    int v = 0;
    try {
        v = std::stoi(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size())
        throw InputError(what + " '" + text + "' is not an integer");
    return v;
}

// Catalogues with parameters, by canonical name; std::map keeps the references valid.
const BatteryCatalogue& cached(BatteryCatalogue&& built)
{
    static std::map<std::string, BatteryCatalogue> cache;
    const std::string key = built.name;
    return cache.emplace(key, std::move(built)).first->second;
}

// mcpi's cost per number read (GetU01 and the hit test), in the units of SmallCrush's costs
// above: on the 2-core development machine, 2026-11-24, MT19937 (cpu backend) read 2 x 10^8
// numbers through mcpi at the defaults in 2.9 CPU seconds while SmallCrush took 4.7 s (7.3 s
// in the catalogue): 1.45e-8 s x 7.3 / 4.7. The defaults cost about 4.5 s in these units.
constexpr double mcpi_seconds_per_number = 2.25e-8;

// ising's cost per replica step and site (the same units), by test (1 Wolff, 2 Metropolis,
// 3 Swendsen-Wang): on the development machine, 2026-11-26, mt19937 (cpu backend) at L = 16,
// K_c, 8 x 33792 steps took 1.41, 0.67 and 2.56 CPU seconds (a Wolff cluster there holds about
// a third of the sites; its size does not grow as L^2, so this is a rough guide elsewhere),
// times 7.3 / 4.7 as for mcpi.
constexpr double ising_seconds_per_site_step[3] = { 3.2e-8, 1.5e-8, 5.7e-8 };

// The most numbers one step of any of ising's algorithms reads on N sites with M lanes
// (ising.hpp): M rounds times the most one lane hands out. One lane: Wolff 1 + 4 N (one per
// neighbour tested from each site of a cluster of at most N), Swendsen-Wang at most 3 N (2 N
// bonds, a cluster at most per site), Metropolis N. M lanes: a lane serves at most
// ceil(N / M) sites, each tested at most 4 times per Wolff cluster, plus the seed's number
// (lane 0), or ceil(2 N / M) bonds and ceil(N / M) roots per sweep; M (1 + 4 ceil(N / M))
// bounds them all.
std::uint64_t ising_max_numbers_per_step(std::uint64_t sites, std::uint64_t lanes)
{
    return lanes * (1 + 4 * ((sites + lanes - 1) / lanes));
}

double parse_coupling(const std::string& text, const std::string& what)
{
    if (text == "Kc") return lattice::critical_coupling();
    char* end = nullptr;
    const double k = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
        ? std::nan("")
        : std::strtod(text.c_str(), &end);
    if (end == nullptr || *end != '\0' || !std::isfinite(k))
        throw InputError(what + " '" + text + "' is not a number (e.g. 0.4 or Kc)");
    return k;
}

} // namespace

std::uint64_t parse_count(const std::string& text, const std::string& what)
{
    const auto digits = [](const std::string& t) {
        return !t.empty() && t.size() <= 18
            && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (digits(text)) return std::stoull(text);
    for (const std::uint64_t base : { 2ull, 10ull }) {
        const std::string prefix = std::to_string(base) + "^";
        if (text.rfind(prefix, 0) != 0 || !digits(text.substr(prefix.size()))) continue;
        const int k = std::stoi(text.substr(prefix.size()));
        if (k > (base == 2 ? 62 : 18)) break;
        std::uint64_t v = 1;
        for (int i = 0; i < k; ++i)
            v *= base;
        return v;
    }
    throw InputError(
        what + " '" + text + "' is not a count (digits, or a power like 2^20 or 10^6)");
}

const BatteryCatalogue& mcpi_catalogue(std::uint64_t points, int reps)
{
    const std::string given
        = "mcpi: points = " + std::to_string(points) + ", reps = " + std::to_string(reps) + ": ";
    if (points < mcpi_min_points)
        throw InputError(given + "too few points (--mcpi-points); at least 100");
    if (reps < 1 || reps > mcpi_max_reps)
        throw InputError(given + "replications (--mcpi-reps) must be 1 to 100");
    // 3 N R <= 2^40: test 2 stays in its segment of the sharded mode.
    if (points > (1ull << 40) / 3 / static_cast<std::uint64_t>(reps))
        throw InputError(given + "too many points; 3 x points x reps must be at most 2^40");
    BatteryCatalogue c;
    c.name = "mcpi(points=" + std::to_string(points) + ",reps=" + std::to_string(reps) + ")";
    c.points = points;
    c.reps = reps;
    const double numbers = static_cast<double>(points) * reps;
    // Test d (1 or 2) reads d + 1 numbers a point and writes reps + 3 statistics (mcpi.hpp).
    for (const TestRow& t : tables::mcpi_tests)
        c.tests.push_back(
            { t.number, t.name, reps + 3, (t.number + 1) * numbers * mcpi_seconds_per_number });
    return cached(std::move(c));
}

const BatteryCatalogue& ising_catalogue(int L, double K, std::uint64_t thermalisation,
    std::uint64_t steps, int reps, int lanes, bool own)
{
    // K in the fewest significant digits that read back as the same double (17 at most).
    char coupling[64] = "";
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(coupling, sizeof coupling, "%.*g", digits, K);
        if (std::strtod(coupling, nullptr) == K) break;
    }
    const std::string name = "ising(L=" + std::to_string(L) + ",K=" + coupling
        + ",therm=" + std::to_string(thermalisation) + ",steps=" + std::to_string(steps) + ",reps="
        + std::to_string(reps) + (lanes == 1 ? std::string() : ",lanes=" + std::to_string(lanes))
        + (own ? ",own=1" : "") + ")";
    const std::string given = name + ": ";
    if (L < ising_min_L || L > ising_max_L || L % 2 != 0)
        throw InputError(given + "L (--ising-L) must be even, 4 to 1024");
    if (!(K > 0) || K > ising_max_K)
        throw InputError(given + "K (--ising-K) must be above 0 and at most 1");
    if (steps == 0 || steps % lattice::ising_finest_bins != 0 || steps > ising_max_steps)
        throw InputError(
            given + "steps (--ising-steps) must be a positive multiple of 1024, at most 2^30");
    if (thermalisation > ising_max_steps)
        throw InputError(given + "therm (--ising-therm) must be at most 2^30");
    if (own ? reps < 2 || reps > ising_max_own_reps : reps < 2 || reps > ising_max_reps)
        throw InputError(given
            + (own ? "replicas (--ising-reps) must be 2 to 65536 with own=1"
                   : "replicas (--ising-reps) must be 2 to 64 (up to 65536 with own=1)"));
    if (lanes < 1 || lanes > lattice::ising_max_lanes)
        throw InputError(given + "lanes (--ising-lanes) must be 1 to 65536");
    if (own && lanes < reps)
        throw InputError(given
            + "with own=1 (--ising-own) replica r reads lane r alone: lanes (--ising-lanes) must "
              "be at least reps (--ising-reps), with --instances M --layout interleave");
    const std::uint64_t sites = static_cast<std::uint64_t>(L) * static_cast<std::uint64_t>(L);
    const std::uint64_t m = static_cast<std::uint64_t>(lanes);
    if (own
        && (thermalisation + steps) * (4 * sites + 1) + lattice::ising_own_block_rounds
            > (1ull << 40) / m)
        throw InputError(given
            + "too long; M ((therm + steps) (4 L^2 + 1) + 1024) numbers must be at most 2^40 "
              "(M lanes, own=1)");
    const std::uint64_t per_replica
        = (thermalisation + steps) * ising_max_numbers_per_step(sites, m);
    if (!own && per_replica > (1ull << 40) / static_cast<std::uint64_t>(reps))
        throw InputError(given
            + (lanes == 1 ? "too long; reps x (therm + steps) x (4 L^2 + 1) numbers must be at "
                            "most 2^40"
                          : "too long; reps x (therm + steps) x M (4 ceil(L^2 / M) + 1) numbers "
                            "must be at most 2^40 (M lanes)"));
    BatteryCatalogue c;
    c.name = name;
    c.lattice_size = L;
    c.coupling = K;
    c.thermalisation = thermalisation;
    c.steps = steps;
    c.reps = reps;
    c.lanes = lanes;
    c.own = own;
    const double site_steps = static_cast<double>(reps)
        * static_cast<double>(thermalisation + steps) * static_cast<double>(sites);
    // Each test writes 4 statistics plus two per replica (ising_battery.hpp).
    for (const TestRow& t : tables::ising_tests)
        c.tests.push_back({ t.number, t.name, 4 + 2 * reps,
            site_steps * ising_seconds_per_site_step[t.number - 1] });
    return cached(std::move(c));
}

double parse_bit_count(const std::string& text, const std::string& what)
{
    const auto digits = [](const std::string& t) {
        return !t.empty() && t.size() <= 18
            && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (text.rfind("2^", 0) == 0 && digits(text.substr(2)) && std::stoi(text.substr(2)) <= 62)
        return std::ldexp(1.0, std::stoi(text.substr(2)));
    if (digits(text)) return std::stod(text);
    throw InputError(
        what + " '" + text + "' is not a number of bits (digits, or a power of two like 2^25)");
}

const BatteryCatalogue& rabbit_catalogue(double nb)
{
    check_nb("rabbit", nb);
    BatteryCatalogue c;
    c.name = "rabbit(nb=" + format_bits(nb) + ")";
    c.nb = nb;
    c.s = 32;
    for (const TestRow& t : tables::rabbit_tests) {
        const bool runs = nb >= t.min_nb;
        c.tests.push_back(
            { t.number, t.name, runs ? t.statistics : 0, runs ? rabbit_cost(t, nb) : 0 });
    }
    return cached(std::move(c));
}

const BatteryCatalogue& alphabit_catalogue(double nb, int r, int s)
{
    check_nb("alphabit", nb);
    const std::string given = "alphabit: r = " + std::to_string(r) + ", s = " + std::to_string(s);
    if (r < 0) throw InputError(given + ": r (--alphabit-r) must be at least 0");
    if (s < 1) throw InputError(given + ": s (--alphabit-s) must be at least 1");
    // Each bound alone first: r + s of two user numbers may not fit in an int.
    if (r > 32 || s > 32 || r + s > 32)
        throw InputError(given + ": r + s must be at most 32 (bits of one number)");
    BatteryCatalogue c;
    c.name = "alphabit(nb=" + format_bits(nb) + ",r=" + std::to_string(r)
        + ",s=" + std::to_string(s) + ")";
    c.nb = nb;
    c.r = r;
    c.s = s;
    const double per_number = 0.7 + 0.3 * 32.0 / s; // 1 at s = 32, about 10.6 at s = 1
    for (const TestRow& t : tables::alphabit_tests) {
        const bool runs = nb >= alphabit_min_nb(t, s);
        c.tests.push_back({ t.number, t.name, runs ? t.statistics : 0,
            runs ? t.cost * nb / bit_battery_default_nb * per_number : 0 });
    }
    return cached(std::move(c));
}

std::string battery_family(const std::string& battery)
{
    return battery.substr(0, battery.find('('));
}

const BatteryCatalogue& rabbit_from(const BatteryParameters& given)
{
    const auto nb = given.find("nb");
    return rabbit_catalogue(nb == given.end() ? bit_battery_default_nb
                                              : parse_bit_count(nb->second.text, nb->second.what));
}

const BatteryCatalogue& alphabit_from(const BatteryParameters& given)
{
    const auto nb = given.find("nb"), r = given.find("r"), s = given.find("s");
    return alphabit_catalogue(nb == given.end() ? bit_battery_default_nb
                                                : parse_bit_count(nb->second.text, nb->second.what),
        r == given.end() ? alphabit_default_r : parse_small_int(r->second.text, r->second.what),
        s == given.end() ? alphabit_default_s : parse_small_int(s->second.text, s->second.what));
}

const BatteryCatalogue& mcpi_from(const BatteryParameters& given)
{
    const auto points = given.find("points"), reps = given.find("reps");
    return mcpi_catalogue(points == given.end()
            ? mcpi_default_points
            : parse_count(points->second.text, points->second.what),
        reps == given.end() ? mcpi_default_reps
                            : parse_small_int(reps->second.text, reps->second.what));
}

const BatteryCatalogue& ising_from(const BatteryParameters& given)
{
    const auto L = given.find("L"), K = given.find("K"), therm = given.find("therm"),
               steps = given.find("steps"), reps = given.find("reps"), lanes = given.find("lanes"),
               own = given.find("own");
    bool own_lanes = false;
    if (own != given.end()) {
        if (own->second.text != "0" && own->second.text != "1")
            throw InputError(own->second.what + " '" + own->second.text + "' must be 0 or 1");
        own_lanes = own->second.text == "1";
    }
    return ising_catalogue(
        L == given.end() ? ising_default_L : parse_small_int(L->second.text, L->second.what),
        K == given.end() ? lattice::critical_coupling()
                         : parse_coupling(K->second.text, K->second.what),
        therm == given.end() ? ising_default_thermalisation
                             : parse_count(therm->second.text, therm->second.what),
        steps == given.end() ? ising_default_steps
                             : parse_count(steps->second.text, steps->second.what),
        reps == given.end() ? ising_default_reps
                            : parse_small_int(reps->second.text, reps->second.what),
        lanes == given.end() ? ising_default_lanes
                             : parse_small_int(lanes->second.text, lanes->second.what),
        own_lanes);
}

} // namespace rngvet
