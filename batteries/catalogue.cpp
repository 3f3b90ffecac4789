// Catalogue of TestU01's SmallCrush, Crush and BigCrush, for TestU01 1.2.3 as installed here
// (Debian libtestu01-0-dev 1.2.3+ds1, 64-bit Linux: USE_LONGLONG defined, LONG_MAX > 2^31 - 1;
// the 32-bit branches of bbattery.c run other BirthdaySpacings tests with other names).
//
// Test numbers, names and statistic counts were read from the code of SmallCrush(), Crush()
// and BigCrush() in TestU01's bbattery.c (GitHub umontreal-simul/TestU01-2009, path
// testu01/bbattery.c), counting the p-values each test stores into bbattery_pVal; the
// CRUSH_RUNS/BIGCRUSH_RUNS arrays there are only overflow bounds (CRUSH_RUNS gives test 18 six
// values and test 65 one, where Crush writes five and five). Then every test of the three
// batteries was run alone through bbattery_Repeat* against the installed 1.2.3 library, and
// bbattery_NTests and bbattery_TestNames matched this table for all 212 tests.
//
// A name is the first statistic's name. The others of a multi-statistic test follow TestU01's
// pattern: "ClosePairs NP/mNP/mNP1/mNP2/NJumps[/mNP2S]<suffix>", "RandomWalk1 H/M/J/R/C<suffix>",
// "MaxOft" then "MaxOft AD<suffix>", or the same name twice (LinearComp, LongestHeadRun,
// Run of bits), except that BigCrush test 81 names its second value "LinearComp, r = 0".
// Names are not unique within a battery (e.g. Crush tests 3 and 4 are both
// "CollisionOver, t = 2").
//
// Costs: for Crush and BigCrush, the CPU seconds each test took in a sharded run on ranmar48x
// (1024 instances interleaved, fed from the GPU) on the accelerator machine's 16-core Xeon,
// 2026-11-23 (docs/benchmarks.md; docs/bench/h100-2026-11-23-{crush,bigcrush}-tests.csv): 1621 s
// and 11624 s in all. Earlier estimates, from MT19937 scaled to published totals, put LinearComp
// at a twentieth of its cost, so it started last and set the wall time. SmallCrush: CPU seconds
// on MT19937 (ugfsr_CreateMT19937_02) on the same kind of Xeon, times 0.89 (7.3 s in all).
// Costs depend on the generator and the machine; use them only to compare and schedule tests.

#include "catalogue.hpp"

#include "generators/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>

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

const TestEntry& BatteryCatalogue::test(int number) const
{
    for (const TestEntry& t : tests)
        if (t.number == number) return t;
    throw std::out_of_range(std::string(name) + " has no test " + std::to_string(number)
        + " (tests are 1 to " + std::to_string(tests.size()) + ")");
}

// Columns: test number, first statistic's name, statistics, cost in seconds (see the top).

const BatteryCatalogue& smallcrush_catalogue()
{
    // clang-format off
    static const BatteryCatalogue catalogue{"smallcrush", {
        {  1, "BirthdaySpacings",            1,    1.6},
        {  2, "Collision",                   1,    1.0},
        {  3, "Gap",                         1,    0.5},
        {  4, "SimpPoker",                   1,    0.6},
        {  5, "CouponCollector",             1,    0.5},
        {  6, "MaxOft",                      2,    0.6},
        {  7, "WeightDistrib",               1,    0.5},
        {  8, "MatrixRank",                  1,    0.5},
        {  9, "HammingIndep",                1,    0.7},
        { 10, "RandomWalk1 H",               5,    0.8},
    }};
    // clang-format on
    return catalogue;
}

