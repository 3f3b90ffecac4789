// How the bits were derived.
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
#include "bits_read.hpp"

#include "catalogue.hpp"
#include "generators/error.hpp"

#include <stdexcept>
#include <vector>

namespace rngvet {
namespace {

struct Entry {
    int test;
    int r; // top bits dropped
    int bits; // bits read after them; 0: U used as a real number (all bits)
    const char* call;
};

// clang-format off
    const std::vector<Entry> smallcrush = {
        {1, 0, 30, "smarsa_BirthdaySpacings r=0, d=2^30, t=2"},
        {2, 0, 16, "sknuth_Collision r=0, d=2^16, t=2"},
        {3, 22, 8, "sknuth_Gap r=22, [0, 1/256)"},
        {4, 24, 6, "sknuth_SimpPoker r=24, d=64"},
        {5, 26, 4, "sknuth_CouponCollector r=26, d=16"},
        {6, 0, 0, "sknuth_MaxOft r=0, t=6 (max of U)"},
        {7, 27, 3, "svaria_WeightDistrib r=27, [0, 1/8)"},
        {8, 20, 10, "smarsa_MatrixRank r=20, s=10"},
        {9, 20, 10, "sstring_HammingIndep r=20, s=10"},
        {10, 0, 30, "swalk_RandomWalk1 r=0, s=30"},
    };

