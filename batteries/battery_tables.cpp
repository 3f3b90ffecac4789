// One table per battery: every test of SmallCrush, Crush, BigCrush, Rabbit, Alphabit, mcpi and
// ising, keyed once by TestU01's test number, with its name, statistics, cost and the bits of U it
// reads. catalogue.cpp builds the catalogues (catalogue.hpp) from these rows and bits_read.cpp
// answers bits_read() (bits_read.hpp) from them.
//
// Columns: test number, first statistic's name, statistics, min_nb (Rabbit, Alphabit: TestU01
// leaves the test out below this nb; 0: never), cost in CPU seconds, r (top bits of U dropped),
// bits (read after them; 0: U used as a real number, all bits), the TestU01 call.
//
// == Names, statistics and costs of SmallCrush, Crush and BigCrush
//
// TestU01's SmallCrush, Crush and BigCrush, for TestU01 1.2.3 as installed here
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
//
// == Rabbit and Alphabit
//
// bbattery_RepeatRabbit(gen, nb, rep) and
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
//
// == Bits read: how they were derived
//
// Source: TestU01 1.2.3, testu01/bbattery.c (functions SmallCrush, Crush and BigCrush), which
// lists every test call with its arguments in the order of TestU01's test numbers; the meaning
// of the arguments is TestU01's user guide (modules smarsa, sknuth, svaria, snpair, sstring,
// swalk, scomp, sspectral). Almost every test takes r, the number of most significant bits of U
// it drops, and then reads a fixed number of the following bits:
//
//   - cell tests (smarsa_SerialOver, smarsa_CollisionOver, smarsa_BirthdaySpacings,
//     sknuth_Collision, sknuth_SimpPoker, sknuth_CouponCollector, smarsa_Savir2) map U to one of
//     d cells as floor(d * (2^r U mod 1)); every d in the batteries is a power of two, so they
//     read bits r+1 .. r+log2(d) (Savir2: m = 2^20 takes the role of d);
//   - interval tests (sknuth_Gap, svaria_WeightDistrib) ask whether 2^r U mod 1 lies in
//     [0, beta) with beta = 2^-k, which depends on bits r+1 .. r+k only;
//   - bit tests (smarsa_MatrixRank, smarsa_GCD, svaria_AppearanceSpacings, swalk_RandomWalk1,
//     scomp_LinearComp, scomp_LempelZiv, sspectral_Fourier3, and all of sstring) take s bits
//     from each U: bits r+1 .. r+s;
//   - real-valued tests (snpair_ClosePairs, snpair_ClosePairsBitMatch, sknuth_Run,
//     sknuth_Permutation, sknuth_CollisionPermut, sknuth_MaxOft, svaria_SampleProd,
//     svaria_SampleMean, svaria_SampleCorr, svaria_SumCollector) use U itself, after dropping
//     r bits, in comparisons, sums, products or distances. They depend on every bit GetU01
//     delivers, so the table says all bits, highest bit 32. This is conservative in favour of
//     the generator: for a 24-bit generator a failure of such a test is counted as expected
//     (resolution) even where the low bits barely matter (SampleMean r = 0, say), so a defect
//     visible only through these tests is not proven by them for a generator below 32 bits.
//     ClosePairsBitMatch in particular reads the leading bits until two coordinates differ, in
//     practice about log2(n^2 / 2) / t + a few bits (about 25 for Crush test 21, t = 2, n = 4e6;
//     about 13 for test 22, t = 4), but the exact count depends on the sample; it is listed as
//     all bits.
//
// Rabbit and Alphabit (bbattery.c, functions Rabbit and Alphabit) are bit tests throughout.
// Rabbit calls every test with r = 0 and s = 32, reading all 32 bits of each number, except
// svaria_AppearanceSpacings (test 4, s = 30), sstring_PeriodsInStrings (test 10, s = 31) and
// the two snpair_ClosePairsBitMatch tests (2 and 3, real-valued as above: all bits). Alphabit
// calls every test with the battery's own r and s: bits r+1 .. r+s, read from the battery name
// ("alphabit(nb=...,r=R,s=S)", catalogue.hpp).
//
// mcpi (rngvet's application battery, mcpi.hpp) uses U as a real number, u_1^2 + ... + u_d^2 < 1
// decided exactly: every bit GetU01 delivers can move a point across the circle, so both tests
// read all bits, highest bit 32, as the real-valued tests above. Unlike those, a generator of
// fewer bits is not expected to fail them, and its resolution excuses nothing
// (resolution_matters = false): with b bits the points lie on the lattice 2^-b Z^d, and the
// cells of that lattice that the sphere's surface crosses (at most 2 x 2^b of the 4^b cells for
// d = 2, 3 x 4^b of the 8^b for d = 3) move the hit probability by at most 3 x 2^-b. Over
// M = N R points that shifts z by at most 3 x 2^-b sqrt(M / (p (1 - p))): for b = 24, 0.002
// at the defaults and 0.22 at the largest M the 2^40-number segment allows.
//
// The birthday-spacings tests differ between TestU01 builds with and without 64-bit integers
// (USE_LONGLONG) and with 32- or 64-bit long; the table follows the 64-bit Linux build that
// Debian ships (USE_LONGLONG, 64-bit long): SmallCrush test 1 d = 2^30, Crush test 11 and
// BigCrush test 13 d = 2^31.

#include "battery_tables.hpp"

#include <iterator>