const BatteryCatalogue& crush_catalogue()
{
    // clang-format off
    static const BatteryCatalogue catalogue{"crush", {
        {  1, "SerialOver, t = 2",           1,   18.7},
        {  2, "SerialOver, t = 4",           1,   12.4},
        {  3, "CollisionOver, t = 2",        1,   21.0},
        {  4, "CollisionOver, t = 2",        1,   20.4},
        {  5, "CollisionOver, t = 4",        1,   30.5},
        {  6, "CollisionOver, t = 4",        1,   31.5},
        {  7, "CollisionOver, t = 8",        1,   29.9},
        {  8, "CollisionOver, t = 8",        1,   30.1},
        {  9, "CollisionOver, t = 20",       1,   27.6},
        { 10, "CollisionOver, t = 20",       1,   31.2},
        { 11, "BirthdaySpacings, t = 2",     1,   35.5},
        { 12, "BirthdaySpacings, t = 3",     1,   34.6},
        { 13, "BirthdaySpacings, t = 4",     1,   35.6},
        { 14, "BirthdaySpacings, t = 7",     1,   23.1},
        { 15, "BirthdaySpacings, t = 7",     1,   21.8},
        { 16, "BirthdaySpacings, t = 8",     1,   23.8},
        { 17, "BirthdaySpacings, t = 8",     1,   21.5},
        { 18, "ClosePairs NP, t = 2",        5,    8.9},
        { 19, "ClosePairs NP, t = 3",        6,   13.5},
        { 20, "ClosePairs NP, t = 7",        6,   24.9},
        { 21, "ClosePairsBitMatch, t = 2",   1,   10.4},
        { 22, "ClosePairsBitMatch, t = 4",   1,    8.7},
        { 23, "SimpPoker, d = 16",           1,    9.9},
        { 24, "SimpPoker, d = 16",           1,   11.1},
        { 25, "SimpPoker, d = 64",           1,    8.3},
        { 26, "SimpPoker, d = 64",           1,   12.2},
        { 27, "CouponCollector, d = 4",      1,    4.8},
        { 28, "CouponCollector, d = 4",      1,    6.5},
        { 29, "CouponCollector, d = 16",     1,    6.4},
        { 30, "CouponCollector, d = 16",     1,    9.3},
        { 31, "Gap, r = 0",                  1,    6.4},
        { 32, "Gap, r = 27",                 1,    8.3},
        { 33, "Gap, r = 0",                  1,    5.5},
        { 34, "Gap, r = 22",                 1,    7.5},
        { 35, "Run of U01, r = 0",           1,    6.1},
        { 36, "Run of U01, r = 15",          1,    8.6},
        { 37, "Permutation, r = 0",          1,   15.2},
        { 38, "Permutation, r = 15",         1,   13.7},
        { 39, "CollisionPermut, r = 0",      1,   25.7},
        { 40, "CollisionPermut, r = 15",     1,   25.5},
        { 41, "MaxOft, t = 5",               2,   27.0},
        { 42, "MaxOft, t = 10",              2,   13.5},
        { 43, "MaxOft, t = 20",              2,    4.5},
        { 44, "MaxOft, t = 30",              2,    4.4},
        { 45, "SampleProd, t = 10",          1,    2.7},
        { 46, "SampleProd, t = 30",          1,    4.5},
        { 47, "SampleMean",                  1,    4.5},
        { 48, "SampleCorr",                  1,    3.5},
        { 49, "AppearanceSpacings, r = 0",   1,    6.8},
        { 50, "AppearanceSpacings, r = 20",  1,    2.5},
        { 51, "WeightDistrib, r = 0",        1,    2.8},
        { 52, "WeightDistrib, r = 8",        1,    3.1},
        { 53, "WeightDistrib, r = 16",       1,    3.1},
        { 54, "WeightDistrib, r = 24",       1,    3.2},
        { 55, "SumCollector",                1,    2.4},
        { 56, "MatrixRank, 60 x 60",         1,   27.2},
        { 57, "MatrixRank, 60 x 60",         1,   29.6},
        { 58, "MatrixRank, 300 x 300",       1,   37.9},
        { 59, "MatrixRank, 300 x 300",       1,   45.9},
        { 60, "MatrixRank, 1200 x 1200",     1,   42.5},
        { 61, "MatrixRank, 1200 x 1200",     1,   56.2},
        { 62, "Savir2",                      1,    3.9},
        { 63, "GCD, r = 0",                  1,   15.0},
        { 64, "GCD, r = 10",                 1,    4.7},
        { 65, "RandomWalk1 H (L = 90)",      5,   28.4},
        { 66, "RandomWalk1 H (L = 90)",      5,    6.0},
        { 67, "RandomWalk1 H (L = 1000)",    5,   20.6},
        { 68, "RandomWalk1 H (L = 1000)",    5,    5.2},
        { 69, "RandomWalk1 H (L = 10000)",   5,   18.2},
        { 70, "RandomWalk1 H (L = 10000)",   5,    5.6},
        { 71, "LinearComp, r = 0",           2,   14.6},
        { 72, "LinearComp, r = 29",          2,   15.9},
        { 73, "LempelZiv",                   1,   21.7},
        { 74, "Fourier3, r = 0",             1,   18.6},
        { 75, "Fourier3, r = 20",            1,   20.0},
        { 76, "LongestHeadRun, r = 0",       2,   68.4},
        { 77, "LongestHeadRun, r = 20",      2,   22.8},
        { 78, "PeriodsInStrings, r = 0",     1,   17.7},
        { 79, "PeriodsInStrings, r = 15",    1,   13.2},
        { 80, "HammingWeight2, r = 0",       1,    9.3},
        { 81, "HammingWeight2, r = 20",      1,    7.0},
        { 82, "HammingCorr, L = 30",         1,   14.4},
        { 83, "HammingCorr, L = 300",        1,   13.4},
        { 84, "HammingCorr, L = 1200",       1,   10.8},
        { 85, "HammingIndep, L = 30",        1,   18.8},
        { 86, "HammingIndep, L = 30",        1,   13.0},
        { 87, "HammingIndep, L = 300",       1,   18.0},
        { 88, "HammingIndep, L = 300",       1,   12.2},
        { 89, "HammingIndep, L = 1200",      1,   21.5},
        { 90, "HammingIndep, L = 1200",      1,    5.6},
        { 91, "Run of bits, r = 0",          2,   27.5},
        { 92, "Run of bits, r = 20",         2,   33.7},
        { 93, "AutoCor, d = 1",              1,   14.7},
        { 94, "AutoCor, d = 1",              1,   18.9},
        { 95, "AutoCor, d = 30",             1,   12.3},
        { 96, "AutoCor, d = 10",             1,   14.9},
    }};
    // clang-format on
    return catalogue;
}

