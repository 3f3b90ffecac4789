#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>
namespace rngvet {
struct TestEntry {
    int number; // TestU01's test number in the battery, 1-based (as in bbattery.tex)
    const char* name; // the first statistic's name as TestU01 writes it in bbattery_TestNames
    int statistics; // how many p-values this test writes into bbattery_pVal when run once (0:
                    // TestU01 skips the test at this battery's nb)
    double cost; // CPU seconds of the test on one core (catalogue.cpp says where they come from)
};
struct BatteryCatalogue {
    // "smallcrush", "crush", "bigcrush", or a bit battery with its parameters in canonical form:
    // "rabbit(nb=33554432)", "alphabit(nb=33554432,r=0,s=32)", or the application battery
    // "mcpi(points=4000000,reps=10)" (batteries/mcpi.hpp), or the lattice battery
    // "ising(L=16,K=0.44068679350977152,therm=1024,steps=65536,reps=8)"
    // (batteries/lattice/ising_battery.hpp). This is the name the store
    // records (runs.battery) and catalogue_for() reads back.
    std::string name;
    // Every test of the battery, numbered 1..N as TestU01 numbers them. A test that TestU01 skips
    // at this nb (Rabbit and Alphabit skip tests whose sample would be too small) is listed
    // with 0 statistics and cost 0: run alone it writes nothing and reads nothing.
    std::vector<TestEntry> tests;
    double nb = 0; // rabbit, alphabit: bits each test reads (TestU01's nb); 0 otherwise
    int r = 0; // alphabit: most significant bits dropped from each 32-bit number
    int s = 0; // alphabit: bits taken from each number after those r (rabbit reads 32)
    std::uint64_t points = 0; // mcpi: points per replication; 0 otherwise
    int reps = 0; // mcpi: replications per test; ising: replicas per test; 0 otherwise
    int lattice_size = 0; // ising: L, the lattice's side; 0 otherwise
    double coupling = 0; // ising: K = J/kT; the name writes the shortest text that reads back as K
    std::uint64_t thermalisation = 0; // ising: steps per replica before measuring
    std::uint64_t steps = 0; // ising: measured steps per replica (a multiple of 1024)
    int lanes = 0; // ising: lanes per chain (1: one sequence; M: per site, lattice/ising.hpp)
    bool own = false; // ising: replica r on lane r alone (own=1, the own-lanes mode, ising.hpp)
    std::string family() const; // the name without its parameters: "rabbit"
    int total_statistics() const;
    const TestEntry& test(int number) const; // throws std::out_of_range
    // The tests a run of `tests` covers, ascending: every test of the battery when empty.
    std::vector<int> selected(const std::vector<int>& tests) const;
};
const BatteryCatalogue& smallcrush_catalogue();
const BatteryCatalogue& crush_catalogue();
const BatteryCatalogue& bigcrush_catalogue();

// Rabbit and Alphabit take the number of bits nb (and Alphabit r, s) as parameters.
inline constexpr double bit_battery_default_nb = 33554432; // 2^25
inline constexpr int alphabit_default_r = 0;
inline constexpr int alphabit_default_s = 32;
// TestU01 refuses Rabbit below 500 bits and both batteries use nb rounded down to whole 32-bit
// words; rngvet takes multiples of 32 from 512 up (Alphabit's HammingCorr aborts at nb = 32).
inline constexpr double bit_battery_min_nb = 512;
// At most 2^40 bits: a test reads about nb / s numbers, which keeps every test inside its
// 2^40-number segment of the sharded mode (runner.hpp) for every s >= 1.
inline constexpr double bit_battery_max_nb = 1099511627776.0;

// The catalogues at given parameters; throw InputError (one line) for parameters rngvet or
// TestU01 cannot run: nb not a whole multiple of 32 in [512, 2^40], r < 0, s < 1, r + s > 32.
// The references stay valid for the life of the process.
const BatteryCatalogue& rabbit_catalogue(double nb = bit_battery_default_nb);
const BatteryCatalogue& alphabit_catalogue(
    double nb = bit_battery_default_nb, int r = alphabit_default_r, int s = alphabit_default_s);

// mcpi (batteries/mcpi.hpp): N points per replication, R replications per test. Test 1 reads
// 2 N R numbers, test 2 3 N R; both stay inside their 2^40-number segment of the sharded mode.
inline constexpr std::uint64_t mcpi_default_points = 4000000;
inline constexpr int mcpi_default_reps = 10;
inline constexpr std::uint64_t mcpi_min_points = 100;
inline constexpr int mcpi_max_reps = 100;
// Throws InputError (one line) for points < 100, reps outside 1..100, or 3 N R > 2^40.
const BatteryCatalogue& mcpi_catalogue(
    std::uint64_t points = mcpi_default_points, int reps = mcpi_default_reps);
// ising (batteries/lattice/ising_battery.hpp): the L x L lattice at coupling K, per replica
// `thermalisation` steps then `steps` measured (a multiple of 1024), `reps` replicas per test.
// The defaults take a few seconds on one core and make R250 fail the Wolff test
// (docs/batteries.md, "ising").
inline constexpr int ising_default_L = 16;
inline constexpr std::uint64_t ising_default_thermalisation = 1024;
inline constexpr std::uint64_t ising_default_steps = 65536;
inline constexpr int ising_default_reps = 8;
// L even (Kaufman's values are for even L) and at least 4: at L = 2 the checkerboard Metropolis
// sweep is not ergodic (from all spins up it reaches 12 of the 16 states: zero-energy flips are
// always taken). K at most 1: beyond it a run of the default length sees too few excitations
// for an error bar (at K = 4 none at all).
inline constexpr int ising_min_L = 4;
inline constexpr int ising_max_L = 1024;
inline constexpr double ising_max_K = 1;
inline constexpr std::uint64_t ising_max_steps = 1ull << 30;
inline constexpr int ising_max_reps = 64;
// Throws InputError (one line) for L odd or outside 4..1024, K not in (0, 1], steps not a
// positive multiple of 1024 up to 2^30, therm above 2^30, reps outside 2..64, lanes outside
// 1..65536, or a test that could read more than 2^40 numbers (its segment of the sharded mode).
// K's default (ising_from) is the critical coupling ln(1 + sqrt 2) / 2 rounded to a double
// (lattice/kaufman.hpp). The name writes lanes only when it is not 1
// ("ising(L=16,...,reps=8,lanes=64)"), so the names of one-lane runs are those stored before
// lanes existed.
inline constexpr int ising_default_lanes = 1;
// own=1 (the own-lanes mode, lattice/ising.hpp): the replicas run together, replica r on lane r
// of the M lanes alone (under --instances M --layout interleave, instance r): reps from 2 to
// M, up to 65536 (ising_max_own_reps), and M (4 L^2 + 1) (therm + steps) plus one block of
// 1024 M numbers at most 2^40. The name writes own only when it is 1
// ("ising(L=16,...,reps=1024,lanes=1024,own=1)").
inline constexpr int ising_max_own_reps = 65536;
const BatteryCatalogue& ising_catalogue(int L, double K, std::uint64_t thermalisation,
    std::uint64_t steps, int reps, int lanes = ising_default_lanes, bool own = false);
// A battery's parameters as given, by key ("nb"): the text, and what a message calls it ("--nb"
// for an option, "rabbit nb" inside a battery name).
struct ParameterText {
    std::string text;
    std::string what;
};
using BatteryParameters = std::map<std::string, ParameterText>;
// The catalogues at parameters as given (registry.hpp); those left out take their defaults.
const BatteryCatalogue& rabbit_from(const BatteryParameters& given);
const BatteryCatalogue& alphabit_from(const BatteryParameters& given);
const BatteryCatalogue& mcpi_from(const BatteryParameters& given);
const BatteryCatalogue& ising_from(const BatteryParameters& given);

// A count as written by a user: digits ("4000000") or a power of two ("2^22"). Throws
// InputError naming `what` (e.g. "--mcpi-points").
std::uint64_t parse_count(const std::string& text, const std::string& what);

// A number of bits as written by a user: digits ("1048576") or a power of two ("2^20").
// Throws InputError naming `what` (e.g. "--nb") when it is neither.
double parse_bit_count(const std::string& text, const std::string& what);

// Battery names (defined with the registry, registry.cpp):
// "smallcrush", "crush", "bigcrush"; "rabbit", "alphabit" or "mcpi" (default parameters); or a
// name with parameters, "rabbit(nb=1048576)", "alphabit(nb=2^20,s=8)", "mcpi(points=10^6)",
// "mcpi(points=2^20,reps=4)" (parameters left out take their defaults). The family may be written
// in any case ("SmallCrush", "Rabbit(nb=2^20)"); the catalogue's name is the canonical lower-case
// one, which is what is stored. Throws
// rngvet::InputError (generators/error.hpp) naming valid batteries or the bad parameter.
const BatteryCatalogue& catalogue_for(const std::string& battery);

// The family of a battery name: "rabbit" for "rabbit(nb=1048576)", the name itself otherwise.
std::string battery_family(const std::string& battery);
// For reports: "SmallCrush", "Rabbit (nb = 1048576)", "mcpi (points = 4000000, reps = 10)",
// "Alphabit (nb = 1048576, r = 0, s = 32)"; never throws ("unknown battery" for a name it does not
// know).
std::string battery_title(const std::string& battery);
} // namespace rngvet