    const std::vector<Entry> crush = {
        {1, 0, 12, "smarsa_SerialOver r=0, d=2^12, t=2"},
        {2, 0, 6, "smarsa_SerialOver r=0, d=64, t=4"},
        {3, 0, 20, "smarsa_CollisionOver r=0, d=2^20, t=2"},
        {4, 10, 20, "smarsa_CollisionOver r=10, d=2^20, t=2"},
        {5, 0, 10, "smarsa_CollisionOver r=0, d=2^10, t=4"},
        {6, 20, 10, "smarsa_CollisionOver r=20, d=2^10, t=4"},
        {7, 0, 5, "smarsa_CollisionOver r=0, d=32, t=8"},
        {8, 25, 5, "smarsa_CollisionOver r=25, d=32, t=8"},
        {9, 0, 2, "smarsa_CollisionOver r=0, d=4, t=20"},
        {10, 28, 2, "smarsa_CollisionOver r=28, d=4, t=20"},
        {11, 0, 31, "smarsa_BirthdaySpacings r=0, d=2^31, t=2"},
        {12, 0, 21, "smarsa_BirthdaySpacings r=0, d=2^21, t=3"},
        {13, 0, 16, "smarsa_BirthdaySpacings r=0, d=2^16, t=4"},
        {14, 0, 9, "smarsa_BirthdaySpacings r=0, d=2^9, t=7"},
        {15, 7, 9, "smarsa_BirthdaySpacings r=7, d=2^9, t=7"},
        {16, 14, 8, "smarsa_BirthdaySpacings r=14, d=2^8, t=8"},
        {17, 22, 8, "smarsa_BirthdaySpacings r=22, d=2^8, t=8"},
        {18, 0, 0, "snpair_ClosePairs r=0, t=2 (distances)"},
        {19, 0, 0, "snpair_ClosePairs r=0, t=3 (distances)"},
        {20, 0, 0, "snpair_ClosePairs r=0, t=7 (distances)"},
        {21, 0, 0, "snpair_ClosePairsBitMatch r=0, t=2 (leading common bits)"},
        {22, 0, 0, "snpair_ClosePairsBitMatch r=0, t=4 (leading common bits)"},
        {23, 0, 4, "sknuth_SimpPoker r=0, d=16"},
        {24, 26, 4, "sknuth_SimpPoker r=26, d=16"},
        {25, 0, 6, "sknuth_SimpPoker r=0, d=64"},
        {26, 24, 6, "sknuth_SimpPoker r=24, d=64"},
        {27, 0, 2, "sknuth_CouponCollector r=0, d=4"},
        {28, 28, 2, "sknuth_CouponCollector r=28, d=4"},
        {29, 0, 4, "sknuth_CouponCollector r=0, d=16"},
        {30, 26, 4, "sknuth_CouponCollector r=26, d=16"},
        {31, 0, 3, "sknuth_Gap r=0, [0, 1/8)"},
        {32, 27, 3, "sknuth_Gap r=27, [0, 1/8)"},
        {33, 0, 8, "sknuth_Gap r=0, [0, 1/256)"},
        {34, 22, 8, "sknuth_Gap r=22, [0, 1/256)"},
        {35, 0, 0, "sknuth_Run r=0 (comparisons of U)"},
        {36, 15, 0, "sknuth_Run r=15 (comparisons of U)"},
        {37, 0, 0, "sknuth_Permutation r=0, t=10 (comparisons of U)"},
        {38, 15, 0, "sknuth_Permutation r=15, t=10 (comparisons of U)"},
        {39, 0, 0, "sknuth_CollisionPermut r=0, t=13 (comparisons of U)"},
        {40, 15, 0, "sknuth_CollisionPermut r=15, t=13 (comparisons of U)"},
        {41, 0, 0, "sknuth_MaxOft r=0, t=5 (max of U)"},
        {42, 0, 0, "sknuth_MaxOft r=0, t=10 (max of U)"},
        {43, 0, 0, "sknuth_MaxOft r=0, t=20 (max of U)"},
        {44, 0, 0, "sknuth_MaxOft r=0, t=30 (max of U)"},
        {45, 0, 0, "svaria_SampleProd r=0, t=10 (products of U)"},
        {46, 0, 0, "svaria_SampleProd r=0, t=30 (products of U)"},
        {47, 0, 0, "svaria_SampleMean r=0 (sums of U)"},
        {48, 0, 0, "svaria_SampleCorr r=0, k=1 (products of U)"},
        {49, 0, 30, "svaria_AppearanceSpacings r=0, s=30, L=15"},
        {50, 20, 10, "svaria_AppearanceSpacings r=20, s=10, L=15"},
        {51, 0, 3, "svaria_WeightDistrib r=0, [0, 1/8)"},
        {52, 8, 3, "svaria_WeightDistrib r=8, [0, 1/8)"},
        {53, 16, 3, "svaria_WeightDistrib r=16, [0, 1/8)"},
        {54, 24, 3, "svaria_WeightDistrib r=24, [0, 1/8)"},
        {55, 0, 0, "svaria_SumCollector r=0, g=10 (sums of U)"},
        {56, 0, 30, "smarsa_MatrixRank r=0, s=30, 60x60"},
        {57, 20, 10, "smarsa_MatrixRank r=20, s=10, 60x60"},
        {58, 0, 30, "smarsa_MatrixRank r=0, s=30, 300x300"},
        {59, 20, 10, "smarsa_MatrixRank r=20, s=10, 300x300"},
        {60, 0, 30, "smarsa_MatrixRank r=0, s=30, 1200x1200"},
        {61, 20, 10, "smarsa_MatrixRank r=20, s=10, 1200x1200"},
        {62, 0, 20, "smarsa_Savir2 r=0, m=2^20, t=30"},
        {63, 0, 30, "smarsa_GCD r=0, s=30"},
        {64, 10, 20, "smarsa_GCD r=10, s=20"},
        {65, 0, 30, "swalk_RandomWalk1 r=0, s=30, L=90"},
        {66, 20, 10, "swalk_RandomWalk1 r=20, s=10, L=90"},
        {67, 0, 30, "swalk_RandomWalk1 r=0, s=30, L=1000"},
        {68, 20, 10, "swalk_RandomWalk1 r=20, s=10, L=1000"},
        {69, 0, 30, "swalk_RandomWalk1 r=0, s=30, L=10000"},
        {70, 20, 10, "swalk_RandomWalk1 r=20, s=10, L=10000"},
        {71, 0, 1, "scomp_LinearComp r=0, s=1"},
        {72, 29, 1, "scomp_LinearComp r=29, s=1"},
        {73, 0, 30, "scomp_LempelZiv r=0, s=30"},
        {74, 0, 30, "sspectral_Fourier3 r=0, s=30"},
        {75, 20, 10, "sspectral_Fourier3 r=20, s=10"},
        {76, 0, 30, "sstring_LongestHeadRun r=0, s=30"},
        {77, 20, 10, "sstring_LongestHeadRun r=20, s=10"},
        {78, 0, 30, "sstring_PeriodsInStrings r=0, s=30"},
        {79, 15, 15, "sstring_PeriodsInStrings r=15, s=15"},
        {80, 0, 30, "sstring_HammingWeight2 r=0, s=30"},
        {81, 20, 10, "sstring_HammingWeight2 r=20, s=10"},
        {82, 0, 30, "sstring_HammingCorr r=0, s=30, L=30"},
        {83, 0, 30, "sstring_HammingCorr r=0, s=30, L=300"},
        {84, 0, 30, "sstring_HammingCorr r=0, s=30, L=1200"},
        {85, 0, 30, "sstring_HammingIndep r=0, s=30, L=30"},
        {86, 20, 10, "sstring_HammingIndep r=20, s=10, L=30"},
        {87, 0, 30, "sstring_HammingIndep r=0, s=30, L=300"},
        {88, 20, 10, "sstring_HammingIndep r=20, s=10, L=300"},
        {89, 0, 30, "sstring_HammingIndep r=0, s=30, L=1200"},
        {90, 20, 10, "sstring_HammingIndep r=20, s=10, L=1200"},
        {91, 0, 30, "sstring_Run r=0, s=30"},
        {92, 20, 10, "sstring_Run r=20, s=10"},
        {93, 0, 30, "sstring_AutoCor r=0, s=30, d=1"},
        {94, 20, 10, "sstring_AutoCor r=20, s=10, d=1"},
        {95, 0, 30, "sstring_AutoCor r=0, s=30, d=30"},
        {96, 20, 10, "sstring_AutoCor r=20, s=10, d=10"},
    };