const BatteryCatalogue& bigcrush_catalogue()
{
    // clang-format off
    static const BatteryCatalogue catalogue{"bigcrush", {
        {  1, "SerialOver, r = 0",           1,   55.3},
        {  2, "SerialOver, r = 22",          1,   60.0},
        {  3, "CollisionOver, t = 2",        1,  121.4},
        {  4, "CollisionOver, t = 2",        1,  145.4},
        {  5, "CollisionOver, t = 3",        1,  181.5},
        {  6, "CollisionOver, t = 3",        1,  229.1},
        {  7, "CollisionOver, t = 7",        1,  155.3},
        {  8, "CollisionOver, t = 7",        1,  232.5},
        {  9, "CollisionOver, t = 14",       1,  214.3},
        { 10, "CollisionOver, t = 14",       1,  232.6},
        { 11, "CollisionOver, t = 21",       1,  191.6},
        { 12, "CollisionOver, t = 21",       1,  224.3},
        { 13, "BirthdaySpacings, t = 2",     1,  328.7},
        { 14, "BirthdaySpacings, t = 3",     1,  131.0},
        { 15, "BirthdaySpacings, t = 4",     1,  221.2},
        { 16, "BirthdaySpacings, t = 7",     1,  148.2},
        { 17, "BirthdaySpacings, t = 7",     1,  153.0},
        { 18, "BirthdaySpacings, t = 8",     1,  234.3},
        { 19, "BirthdaySpacings, t = 8",     1,  241.2},
        { 20, "BirthdaySpacings, t = 16",    1,  255.7},
        { 21, "BirthdaySpacings, t = 16",    1,  269.6},
        { 22, "ClosePairs NP, t = 3",        6,  146.0},
        { 23, "ClosePairs NP, t = 5",        6,  119.2},
        { 24, "ClosePairs NP, t = 9",        6,  165.7},
        { 25, "ClosePairs NP, t = 16",       6,  226.9},
        { 26, "SimpPoker, r = 0",            1,   58.7},
        { 27, "SimpPoker, r = 27",           1,   70.7},
        { 28, "SimpPoker, r = 0",            1,   58.0},
        { 29, "SimpPoker, r = 25",           1,   69.4},
        { 30, "CouponCollector, r = 0",      1,   68.4},
        { 31, "CouponCollector, r = 10",     1,   80.3},
        { 32, "CouponCollector, r = 20",     1,   83.4},
        { 33, "CouponCollector, r = 27",     1,   80.6},
        { 34, "Gap, r = 0",                  1,   61.3},
        { 35, "Gap, r = 25",                 1,   77.8},
        { 36, "Gap, r = 0",                  1,   62.7},
        { 37, "Gap, r = 20",                 1,   65.9},
        { 38, "Run, r = 0",                  1,   71.0},
        { 39, "Run, r = 15",                 1,  164.5},
        { 40, "Permutation, t = 3",          1,   30.0},
        { 41, "Permutation, t = 5",          1,   61.6},
        { 42, "Permutation, t = 7",          1,   50.0},
        { 43, "Permutation, t = 10",         1,  154.9},
        { 44, "CollisionPermut, r = 0",      1,  273.0},
        { 45, "CollisionPermut, r = 10",     1,  282.5},
        { 46, "MaxOft, t = 8",               2,  107.0},
        { 47, "MaxOft, t = 16",              2,   96.0},
        { 48, "MaxOft, t = 24",              2,   87.8},
        { 49, "MaxOft, t = 32",              2,   84.3},
        { 50, "SampleProd, t = 8",           1,   96.2},
        { 51, "SampleProd, t = 16",          1,   73.6},
        { 52, "SampleProd, t = 24",          1,   81.0},
        { 53, "SampleMean, r = 0",           1,   13.5},
        { 54, "SampleMean, r = 10",          1,   14.9},
        { 55, "SampleCorr, k = 1",           1,   15.2},
        { 56, "SampleCorr, k = 2",           1,   15.1},
        { 57, "AppearanceSpacings, r = 0",   1,   48.3},
        { 58, "AppearanceSpacings, r = 27",  1,   56.2},
        { 59, "WeightDistrib, r = 0",        1,   27.7},
        { 60, "WeightDistrib, r = 20",       1,   36.1},
        { 61, "WeightDistrib, r = 28",       1,   41.3},
        { 62, "WeightDistrib, r = 0",        1,   29.6},
        { 63, "WeightDistrib, r = 10",       1,   35.5},
        { 64, "WeightDistrib, r = 26",       1,   38.1},
        { 65, "SumCollector",                1,   77.0},
        { 66, "MatrixRank, L=30, r=0",       1,   98.0},
        { 67, "MatrixRank, L=30, r=26",      1,   93.6},
        { 68, "MatrixRank, L=1000, r=0",     1,  116.7},
        { 69, "MatrixRank, L=1000, r=26",    1,  127.2},
        { 70, "MatrixRank, L=5000",          1,   97.0},
        { 71, "MatrixRank, L=5000",          1,  106.3},
        { 72, "Savir2",                      1,   24.4},
        { 73, "GCD",                         1,   85.0},
        { 74, "RandomWalk1 H (L=50, r=0)",   5,   50.0},
        { 75, "RandomWalk1 H (L=50, r=25)",  5,   52.9},
        { 76, "RandomWalk1 H (L=1000, r=0)", 5,   57.7},
        { 77, "RandomWalk1 H (L=1000, r=20)", 5,   55.6},
        { 78, "RandomWalk1 H (L=10000, r=0)", 5,   44.4},
        { 79, "RandomWalk1 H (L=10000, r=15)", 5,   38.1},
        { 80, "LinearComp, r = 0",           2,  166.6},
        { 81, "LinearComp, r = 29",          2,  163.1},
        { 82, "LempelZiv, r = 0",            1,  143.8},
        { 83, "LempelZiv, r = 15",           1,  137.0},
        { 84, "Fourier3, r = 0",             1,   47.7},
        { 85, "Fourier3, r = 27",            1,   47.2},
        { 86, "LongestHeadRun, r = 0",       2,   97.5},
        { 87, "LongestHeadRun, r = 27",      2,   93.8},
        { 88, "PeriodsInStrings, r = 0",     1,  152.5},
        { 89, "PeriodsInStrings, r = 20",    1,  161.4},
        { 90, "HammingWeight2, r = 0",       1,   62.8},
        { 91, "HammingWeight2, r = 27",      1,   67.6},
        { 92, "HammingCorr, L = 30",         1,   87.3},
        { 93, "HammingCorr, L = 300",        1,   76.5},
        { 94, "HammingCorr, L = 1200",       1,  253.6},
        { 95, "HammingIndep, L=30, r=0",     1,   99.4},
        { 96, "HammingIndep, L=30, r=27",    1,   99.8},
        { 97, "HammingIndep, L=300, r=0",    1,   91.7},
        { 98, "HammingIndep, L=300, r=26",   1,   80.7},
        { 99, "HammingIndep, L=1200, r=0",   1,   85.5},
        {100, "HammingIndep, L=1200, r=25",  1,   83.5},
        {101, "Run of bits, r = 0",          2,   92.8},
        {102, "Run of bits, r = 27",         2,   94.1},
        {103, "AutoCor, d=1, r=0",           1,  103.7},
        {104, "AutoCor, d=3, r=0",           1,   95.8},
        {105, "AutoCor, d=1, r=27",          1,  108.6},
        {106, "AutoCor, d=3, r=27",          1,   99.4},
    }};
    // clang-format on
    return catalogue;
}