namespace rngvet::tables {
namespace {

// Constant-initialised arrays: usable from any static initialiser.
// clang-format off
const TestRow smallcrush[] = {
    //  #  name                        stat.   min_nb    cost   r bits TestU01 call
    {  1, "BirthdaySpacings",             1,        0,    1.6,  0, 30, "smarsa_BirthdaySpacings r=0, d=2^30, t=2"},
    {  2, "Collision",                    1,        0,    1.0,  0, 16, "sknuth_Collision r=0, d=2^16, t=2"},
    {  3, "Gap",                          1,        0,    0.5, 22,  8, "sknuth_Gap r=22, [0, 1/256)"},
    {  4, "SimpPoker",                    1,        0,    0.6, 24,  6, "sknuth_SimpPoker r=24, d=64"},
    {  5, "CouponCollector",              1,        0,    0.5, 26,  4, "sknuth_CouponCollector r=26, d=16"},
    {  6, "MaxOft",                       2,        0,    0.6,  0,  0, "sknuth_MaxOft r=0, t=6 (max of U)"},
    {  7, "WeightDistrib",                1,        0,    0.5, 27,  3, "svaria_WeightDistrib r=27, [0, 1/8)"},
    {  8, "MatrixRank",                   1,        0,    0.5, 20, 10, "smarsa_MatrixRank r=20, s=10"},
    {  9, "HammingIndep",                 1,        0,    0.7, 20, 10, "sstring_HammingIndep r=20, s=10"},
    { 10, "RandomWalk1 H",                5,        0,    0.8,  0, 30, "swalk_RandomWalk1 r=0, s=30"},
};

const TestRow crush[] = {
    //  #  name                        stat.   min_nb    cost   r bits TestU01 call
    {  1, "SerialOver, t = 2",            1,        0,   18.7,  0, 12, "smarsa_SerialOver r=0, d=2^12, t=2"},
    {  2, "SerialOver, t = 4",            1,        0,   12.4,  0,  6, "smarsa_SerialOver r=0, d=64, t=4"},
    {  3, "CollisionOver, t = 2",         1,        0,   21.0,  0, 20, "smarsa_CollisionOver r=0, d=2^20, t=2"},
    {  4, "CollisionOver, t = 2",         1,        0,   20.4, 10, 20, "smarsa_CollisionOver r=10, d=2^20, t=2"},
    {  5, "CollisionOver, t = 4",         1,        0,   30.5,  0, 10, "smarsa_CollisionOver r=0, d=2^10, t=4"},
    {  6, "CollisionOver, t = 4",         1,        0,   31.5, 20, 10, "smarsa_CollisionOver r=20, d=2^10, t=4"},
    {  7, "CollisionOver, t = 8",         1,        0,   29.9,  0,  5, "smarsa_CollisionOver r=0, d=32, t=8"},
    {  8, "CollisionOver, t = 8",         1,        0,   30.1, 25,  5, "smarsa_CollisionOver r=25, d=32, t=8"},
    {  9, "CollisionOver, t = 20",        1,        0,   27.6,  0,  2, "smarsa_CollisionOver r=0, d=4, t=20"},
    { 10, "CollisionOver, t = 20",        1,        0,   31.2, 28,  2, "smarsa_CollisionOver r=28, d=4, t=20"},
    { 11, "BirthdaySpacings, t = 2",      1,        0,   35.5,  0, 31, "smarsa_BirthdaySpacings r=0, d=2^31, t=2"},
    { 12, "BirthdaySpacings, t = 3",      1,        0,   34.6,  0, 21, "smarsa_BirthdaySpacings r=0, d=2^21, t=3"},
    { 13, "BirthdaySpacings, t = 4",      1,        0,   35.6,  0, 16, "smarsa_BirthdaySpacings r=0, d=2^16, t=4"},
    { 14, "BirthdaySpacings, t = 7",      1,        0,   23.1,  0,  9, "smarsa_BirthdaySpacings r=0, d=2^9, t=7"},
    { 15, "BirthdaySpacings, t = 7",      1,        0,   21.8,  7,  9, "smarsa_BirthdaySpacings r=7, d=2^9, t=7"},
    { 16, "BirthdaySpacings, t = 8",      1,        0,   23.8, 14,  8, "smarsa_BirthdaySpacings r=14, d=2^8, t=8"},
    { 17, "BirthdaySpacings, t = 8",      1,        0,   21.5, 22,  8, "smarsa_BirthdaySpacings r=22, d=2^8, t=8"},
    { 18, "ClosePairs NP, t = 2",         5,        0,    8.9,  0,  0, "snpair_ClosePairs r=0, t=2 (distances)"},
    { 19, "ClosePairs NP, t = 3",         6,        0,   13.5,  0,  0, "snpair_ClosePairs r=0, t=3 (distances)"},
    { 20, "ClosePairs NP, t = 7",         6,        0,   24.9,  0,  0, "snpair_ClosePairs r=0, t=7 (distances)"},
    { 21, "ClosePairsBitMatch, t = 2",    1,        0,   10.4,  0,  0, "snpair_ClosePairsBitMatch r=0, t=2 (leading common bits)"},
    { 22, "ClosePairsBitMatch, t = 4",    1,        0,    8.7,  0,  0, "snpair_ClosePairsBitMatch r=0, t=4 (leading common bits)"},
    { 23, "SimpPoker, d = 16",            1,        0,    9.9,  0,  4, "sknuth_SimpPoker r=0, d=16"},
    { 24, "SimpPoker, d = 16",            1,        0,   11.1, 26,  4, "sknuth_SimpPoker r=26, d=16"},
    { 25, "SimpPoker, d = 64",            1,        0,    8.3,  0,  6, "sknuth_SimpPoker r=0, d=64"},
    { 26, "SimpPoker, d = 64",            1,        0,   12.2, 24,  6, "sknuth_SimpPoker r=24, d=64"},
    { 27, "CouponCollector, d = 4",       1,        0,    4.8,  0,  2, "sknuth_CouponCollector r=0, d=4"},
    { 28, "CouponCollector, d = 4",       1,        0,    6.5, 28,  2, "sknuth_CouponCollector r=28, d=4"},
    { 29, "CouponCollector, d = 16",      1,        0,    6.4,  0,  4, "sknuth_CouponCollector r=0, d=16"},
    { 30, "CouponCollector, d = 16",      1,        0,    9.3, 26,  4, "sknuth_CouponCollector r=26, d=16"},
    { 31, "Gap, r = 0",                   1,        0,    6.4,  0,  3, "sknuth_Gap r=0, [0, 1/8)"},
    { 32, "Gap, r = 27",                  1,        0,    8.3, 27,  3, "sknuth_Gap r=27, [0, 1/8)"},
    { 33, "Gap, r = 0",                   1,        0,    5.5,  0,  8, "sknuth_Gap r=0, [0, 1/256)"},
    { 34, "Gap, r = 22",                  1,        0,    7.5, 22,  8, "sknuth_Gap r=22, [0, 1/256)"},
    { 35, "Run of U01, r = 0",            1,        0,    6.1,  0,  0, "sknuth_Run r=0 (comparisons of U)"},
    { 36, "Run of U01, r = 15",           1,        0,    8.6, 15,  0, "sknuth_Run r=15 (comparisons of U)"},
    { 37, "Permutation, r = 0",           1,        0,   15.2,  0,  0, "sknuth_Permutation r=0, t=10 (comparisons of U)"},
    { 38, "Permutation, r = 15",          1,        0,   13.7, 15,  0, "sknuth_Permutation r=15, t=10 (comparisons of U)"},
    { 39, "CollisionPermut, r = 0",       1,        0,   25.7,  0,  0, "sknuth_CollisionPermut r=0, t=13 (comparisons of U)"},
    { 40, "CollisionPermut, r = 15",      1,        0,   25.5, 15,  0, "sknuth_CollisionPermut r=15, t=13 (comparisons of U)"},
    { 41, "MaxOft, t = 5",                2,        0,   27.0,  0,  0, "sknuth_MaxOft r=0, t=5 (max of U)"},
    { 42, "MaxOft, t = 10",               2,        0,   13.5,  0,  0, "sknuth_MaxOft r=0, t=10 (max of U)"},
    { 43, "MaxOft, t = 20",               2,        0,    4.5,  0,  0, "sknuth_MaxOft r=0, t=20 (max of U)"},
    { 44, "MaxOft, t = 30",               2,        0,    4.4,  0,  0, "sknuth_MaxOft r=0, t=30 (max of U)"},
    { 45, "SampleProd, t = 10",           1,        0,    2.7,  0,  0, "svaria_SampleProd r=0, t=10 (products of U)"},
    { 46, "SampleProd, t = 30",           1,        0,    4.5,  0,  0, "svaria_SampleProd r=0, t=30 (products of U)"},
    { 47, "SampleMean",                   1,        0,    4.5,  0,  0, "svaria_SampleMean r=0 (sums of U)"},
    { 48, "SampleCorr",                   1,        0,    3.5,  0,  0, "svaria_SampleCorr r=0, k=1 (products of U)"},
    { 49, "AppearanceSpacings, r = 0",    1,        0,    6.8,  0, 30, "svaria_AppearanceSpacings r=0, s=30, L=15"},
    { 50, "AppearanceSpacings, r = 20",   1,        0,    2.5, 20, 10, "svaria_AppearanceSpacings r=20, s=10, L=15"},
    { 51, "WeightDistrib, r = 0",         1,        0,    2.8,  0,  3, "svaria_WeightDistrib r=0, [0, 1/8)"},
    { 52, "WeightDistrib, r = 8",         1,        0,    3.1,  8,  3, "svaria_WeightDistrib r=8, [0, 1/8)"},
    { 53, "WeightDistrib, r = 16",        1,        0,    3.1, 16,  3, "svaria_WeightDistrib r=16, [0, 1/8)"},
    { 54, "WeightDistrib, r = 24",        1,        0,    3.2, 24,  3, "svaria_WeightDistrib r=24, [0, 1/8)"},
    { 55, "SumCollector",                 1,        0,    2.4,  0,  0, "svaria_SumCollector r=0, g=10 (sums of U)"},
    { 56, "MatrixRank, 60 x 60",          1,        0,   27.2,  0, 30, "smarsa_MatrixRank r=0, s=30, 60x60"},
    { 57, "MatrixRank, 60 x 60",          1,        0,   29.6, 20, 10, "smarsa_MatrixRank r=20, s=10, 60x60"},
    { 58, "MatrixRank, 300 x 300",        1,        0,   37.9,  0, 30, "smarsa_MatrixRank r=0, s=30, 300x300"},
    { 59, "MatrixRank, 300 x 300",        1,        0,   45.9, 20, 10, "smarsa_MatrixRank r=20, s=10, 300x300"},
    { 60, "MatrixRank, 1200 x 1200",      1,        0,   42.5,  0, 30, "smarsa_MatrixRank r=0, s=30, 1200x1200"},
    { 61, "MatrixRank, 1200 x 1200",      1,        0,   56.2, 20, 10, "smarsa_MatrixRank r=20, s=10, 1200x1200"},
    { 62, "Savir2",                       1,        0,    3.9,  0, 20, "smarsa_Savir2 r=0, m=2^20, t=30"},
    { 63, "GCD, r = 0",                   1,        0,   15.0,  0, 30, "smarsa_GCD r=0, s=30"},
    { 64, "GCD, r = 10",                  1,        0,    4.7, 10, 20, "smarsa_GCD r=10, s=20"},
    { 65, "RandomWalk1 H (L = 90)",       5,        0,   28.4,  0, 30, "swalk_RandomWalk1 r=0, s=30, L=90"},
    { 66, "RandomWalk1 H (L = 90)",       5,        0,    6.0, 20, 10, "swalk_RandomWalk1 r=20, s=10, L=90"},
    { 67, "RandomWalk1 H (L = 1000)",     5,        0,   20.6,  0, 30, "swalk_RandomWalk1 r=0, s=30, L=1000"},
    { 68, "RandomWalk1 H (L = 1000)",     5,        0,    5.2, 20, 10, "swalk_RandomWalk1 r=20, s=10, L=1000"},
    { 69, "RandomWalk1 H (L = 10000)",    5,        0,   18.2,  0, 30, "swalk_RandomWalk1 r=0, s=30, L=10000"},
    { 70, "RandomWalk1 H (L = 10000)",    5,        0,    5.6, 20, 10, "swalk_RandomWalk1 r=20, s=10, L=10000"},
    { 71, "LinearComp, r = 0",            2,        0,   14.6,  0,  1, "scomp_LinearComp r=0, s=1"},
    { 72, "LinearComp, r = 29",           2,        0,   15.9, 29,  1, "scomp_LinearComp r=29, s=1"},
    { 73, "LempelZiv",                    1,        0,   21.7,  0, 30, "scomp_LempelZiv r=0, s=30"},
    { 74, "Fourier3, r = 0",              1,        0,   18.6,  0, 30, "sspectral_Fourier3 r=0, s=30"},
    { 75, "Fourier3, r = 20",             1,        0,   20.0, 20, 10, "sspectral_Fourier3 r=20, s=10"},
    { 76, "LongestHeadRun, r = 0",        2,        0,   68.4,  0, 30, "sstring_LongestHeadRun r=0, s=30"},
    { 77, "LongestHeadRun, r = 20",       2,        0,   22.8, 20, 10, "sstring_LongestHeadRun r=20, s=10"},
    { 78, "PeriodsInStrings, r = 0",      1,        0,   17.7,  0, 30, "sstring_PeriodsInStrings r=0, s=30"},
    { 79, "PeriodsInStrings, r = 15",     1,        0,   13.2, 15, 15, "sstring_PeriodsInStrings r=15, s=15"},
    { 80, "HammingWeight2, r = 0",        1,        0,    9.3,  0, 30, "sstring_HammingWeight2 r=0, s=30"},
    { 81, "HammingWeight2, r = 20",       1,        0,    7.0, 20, 10, "sstring_HammingWeight2 r=20, s=10"},
    { 82, "HammingCorr, L = 30",          1,        0,   14.4,  0, 30, "sstring_HammingCorr r=0, s=30, L=30"},
    { 83, "HammingCorr, L = 300",         1,        0,   13.4,  0, 30, "sstring_HammingCorr r=0, s=30, L=300"},
    { 84, "HammingCorr, L = 1200",        1,        0,   10.8,  0, 30, "sstring_HammingCorr r=0, s=30, L=1200"},
    { 85, "HammingIndep, L = 30",         1,        0,   18.8,  0, 30, "sstring_HammingIndep r=0, s=30, L=30"},
    { 86, "HammingIndep, L = 30",         1,        0,   13.0, 20, 10, "sstring_HammingIndep r=20, s=10, L=30"},
    { 87, "HammingIndep, L = 300",        1,        0,   18.0,  0, 30, "sstring_HammingIndep r=0, s=30, L=300"},
    { 88, "HammingIndep, L = 300",        1,        0,   12.2, 20, 10, "sstring_HammingIndep r=20, s=10, L=300"},
    { 89, "HammingIndep, L = 1200",       1,        0,   21.5,  0, 30, "sstring_HammingIndep r=0, s=30, L=1200"},
    { 90, "HammingIndep, L = 1200",       1,        0,    5.6, 20, 10, "sstring_HammingIndep r=20, s=10, L=1200"},
    { 91, "Run of bits, r = 0",           2,        0,   27.5,  0, 30, "sstring_Run r=0, s=30"},
    { 92, "Run of bits, r = 20",          2,        0,   33.7, 20, 10, "sstring_Run r=20, s=10"},
    { 93, "AutoCor, d = 1",               1,        0,   14.7,  0, 30, "sstring_AutoCor r=0, s=30, d=1"},
    { 94, "AutoCor, d = 1",               1,        0,   18.9, 20, 10, "sstring_AutoCor r=20, s=10, d=1"},
    { 95, "AutoCor, d = 30",              1,        0,   12.3,  0, 30, "sstring_AutoCor r=0, s=30, d=30"},
    { 96, "AutoCor, d = 10",              1,        0,   14.9, 20, 10, "sstring_AutoCor r=20, s=10, d=10"},
};

const TestRow bigcrush[] = {
    //  #  name                        stat.   min_nb    cost   r bits TestU01 call
    {  1, "SerialOver, r = 0",            1,        0,   55.3,  0,  8, "smarsa_SerialOver r=0, d=2^8, t=3"},
    {  2, "SerialOver, r = 22",           1,        0,   60.0, 22,  8, "smarsa_SerialOver r=22, d=2^8, t=3"},
    {  3, "CollisionOver, t = 2",         1,        0,  121.4,  0, 21, "smarsa_CollisionOver r=0, d=2^21, t=2"},
    {  4, "CollisionOver, t = 2",         1,        0,  145.4,  9, 21, "smarsa_CollisionOver r=9, d=2^21, t=2"},
    {  5, "CollisionOver, t = 3",         1,        0,  181.5,  0, 14, "smarsa_CollisionOver r=0, d=2^14, t=3"},
    {  6, "CollisionOver, t = 3",         1,        0,  229.1, 16, 14, "smarsa_CollisionOver r=16, d=2^14, t=3"},
    {  7, "CollisionOver, t = 7",         1,        0,  155.3,  0,  6, "smarsa_CollisionOver r=0, d=64, t=7"},
    {  8, "CollisionOver, t = 7",         1,        0,  232.5, 24,  6, "smarsa_CollisionOver r=24, d=64, t=7"},
    {  9, "CollisionOver, t = 14",        1,        0,  214.3,  0,  3, "smarsa_CollisionOver r=0, d=8, t=14"},
    { 10, "CollisionOver, t = 14",        1,        0,  232.6, 27,  3, "smarsa_CollisionOver r=27, d=8, t=14"},
    { 11, "CollisionOver, t = 21",        1,        0,  191.6,  0,  2, "smarsa_CollisionOver r=0, d=4, t=21"},
    { 12, "CollisionOver, t = 21",        1,        0,  224.3, 28,  2, "smarsa_CollisionOver r=28, d=4, t=21"},
    { 13, "BirthdaySpacings, t = 2",      1,        0,  328.7,  0, 31, "smarsa_BirthdaySpacings r=0, d=2^31, t=2"},
    { 14, "BirthdaySpacings, t = 3",      1,        0,  131.0,  0, 21, "smarsa_BirthdaySpacings r=0, d=2^21, t=3"},
    { 15, "BirthdaySpacings, t = 4",      1,        0,  221.2, 14, 16, "smarsa_BirthdaySpacings r=14, d=2^16, t=4"},
    { 16, "BirthdaySpacings, t = 7",      1,        0,  148.2,  0,  9, "smarsa_BirthdaySpacings r=0, d=2^9, t=7"},
    { 17, "BirthdaySpacings, t = 7",      1,        0,  153.0,  7,  9, "smarsa_BirthdaySpacings r=7, d=2^9, t=7"},
    { 18, "BirthdaySpacings, t = 8",      1,        0,  234.3, 14,  8, "smarsa_BirthdaySpacings r=14, d=2^8, t=8"},
    { 19, "BirthdaySpacings, t = 8",      1,        0,  241.2, 22,  8, "smarsa_BirthdaySpacings r=22, d=2^8, t=8"},
    { 20, "BirthdaySpacings, t = 16",     1,        0,  255.7,  0,  4, "smarsa_BirthdaySpacings r=0, d=16, t=16"},
    { 21, "BirthdaySpacings, t = 16",     1,        0,  269.6, 26,  4, "smarsa_BirthdaySpacings r=26, d=16, t=16"},
    { 22, "ClosePairs NP, t = 3",         6,        0,  146.0,  0,  0, "snpair_ClosePairs r=0, t=3 (distances)"},
    { 23, "ClosePairs NP, t = 5",         6,        0,  119.2,  0,  0, "snpair_ClosePairs r=0, t=5 (distances)"},
    { 24, "ClosePairs NP, t = 9",         6,        0,  165.7,  0,  0, "snpair_ClosePairs r=0, t=9 (distances)"},
    { 25, "ClosePairs NP, t = 16",        6,        0,  226.9,  0,  0, "snpair_ClosePairs r=0, t=16 (distances)"},
    { 26, "SimpPoker, r = 0",             1,        0,   58.7,  0,  3, "sknuth_SimpPoker r=0, d=8"},
    { 27, "SimpPoker, r = 27",            1,        0,   70.7, 27,  3, "sknuth_SimpPoker r=27, d=8"},
    { 28, "SimpPoker, r = 0",             1,        0,   58.0,  0,  5, "sknuth_SimpPoker r=0, d=32"},
    { 29, "SimpPoker, r = 25",            1,        0,   69.4, 25,  5, "sknuth_SimpPoker r=25, d=32"},
    { 30, "CouponCollector, r = 0",       1,        0,   68.4,  0,  3, "sknuth_CouponCollector r=0, d=8"},
    { 31, "CouponCollector, r = 10",      1,        0,   80.3, 10,  3, "sknuth_CouponCollector r=10, d=8"},
    { 32, "CouponCollector, r = 20",      1,        0,   83.4, 20,  3, "sknuth_CouponCollector r=20, d=8"},
    { 33, "CouponCollector, r = 27",      1,        0,   80.6, 27,  3, "sknuth_CouponCollector r=27, d=8"},
    { 34, "Gap, r = 0",                   1,        0,   61.3,  0,  4, "sknuth_Gap r=0, [0, 1/16)"},
    { 35, "Gap, r = 25",                  1,        0,   77.8, 25,  5, "sknuth_Gap r=25, [0, 1/32)"},
    { 36, "Gap, r = 0",                   1,        0,   62.7,  0,  7, "sknuth_Gap r=0, [0, 1/128)"},
    { 37, "Gap, r = 20",                  1,        0,   65.9, 20, 10, "sknuth_Gap r=20, [0, 1/1024)"},
    { 38, "Run, r = 0",                   1,        0,   71.0,  0,  0, "sknuth_Run r=0 (comparisons of U)"},
    { 39, "Run, r = 15",                  1,        0,  164.5, 15,  0, "sknuth_Run r=15 (comparisons of U)"},
    { 40, "Permutation, t = 3",           1,        0,   30.0,  5,  0, "sknuth_Permutation r=5, t=3 (comparisons of U)"},
    { 41, "Permutation, t = 5",           1,        0,   61.6,  5,  0, "sknuth_Permutation r=5, t=5 (comparisons of U)"},
    { 42, "Permutation, t = 7",           1,        0,   50.0,  5,  0, "sknuth_Permutation r=5, t=7 (comparisons of U)"},
    { 43, "Permutation, t = 10",          1,        0,  154.9, 10,  0, "sknuth_Permutation r=10, t=10 (comparisons of U)"},
    { 44, "CollisionPermut, r = 0",       1,        0,  273.0,  0,  0, "sknuth_CollisionPermut r=0, t=14 (comparisons of U)"},
    { 45, "CollisionPermut, r = 10",      1,        0,  282.5, 10,  0, "sknuth_CollisionPermut r=10, t=14 (comparisons of U)"},
    { 46, "MaxOft, t = 8",                2,        0,  107.0,  0,  0, "sknuth_MaxOft r=0, t=8 (max of U)"},
    { 47, "MaxOft, t = 16",               2,        0,   96.0,  0,  0, "sknuth_MaxOft r=0, t=16 (max of U)"},
    { 48, "MaxOft, t = 24",               2,        0,   87.8,  0,  0, "sknuth_MaxOft r=0, t=24 (max of U)"},
    { 49, "MaxOft, t = 32",               2,        0,   84.3,  0,  0, "sknuth_MaxOft r=0, t=32 (max of U)"},
    { 50, "SampleProd, t = 8",            1,        0,   96.2,  0,  0, "svaria_SampleProd r=0, t=8 (products of U)"},
    { 51, "SampleProd, t = 16",           1,        0,   73.6,  0,  0, "svaria_SampleProd r=0, t=16 (products of U)"},
    { 52, "SampleProd, t = 24",           1,        0,   81.0,  0,  0, "svaria_SampleProd r=0, t=24 (products of U)"},
    { 53, "SampleMean, r = 0",            1,        0,   13.5,  0,  0, "svaria_SampleMean r=0 (sums of U)"},
    { 54, "SampleMean, r = 10",           1,        0,   14.9, 10,  0, "svaria_SampleMean r=10 (sums of U)"},
    { 55, "SampleCorr, k = 1",            1,        0,   15.2,  0,  0, "svaria_SampleCorr r=0, k=1 (products of U)"},
    { 56, "SampleCorr, k = 2",            1,        0,   15.1,  0,  0, "svaria_SampleCorr r=0, k=2 (products of U)"},
    { 57, "AppearanceSpacings, r = 0",    1,        0,   48.3,  0,  3, "svaria_AppearanceSpacings r=0, s=3, L=15"},
    { 58, "AppearanceSpacings, r = 27",   1,        0,   56.2, 27,  3, "svaria_AppearanceSpacings r=27, s=3, L=15"},
    { 59, "WeightDistrib, r = 0",         1,        0,   27.7,  0,  2, "svaria_WeightDistrib r=0, [0, 1/4)"},
    { 60, "WeightDistrib, r = 20",        1,        0,   36.1, 20,  2, "svaria_WeightDistrib r=20, [0, 1/4)"},
    { 61, "WeightDistrib, r = 28",        1,        0,   41.3, 28,  2, "svaria_WeightDistrib r=28, [0, 1/4)"},
    { 62, "WeightDistrib, r = 0",         1,        0,   29.6,  0,  4, "svaria_WeightDistrib r=0, [0, 1/16)"},
    { 63, "WeightDistrib, r = 10",        1,        0,   35.5, 10,  4, "svaria_WeightDistrib r=10, [0, 1/16)"},
    { 64, "WeightDistrib, r = 26",        1,        0,   38.1, 26,  4, "svaria_WeightDistrib r=26, [0, 1/16)"},
    { 65, "SumCollector",                 1,        0,   77.0,  0,  0, "svaria_SumCollector r=0, g=10 (sums of U)"},
    { 66, "MatrixRank, L=30, r=0",        1,        0,   98.0,  0,  5, "smarsa_MatrixRank r=0, s=5, 30x30"},
    { 67, "MatrixRank, L=30, r=26",       1,        0,   93.6, 25,  5, "smarsa_MatrixRank r=25, s=5, 30x30"},
    { 68, "MatrixRank, L=1000, r=0",      1,        0,  116.7,  0,  4, "smarsa_MatrixRank r=0, s=4, 1000x1000"},
    { 69, "MatrixRank, L=1000, r=26",     1,        0,  127.2, 26,  4, "smarsa_MatrixRank r=26, s=4, 1000x1000"},
    { 70, "MatrixRank, L=5000",           1,        0,   97.0, 15, 15, "smarsa_MatrixRank r=15, s=15, 5000x5000"},
    { 71, "MatrixRank, L=5000",           1,        0,  106.3,  0, 30, "smarsa_MatrixRank r=0, s=30, 5000x5000"},
    { 72, "Savir2",                       1,        0,   24.4, 10, 20, "smarsa_Savir2 r=10, m=2^20, t=30"},
    { 73, "GCD",                          1,        0,   85.0,  0, 30, "smarsa_GCD r=0, s=30"},
    { 74, "RandomWalk1 H (L=50, r=0)",    5,        0,   50.0,  0,  5, "swalk_RandomWalk1 r=0, s=5, L=50"},
    { 75, "RandomWalk1 H (L=50, r=25)",   5,        0,   52.9, 25,  5, "swalk_RandomWalk1 r=25, s=5, L=50"},
    { 76, "RandomWalk1 H (L=1000, r=0)",  5,        0,   57.7,  0, 10, "swalk_RandomWalk1 r=0, s=10, L=1000"},
    { 77, "RandomWalk1 H (L=1000, r=20)",  5,        0,   55.6, 20, 10, "swalk_RandomWalk1 r=20, s=10, L=1000"},
    { 78, "RandomWalk1 H (L=10000, r=0)",  5,        0,   44.4,  0, 15, "swalk_RandomWalk1 r=0, s=15, L=10000"},
    { 79, "RandomWalk1 H (L=10000, r=15)",  5,        0,   38.1, 15, 15, "swalk_RandomWalk1 r=15, s=15, L=10000"},
    { 80, "LinearComp, r = 0",            2,        0,  166.6,  0,  1, "scomp_LinearComp r=0, s=1"},
    { 81, "LinearComp, r = 29",           2,        0,  163.1, 29,  1, "scomp_LinearComp r=29, s=1"},
    { 82, "LempelZiv, r = 0",             1,        0,  143.8,  0, 30, "scomp_LempelZiv r=0, s=30"},
    { 83, "LempelZiv, r = 15",            1,        0,  137.0, 15, 15, "scomp_LempelZiv r=15, s=15"},
    { 84, "Fourier3, r = 0",              1,        0,   47.7,  0,  3, "sspectral_Fourier3 r=0, s=3"},
    { 85, "Fourier3, r = 27",             1,        0,   47.2, 27,  3, "sspectral_Fourier3 r=27, s=3"},
    { 86, "LongestHeadRun, r = 0",        2,        0,   97.5,  0,  3, "sstring_LongestHeadRun r=0, s=3"},
    { 87, "LongestHeadRun, r = 27",       2,        0,   93.8, 27,  3, "sstring_LongestHeadRun r=27, s=3"},
    { 88, "PeriodsInStrings, r = 0",      1,        0,  152.5,  0, 10, "sstring_PeriodsInStrings r=0, s=10"},
    { 89, "PeriodsInStrings, r = 20",     1,        0,  161.4, 20, 10, "sstring_PeriodsInStrings r=20, s=10"},
    { 90, "HammingWeight2, r = 0",        1,        0,   62.8,  0,  3, "sstring_HammingWeight2 r=0, s=3"},
    { 91, "HammingWeight2, r = 27",       1,        0,   67.6, 27,  3, "sstring_HammingWeight2 r=27, s=3"},
    { 92, "HammingCorr, L = 30",          1,        0,   87.3, 10, 10, "sstring_HammingCorr r=10, s=10, L=30"},
    { 93, "HammingCorr, L = 300",         1,        0,   76.5, 10, 10, "sstring_HammingCorr r=10, s=10, L=300"},
    { 94, "HammingCorr, L = 1200",        1,        0,  253.6, 10, 10, "sstring_HammingCorr r=10, s=10, L=1200"},
    { 95, "HammingIndep, L=30, r=0",      1,        0,   99.4,  0,  3, "sstring_HammingIndep r=0, s=3, L=30"},
    { 96, "HammingIndep, L=30, r=27",     1,        0,   99.8, 27,  3, "sstring_HammingIndep r=27, s=3, L=30"},
    { 97, "HammingIndep, L=300, r=0",     1,        0,   91.7,  0,  4, "sstring_HammingIndep r=0, s=4, L=300"},
    { 98, "HammingIndep, L=300, r=26",    1,        0,   80.7, 26,  4, "sstring_HammingIndep r=26, s=4, L=300"},
    { 99, "HammingIndep, L=1200, r=0",    1,        0,   85.5,  0,  5, "sstring_HammingIndep r=0, s=5, L=1200"},
    {100, "HammingIndep, L=1200, r=25",   1,        0,   83.5, 25,  5, "sstring_HammingIndep r=25, s=5, L=1200"},
    {101, "Run of bits, r = 0",           2,        0,   92.8,  0,  3, "sstring_Run r=0, s=3"},
    {102, "Run of bits, r = 27",          2,        0,   94.1, 27,  3, "sstring_Run r=27, s=3"},
    {103, "AutoCor, d=1, r=0",            1,        0,  103.7,  0,  3, "sstring_AutoCor r=0, s=3, d=1"},
    {104, "AutoCor, d=3, r=0",            1,        0,   95.8,  0,  3, "sstring_AutoCor r=0, s=3, d=3"},
    {105, "AutoCor, d=1, r=27",           1,        0,  108.6, 27,  3, "sstring_AutoCor r=27, s=3, d=1"},
    {106, "AutoCor, d=3, r=27",           1,        0,   99.4, 27,  3, "sstring_AutoCor r=27, s=3, d=3"},
};

// Rabbit: costs at nb = 2^25, scaled with nb by rabbit_cost in catalogue.cpp.
const TestRow rabbit[] = {
    //  #  name                        stat.   min_nb    cost   r bits TestU01 call
    {  1, "MultinomialBitsOver",          1,        0,    6.4,  0, 32, "smultin_MultinomialBitsOver r=0, s=32"},
    {  2, "ClosePairsBitMatch, t = 2",    1,        0,   0.21,  0,  0, "snpair_ClosePairsBitMatch r=0, t=2 (leading common bits)"},
    {  3, "ClosePairsBitMatch, t = 4",    1,        0,   0.18,  0,  0, "snpair_ClosePairsBitMatch r=0, t=4 (leading common bits)"},
    {  4, "AppearanceSpacings",           1,        0,   0.02,  0, 30, "svaria_AppearanceSpacings r=0, s=30"},
    {  5, "LinearComp",                   2,        0,   0.27,  0, 32, "scomp_LinearComp r=0, s=32"},
    {  6, "LempelZiv",                    1,        0,    1.9,  0, 32, "scomp_LempelZiv r=0, s=32"},
    {  7, "Fourier1",                     1,        0,   0.09,  0, 32, "sspectral_Fourier1 r=0, s=32"},
    {  8, "Fourier3",                     1,        0,   0.24,  0, 32, "sspectral_Fourier3 r=0, s=32"},
    {  9, "LongestHeadRun",               1,    31200,   0.15,  0, 32, "sstring_LongestHeadRun r=0, s=32"},
    { 10, "PeriodsInStrings",             1,      960,   0.04,  0, 31, "sstring_PeriodsInStrings r=0, s=31"},
    { 11, "HammingWeight",                1,      960,   0.04,  0, 32, "sstring_HammingWeight r=0, s=32"},
    { 12, "HammingCorr, L = 32",          1,        0,   0.04,  0, 32, "sstring_HammingCorr r=0, s=32, L=32"},
    { 13, "HammingCorr, L = 64",          1,        0,   0.04,  0, 32, "sstring_HammingCorr r=0, s=32, L=64"},
    { 14, "HammingCorr, L = 128",         1,        0,   0.04,  0, 32, "sstring_HammingCorr r=0, s=32, L=128"},
    { 15, "HammingIndep, L = 16",         1,      960,   0.04,  0, 32, "sstring_HammingIndep r=0, s=32, L=16"},
    { 16, "HammingIndep, L = 32",         1,     1920,   0.04,  0, 32, "sstring_HammingIndep r=0, s=32, L=32"},
    { 17, "HammingIndep, L = 64",         1,     3840,   0.04,  0, 32, "sstring_HammingIndep r=0, s=32, L=64"},
    { 18, "AutoCor",                      1,        0,   0.04,  0, 32, "sstring_AutoCor r=0, s=32, d=1"},
    { 19, "AutoCor",                      1,        0,   0.04,  0, 32, "sstring_AutoCor r=0, s=32, d=2"},
    { 20, "Run of bits",                  2,        0,   0.15,  0, 32, "sstring_Run r=0, s=32"},
    { 21, "MatrixRank, 32 x 32",          1,    51200,   0.16,  0, 32, "smarsa_MatrixRank r=0, s=32, 32x32"},
    { 22, "MatrixRank, 320 x 320",        1,  5120000,   0.17,  0, 32, "smarsa_MatrixRank r=0, s=32, 320x320"},
    { 23, "MatrixRank, 1024 x 1024",      1, 52428800,   0.29,  0, 32, "smarsa_MatrixRank r=0, s=32, 1024x1024"},
    { 24, "RandomWalk1 H",                5,      960,   0.09,  0, 32, "swalk_RandomWalk1 r=0, s=32, L=128 (shorter for nb < 12800)"},
    { 25, "RandomWalk1 H (L = 1024)",     5,    30720,   0.07,  0, 32, "swalk_RandomWalk1 r=0, s=32, L=1024"},
    { 26, "RandomWalk1 H (L = 10016)",    5,   300480,   0.07,  0, 32, "swalk_RandomWalk1 r=0, s=32, L=10016"},
};

// Alphabit: r and bits are the battery's own r and s (bits_read.cpp reads them from the
// battery name); tests 5 and 6 depend on s too: they run from nb = 20 s and 40 s
// (alphabit_min_nb in catalogue.cpp).
const TestRow alphabit[] = {
    //  #  name                        stat.   min_nb    cost   r bits TestU01 call
    {  1, "MultinomialBitsOver, L = 2",   1,        0,   0.05,  0,  0, "smultin_MultinomialBitsOver r, s of the battery, L=2"},
    {  2, "MultinomialBitsOver, L = 4",   1,        0,   0.04,  0,  0, "smultin_MultinomialBitsOver r, s of the battery, L=4"},
    {  3, "MultinomialBitsOver, L = 8",   1,      256,   0.04,  0,  0, "smultin_MultinomialBitsOver r, s of the battery, L=8"},
    {  4, "MultinomialBitsOver, L = 16",  1,    65024,   0.05,  0,  0, "smultin_MultinomialBitsOver r, s of the battery, L=16"},
    {  5, "HammingIndep, L = 16",         1,        0,   0.04,  0,  0, "sstring_HammingIndep r, s of the battery, L=16"},
    {  6, "HammingIndep, L = 32",         1,        0,   0.04,  0,  0, "sstring_HammingIndep r, s of the battery, L=32"},
    {  7, "HammingCorr, L = 32",          1,        0,   0.04,  0,  0, "sstring_HammingCorr r, s of the battery, L=32"},
    {  8, "RandomWalk1 H (L = 64)",       5,     1920,   0.11,  0,  0, "swalk_RandomWalk1 r, s of the battery, L=64"},
    {  9, "RandomWalk1 H (L = 320)",      5,     9600,   0.07,  0,  0, "swalk_RandomWalk1 r, s of the battery, L=320"},
};

// mcpi (mcpi.hpp): each test writes 3 statistics plus one per replication, and costs what
// its points cost (mcpi_catalogue in catalogue.cpp), so those columns are 0 here.
const TestRow mcpi[] = {
    //  #  name                        stat.   min_nb    cost   r bits TestU01 call
    {  1, "MCPi 2-d, all points",         0,        0,      0,  0,  0, "mcpi: (u1, u2) inside the quarter circle, u1^2 + u2^2 < 1"},
    {  2, "MCPi 3-d, all points",         0,        0,      0,  0,  0, "mcpi: (u1, u2, u3) inside the ball's octant, u1^2 + u2^2 + u3^2 < 1"},
};

// ising (lattice/ising_battery.hpp): each test writes 4 statistics plus two per replica and
// costs what its steps cost (ising_catalogue in catalogue.cpp), so those columns are 0 here.
// The chains compare U with probabilities and take floor(U N) for a Wolff seed: U is used as a
// real number.
const TestRow ising[] = {
    //  #  name                              stat.   min_nb    cost   r bits TestU01 call
    {  1, "Ising Wolff, E over replicas",          0,        0,      0,  0,  0, "ising: Wolff single-cluster steps, U < p_add = 1 - exp(-2K) per bond tested, floor(U N) per seed"},
    {  2, "Ising Metropolis, E over replicas",     0,        0,      0,  0,  0, "ising: checkerboard Metropolis sweeps, U < min(1, exp(-2K s h)) per site"},
    {  3, "Ising Swendsen-Wang, E over replicas",  0,        0,      0,  0,  0, "ising: Swendsen-Wang sweeps, U < p_add per bond, U < 1/2 per cluster"},
};
// clang-format on

} // namespace

// Constant-initialised too: usable from any static initialiser.
const Rows smallcrush_tests{ smallcrush, std::size(smallcrush) };
const Rows crush_tests{ crush, std::size(crush) };
const Rows bigcrush_tests{ bigcrush, std::size(bigcrush) };
const Rows rabbit_tests{ rabbit, std::size(rabbit) };
const Rows alphabit_tests{ alphabit, std::size(alphabit) };
const Rows mcpi_tests{ mcpi, std::size(mcpi) };
const Rows ising_tests{ ising, std::size(ising) };

} // namespace rngvet::tables