    const std::vector<Entry> bigcrush = {
        {1, 0, 8, "smarsa_SerialOver r=0, d=2^8, t=3"},
        {2, 22, 8, "smarsa_SerialOver r=22, d=2^8, t=3"},
        {3, 0, 21, "smarsa_CollisionOver r=0, d=2^21, t=2"},
        {4, 9, 21, "smarsa_CollisionOver r=9, d=2^21, t=2"},
        {5, 0, 14, "smarsa_CollisionOver r=0, d=2^14, t=3"},
        {6, 16, 14, "smarsa_CollisionOver r=16, d=2^14, t=3"},
        {7, 0, 6, "smarsa_CollisionOver r=0, d=64, t=7"},
        {8, 24, 6, "smarsa_CollisionOver r=24, d=64, t=7"},
        {9, 0, 3, "smarsa_CollisionOver r=0, d=8, t=14"},
        {10, 27, 3, "smarsa_CollisionOver r=27, d=8, t=14"},
        {11, 0, 2, "smarsa_CollisionOver r=0, d=4, t=21"},
        {12, 28, 2, "smarsa_CollisionOver r=28, d=4, t=21"},
        {13, 0, 31, "smarsa_BirthdaySpacings r=0, d=2^31, t=2"},
        {14, 0, 21, "smarsa_BirthdaySpacings r=0, d=2^21, t=3"},
        {15, 14, 16, "smarsa_BirthdaySpacings r=14, d=2^16, t=4"},
        {16, 0, 9, "smarsa_BirthdaySpacings r=0, d=2^9, t=7"},
        {17, 7, 9, "smarsa_BirthdaySpacings r=7, d=2^9, t=7"},
        {18, 14, 8, "smarsa_BirthdaySpacings r=14, d=2^8, t=8"},
        {19, 22, 8, "smarsa_BirthdaySpacings r=22, d=2^8, t=8"},
        {20, 0, 4, "smarsa_BirthdaySpacings r=0, d=16, t=16"},
        {21, 26, 4, "smarsa_BirthdaySpacings r=26, d=16, t=16"},
        {22, 0, 0, "snpair_ClosePairs r=0, t=3 (distances)"},
        {23, 0, 0, "snpair_ClosePairs r=0, t=5 (distances)"},
        {24, 0, 0, "snpair_ClosePairs r=0, t=9 (distances)"},
        {25, 0, 0, "snpair_ClosePairs r=0, t=16 (distances)"},
        {26, 0, 3, "sknuth_SimpPoker r=0, d=8"},
        {27, 27, 3, "sknuth_SimpPoker r=27, d=8"},
        {28, 0, 5, "sknuth_SimpPoker r=0, d=32"},
        {29, 25, 5, "sknuth_SimpPoker r=25, d=32"},
        {30, 0, 3, "sknuth_CouponCollector r=0, d=8"},
        {31, 10, 3, "sknuth_CouponCollector r=10, d=8"},
        {32, 20, 3, "sknuth_CouponCollector r=20, d=8"},
        {33, 27, 3, "sknuth_CouponCollector r=27, d=8"},
        {34, 0, 4, "sknuth_Gap r=0, [0, 1/16)"},
        {35, 25, 5, "sknuth_Gap r=25, [0, 1/32)"},
        {36, 0, 7, "sknuth_Gap r=0, [0, 1/128)"},
        {37, 20, 10, "sknuth_Gap r=20, [0, 1/1024)"},
        {38, 0, 0, "sknuth_Run r=0 (comparisons of U)"},
        {39, 15, 0, "sknuth_Run r=15 (comparisons of U)"},
        {40, 5, 0, "sknuth_Permutation r=5, t=3 (comparisons of U)"},
        {41, 5, 0, "sknuth_Permutation r=5, t=5 (comparisons of U)"},
        {42, 5, 0, "sknuth_Permutation r=5, t=7 (comparisons of U)"},
        {43, 10, 0, "sknuth_Permutation r=10, t=10 (comparisons of U)"},
        {44, 0, 0, "sknuth_CollisionPermut r=0, t=14 (comparisons of U)"},
        {45, 10, 0, "sknuth_CollisionPermut r=10, t=14 (comparisons of U)"},
        {46, 0, 0, "sknuth_MaxOft r=0, t=8 (max of U)"},
        {47, 0, 0, "sknuth_MaxOft r=0, t=16 (max of U)"},
        {48, 0, 0, "sknuth_MaxOft r=0, t=24 (max of U)"},
        {49, 0, 0, "sknuth_MaxOft r=0, t=32 (max of U)"},
        {50, 0, 0, "svaria_SampleProd r=0, t=8 (products of U)"},
        {51, 0, 0, "svaria_SampleProd r=0, t=16 (products of U)"},
        {52, 0, 0, "svaria_SampleProd r=0, t=24 (products of U)"},
        {53, 0, 0, "svaria_SampleMean r=0 (sums of U)"},
        {54, 10, 0, "svaria_SampleMean r=10 (sums of U)"},
        {55, 0, 0, "svaria_SampleCorr r=0, k=1 (products of U)"},
        {56, 0, 0, "svaria_SampleCorr r=0, k=2 (products of U)"},
        {57, 0, 3, "svaria_AppearanceSpacings r=0, s=3, L=15"},
        {58, 27, 3, "svaria_AppearanceSpacings r=27, s=3, L=15"},
        {59, 0, 2, "svaria_WeightDistrib r=0, [0, 1/4)"},
        {60, 20, 2, "svaria_WeightDistrib r=20, [0, 1/4)"},
        {61, 28, 2, "svaria_WeightDistrib r=28, [0, 1/4)"},
        {62, 0, 4, "svaria_WeightDistrib r=0, [0, 1/16)"},
        {63, 10, 4, "svaria_WeightDistrib r=10, [0, 1/16)"},
        {64, 26, 4, "svaria_WeightDistrib r=26, [0, 1/16)"},
        {65, 0, 0, "svaria_SumCollector r=0, g=10 (sums of U)"},
        {66, 0, 5, "smarsa_MatrixRank r=0, s=5, 30x30"},
        {67, 25, 5, "smarsa_MatrixRank r=25, s=5, 30x30"},
        {68, 0, 4, "smarsa_MatrixRank r=0, s=4, 1000x1000"},
        {69, 26, 4, "smarsa_MatrixRank r=26, s=4, 1000x1000"},
        {70, 15, 15, "smarsa_MatrixRank r=15, s=15, 5000x5000"},
        {71, 0, 30, "smarsa_MatrixRank r=0, s=30, 5000x5000"},
        {72, 10, 20, "smarsa_Savir2 r=10, m=2^20, t=30"},
        {73, 0, 30, "smarsa_GCD r=0, s=30"},
        {74, 0, 5, "swalk_RandomWalk1 r=0, s=5, L=50"},
        {75, 25, 5, "swalk_RandomWalk1 r=25, s=5, L=50"},
        {76, 0, 10, "swalk_RandomWalk1 r=0, s=10, L=1000"},
        {77, 20, 10, "swalk_RandomWalk1 r=20, s=10, L=1000"},
        {78, 0, 15, "swalk_RandomWalk1 r=0, s=15, L=10000"},
        {79, 15, 15, "swalk_RandomWalk1 r=15, s=15, L=10000"},
        {80, 0, 1, "scomp_LinearComp r=0, s=1"},
        {81, 29, 1, "scomp_LinearComp r=29, s=1"},
        {82, 0, 30, "scomp_LempelZiv r=0, s=30"},
        {83, 15, 15, "scomp_LempelZiv r=15, s=15"},
        {84, 0, 3, "sspectral_Fourier3 r=0, s=3"},
        {85, 27, 3, "sspectral_Fourier3 r=27, s=3"},
        {86, 0, 3, "sstring_LongestHeadRun r=0, s=3"},
        {87, 27, 3, "sstring_LongestHeadRun r=27, s=3"},
        {88, 0, 10, "sstring_PeriodsInStrings r=0, s=10"},
        {89, 20, 10, "sstring_PeriodsInStrings r=20, s=10"},
        {90, 0, 3, "sstring_HammingWeight2 r=0, s=3"},
        {91, 27, 3, "sstring_HammingWeight2 r=27, s=3"},
        {92, 10, 10, "sstring_HammingCorr r=10, s=10, L=30"},
        {93, 10, 10, "sstring_HammingCorr r=10, s=10, L=300"},
        {94, 10, 10, "sstring_HammingCorr r=10, s=10, L=1200"},
        {95, 0, 3, "sstring_HammingIndep r=0, s=3, L=30"},
        {96, 27, 3, "sstring_HammingIndep r=27, s=3, L=30"},
        {97, 0, 4, "sstring_HammingIndep r=0, s=4, L=300"},
        {98, 26, 4, "sstring_HammingIndep r=26, s=4, L=300"},
        {99, 0, 5, "sstring_HammingIndep r=0, s=5, L=1200"},
        {100, 25, 5, "sstring_HammingIndep r=25, s=5, L=1200"},
        {101, 0, 3, "sstring_Run r=0, s=3"},
        {102, 27, 3, "sstring_Run r=27, s=3"},
        {103, 0, 3, "sstring_AutoCor r=0, s=3, d=1"},
        {104, 0, 3, "sstring_AutoCor r=0, s=3, d=3"},
        {105, 27, 3, "sstring_AutoCor r=27, s=3, d=1"},
        {106, 27, 3, "sstring_AutoCor r=27, s=3, d=3"},
    };
    const std::vector<Entry> rabbit = {
        {1, 0, 32, "smultin_MultinomialBitsOver r=0, s=32"},
        {2, 0, 0, "snpair_ClosePairsBitMatch r=0, t=2 (leading common bits)"},
        {3, 0, 0, "snpair_ClosePairsBitMatch r=0, t=4 (leading common bits)"},
        {4, 0, 30, "svaria_AppearanceSpacings r=0, s=30"},
        {5, 0, 32, "scomp_LinearComp r=0, s=32"},
        {6, 0, 32, "scomp_LempelZiv r=0, s=32"},
        {7, 0, 32, "sspectral_Fourier1 r=0, s=32"},
        {8, 0, 32, "sspectral_Fourier3 r=0, s=32"},
        {9, 0, 32, "sstring_LongestHeadRun r=0, s=32"},
        {10, 0, 31, "sstring_PeriodsInStrings r=0, s=31"},
        {11, 0, 32, "sstring_HammingWeight r=0, s=32"},
        {12, 0, 32, "sstring_HammingCorr r=0, s=32, L=32"},
        {13, 0, 32, "sstring_HammingCorr r=0, s=32, L=64"},
        {14, 0, 32, "sstring_HammingCorr r=0, s=32, L=128"},
        {15, 0, 32, "sstring_HammingIndep r=0, s=32, L=16"},
        {16, 0, 32, "sstring_HammingIndep r=0, s=32, L=32"},
        {17, 0, 32, "sstring_HammingIndep r=0, s=32, L=64"},
        {18, 0, 32, "sstring_AutoCor r=0, s=32, d=1"},
        {19, 0, 32, "sstring_AutoCor r=0, s=32, d=2"},
        {20, 0, 32, "sstring_Run r=0, s=32"},
        {21, 0, 32, "smarsa_MatrixRank r=0, s=32, 32x32"},
        {22, 0, 32, "smarsa_MatrixRank r=0, s=32, 320x320"},
        {23, 0, 32, "smarsa_MatrixRank r=0, s=32, 1024x1024"},
        {24, 0, 32, "swalk_RandomWalk1 r=0, s=32, L=128 (shorter for nb < 12800)"},
        {25, 0, 32, "swalk_RandomWalk1 r=0, s=32, L=1024"},
        {26, 0, 32, "swalk_RandomWalk1 r=0, s=32, L=10016"},
    };