// Rabbit and Alphabit: bbattery_RepeatRabbit(gen, nb, rep) and
// bbattery_RepeatAlphabit(gen, nb, r, s, rep) of TestU01 1.2.3.
//
// Test numbers, names, statistics per test and the nb below which TestU01 skips a test were
// read from Rabbit() and Alphabit() in TestU01's bbattery.c (each test derives its sample
// size from nb and is left out when that sample is too small; Rabbit's three random walks are
// left out together with the first when its walk length falls below 128 bits), then checked
// by running every test alone (rep[k] = 1) through the installed 1.2.3 library on
// umarsa_CreateRANMAR(12, 34, 56, 78) and counting bbattery_NTests and bbattery_TestNames:
// Rabbit at nb = 512, 544, 928, 960, 1024, 1888, 1920, 3808, 3840, 9568, 9600, 12768, 12800,
// 30688, 30720, 31168, 31200, 51168, 51200, 300448, 300480, 2^20, 5119968, 5120000, 2^25, and
// tests 2 to 26 at 52428768 and 52428800 (test 23's minimum);
// Alphabit at nb = 224, 256, 288, 512, 608, 640, 1024, 1248, 1280, 1312, 1888, 1920, 2560,
// 9568, 9600, 64992, 65024, 65056, 2^16, 2^20 and 2^25 with s = 32; at 2^20 with (r, s) =
// (0, 1), (31, 1), (3, 7), (8, 8), (0, 16), (16, 16), (0, 31), (1, 31); at 512 with s = 1, 7,
// 31 and (r, s) = (31, 1); at 320 with s = 1, 640 with s = 8, 1248 and 1280 with s = 31, 1280
// and 2560 with s = 16. Every count matched this table (tests/test_bit_batteries.cpp repeats some
// of these runs). Every guard compares a sample size that grows with nb, so no test is left out
// above its minimum. Rabbit at nb = 499 aborts inside TestU01 (nb < 500), Alphabit at nb = 32
// aborts in test 7.
//
// Costs: CPU seconds of each test run alone at nb = 2^25 on this project's 2-core development
// VM (rough: other builds were running; test 23 measured at 52428800 and scaled down), scaled
// with the bits the test reads; Rabbit test 1
// reads at most 3e8 bits (30 replications of 10^7), test 6 at most 2^28 and test 7 2^20, and
// test 5 (Berlekamp-Massey on min(10000 + 2 sqrt(nb), 300000) bits) grows with the square of
// its length. Alphabit reads nb / s numbers: at s = 1 its tests took about 10.6 times as long
// as at s = 32.

namespace {

struct BitTest {
    int number;
    const char* name;
    int statistics; // when the test runs
    double min_nb; // TestU01 leaves the test out below this nb (bits); 0: never
    double cost; // CPU seconds at nb = 2^25 (Alphabit: s = 32)
};

// clang-format off
const BitTest rabbit_tests[] = {
    {  1, "MultinomialBitsOver",         1,        0, 6.4},
    {  2, "ClosePairsBitMatch, t = 2",   1,        0, 0.21},
    {  3, "ClosePairsBitMatch, t = 4",   1,        0, 0.18},
    {  4, "AppearanceSpacings",          1,        0, 0.02},
    {  5, "LinearComp",                  2,        0, 0.27},
    {  6, "LempelZiv",                   1,        0, 1.9},
    {  7, "Fourier1",                    1,        0, 0.09},
    {  8, "Fourier3",                    1,        0, 0.24},
    {  9, "LongestHeadRun",              1,    31200, 0.15},
    { 10, "PeriodsInStrings",            1,      960, 0.04},
    { 11, "HammingWeight",               1,      960, 0.04},
    { 12, "HammingCorr, L = 32",         1,        0, 0.04},
    { 13, "HammingCorr, L = 64",         1,        0, 0.04},
    { 14, "HammingCorr, L = 128",        1,        0, 0.04},
    { 15, "HammingIndep, L = 16",        1,      960, 0.04},
    { 16, "HammingIndep, L = 32",        1,     1920, 0.04},
    { 17, "HammingIndep, L = 64",        1,     3840, 0.04},
    { 18, "AutoCor",                     1,        0, 0.04},
    { 19, "AutoCor",                     1,        0, 0.04},
    { 20, "Run of bits",                 2,        0, 0.15},
    { 21, "MatrixRank, 32 x 32",         1,    51200, 0.16},
    { 22, "MatrixRank, 320 x 320",       1,  5120000, 0.17},
    { 23, "MatrixRank, 1024 x 1024",     1, 52428800, 0.29},
    { 24, "RandomWalk1 H",               5,      960, 0.09},
    { 25, "RandomWalk1 H (L = 1024)",    5,    30720, 0.07},
    { 26, "RandomWalk1 H (L = 10016)",   5,   300480, 0.07},
};

// Alphabit tests 5 and 6 depend on s too: they run from nb = 20 s and 40 s (alphabit_min_nb).
const BitTest alphabit_tests[] = {
    {  1, "MultinomialBitsOver, L = 2",  1,        0, 0.05},
    {  2, "MultinomialBitsOver, L = 4",  1,        0, 0.04},
    {  3, "MultinomialBitsOver, L = 8",  1,      256, 0.04},
    {  4, "MultinomialBitsOver, L = 16", 1,    65024, 0.05},
    {  5, "HammingIndep, L = 16",        1,        0, 0.04},
    {  6, "HammingIndep, L = 32",        1,        0, 0.04},
    {  7, "HammingCorr, L = 32",         1,        0, 0.04},
    {  8, "RandomWalk1 H (L = 64)",      5,     1920, 0.11},
    {  9, "RandomWalk1 H (L = 320)",     5,     9600, 0.07},
};
// clang-format on

double alphabit_min_nb(const BitTest& t, int s)
{
    if (t.number == 5) return 20.0 * s; // HammingIndep on floor(nb / s) numbers, at least 20
    if (t.number == 6) return 40.0 * s; // HammingIndep on half of them, at least 20
    return t.min_nb;
}

double rabbit_cost(const BitTest& t, double nb)
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
    c.tests = { { 1, "MCPi 2-d, all points", reps + 3, 2 * numbers * mcpi_seconds_per_number },
        { 2, "MCPi 3-d, all points", reps + 3, 3 * numbers * mcpi_seconds_per_number } };
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
    for (const BitTest& t : rabbit_tests) {
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
    if (r + s > 32) throw InputError(given + ": r + s must be at most 32 (bits of one number)");
    BatteryCatalogue c;
    c.name = "alphabit(nb=" + format_bits(nb) + ",r=" + std::to_string(r)
        + ",s=" + std::to_string(s) + ")";
    c.nb = nb;
    c.r = r;
    c.s = s;
    const double per_number = 0.7 + 0.3 * 32.0 / s; // 1 at s = 32, about 10.6 at s = 1
    for (const BitTest& t : alphabit_tests) {
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

std::string battery_title(const std::string& battery)
{
    const std::string family = battery_family(battery);
    std::string title;
    if (family == "smallcrush") title = "SmallCrush";
    if (family == "crush") title = "Crush";
    if (family == "bigcrush") title = "BigCrush";
    if (family == "rabbit") title = "Rabbit";
    if (family == "alphabit") title = "Alphabit";
    if (family == "mcpi") title = "mcpi";
    if (title.empty()) return "unknown battery";
    if (family.size() + 2 <= battery.size() && battery.back() == ')') {
        title += " (";
        for (char c : battery.substr(family.size() + 1, battery.size() - family.size() - 2))
            title += c == '=' ? std::string(" = ")
                : c == ','    ? std::string(", ")
                              : std::string(1, c);
        title += ")";
    }
    return title;
}

namespace {

// "mcpi", "mcpi(points=N)", "mcpi(reps=R)", "mcpi(points=N,reps=R)".
const BatteryCatalogue& mcpi_from_name(const std::string& battery)
{
    std::uint64_t points = mcpi_default_points;
    int reps = mcpi_default_reps;
    if (battery == "mcpi") return mcpi_catalogue(points, reps);
    const std::string form = "mcpi(points=N,reps=R)";
    if (battery.rfind("mcpi(", 0) != 0 || battery.back() != ')')
        throw InputError("battery '" + battery + "': write its parameters as " + form);
    const std::string list = battery.substr(5, battery.size() - 6);
    std::map<std::string, std::string> given;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string item = list.substr(start, comma - start);
        const std::size_t eq = item.find('=');
        const std::string key = item.substr(0, eq);
        if (eq == std::string::npos || (key != "points" && key != "reps")
            || !given.emplace(key, item.substr(eq + 1)).second)
            throw InputError("battery '" + battery + "': write its parameters as " + form);
        start = comma + 1;
    }
    if (given.count("points")) points = parse_count(given["points"], "mcpi points");
    if (given.count("reps")) reps = parse_small_int(given["reps"], "mcpi reps");
    return mcpi_catalogue(points, reps);
}

} // namespace

const BatteryCatalogue& catalogue_for(const std::string& battery)
{
    if (battery == "smallcrush") return smallcrush_catalogue();
    if (battery == "crush") return crush_catalogue();
    if (battery == "bigcrush") return bigcrush_catalogue();
    const std::string family = battery_family(battery);
    if (family == "mcpi") return mcpi_from_name(battery);
    if (family != "rabbit" && family != "alphabit")
        throw InputError("unknown battery '" + battery
            + "' (valid: smallcrush, crush, bigcrush, rabbit, alphabit, mcpi)");
    const bool alphabit = family == "alphabit";
    double nb = bit_battery_default_nb;
    int r = alphabit_default_r, s = alphabit_default_s;
    if (battery.size() > family.size()) {
        const std::string form = alphabit ? "alphabit(nb=BITS,r=R,s=S)" : "rabbit(nb=BITS)";
        if (battery[family.size()] != '(' || battery.back() != ')')
            throw InputError("battery '" + battery + "': write its parameters as " + form);
        const std::string list
            = battery.substr(family.size() + 1, battery.size() - family.size() - 2);
        std::map<std::string, std::string> given;
        std::size_t start = 0;
        while (start <= list.size()) {
            const std::size_t comma = std::min(list.find(',', start), list.size());
            const std::string item = list.substr(start, comma - start);
            const std::size_t eq = item.find('=');
            const std::string key = item.substr(0, eq);
            const bool known = key == "nb" || (alphabit && (key == "r" || key == "s"));
            if (eq == std::string::npos || !known
                || !given.emplace(key, item.substr(eq + 1)).second)
                throw InputError("battery '" + battery + "': write its parameters as " + form);
            start = comma + 1;
        }
        if (given.count("nb")) nb = parse_bit_count(given["nb"], family + " nb");
        if (given.count("r")) r = parse_small_int(given["r"], "alphabit r");
        if (given.count("s")) s = parse_small_int(given["s"], "alphabit s");
    }
    return alphabit ? alphabit_catalogue(nb, r, s) : rabbit_catalogue(nb);
}

} // namespace rngvet