    // r and s are the battery's; `bits` is unused.
    const std::vector<Entry> alphabit = {
        {1, 0, 0, "smultin_MultinomialBitsOver r, s of the battery, L=2"},
        {2, 0, 0, "smultin_MultinomialBitsOver r, s of the battery, L=4"},
        {3, 0, 0, "smultin_MultinomialBitsOver r, s of the battery, L=8"},
        {4, 0, 0, "smultin_MultinomialBitsOver r, s of the battery, L=16"},
        {5, 0, 0, "sstring_HammingIndep r, s of the battery, L=16"},
        {6, 0, 0, "sstring_HammingIndep r, s of the battery, L=32"},
        {7, 0, 0, "sstring_HammingCorr r, s of the battery, L=32"},
        {8, 0, 0, "swalk_RandomWalk1 r, s of the battery, L=64"},
        {9, 0, 0, "swalk_RandomWalk1 r, s of the battery, L=320"},
    };

    const std::vector<Entry> mcpi = {
        {1, 0, 0, "mcpi: (u1, u2) inside the quarter circle, u1^2 + u2^2 < 1"},
        {2, 0, 0, "mcpi: (u1, u2, u3) inside the ball's octant, u1^2 + u2^2 + u3^2 < 1"},
    };
// clang-format on

const std::vector<Entry>& table(const std::string& family)
{
    if (family == "smallcrush") return smallcrush;
    if (family == "crush") return crush;
    if (family == "bigcrush") return bigcrush;
    if (family == "rabbit") return rabbit;
    if (family == "alphabit") return alphabit;
    if (family == "mcpi") return mcpi;
    throw std::out_of_range("no bits-read table for battery '" + family + "'");
}

} // namespace

BitsRead bits_read(const std::string& battery, int test_number)
{
    const std::string family = battery_family(battery);
    const auto& entries = table(family);
    if (test_number < 1 || static_cast<std::size_t>(test_number) > entries.size())
        throw std::out_of_range(battery + " has no test " + std::to_string(test_number));
    Entry e = entries[static_cast<std::size_t>(test_number - 1)];
    if (family == "alphabit") {
        try {
            const BatteryCatalogue& c = catalogue_for(battery);
            e.r = c.r;
            e.bits = c.s;
        } catch (const InputError&) {
            throw std::out_of_range("no bits-read table for battery '" + battery + "'");
        }
    }
    BitsRead b;
    b.first_bit = e.r + 1;
    b.all_bits = e.bits == 0;
    b.highest_bit = b.all_bits ? 32 : e.r + e.bits;
    b.call = e.call;
    b.resolution_matters = family != "mcpi";
    return b;
}

int highest_bit_read(const std::string& battery, int test_number)
{
    return bits_read(battery, test_number).highest_bit;
}

} // namespace rngvet
