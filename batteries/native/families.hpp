// The battery rows of each test family with a native form (one file per family). Internal to
// batteries/native; registry.cpp gathers them.
#pragma once

#include "native.hpp"

#include <vector>

namespace rngvet::native {

std::vector<NativeTest> birthday_spacings_tests(); // smarsa_BirthdaySpacings
std::vector<NativeTest> collision_tests(); // sknuth_Collision, smarsa_CollisionOver
std::vector<NativeTest> gap_tests(); // sknuth_Gap, sknuth_SimpPoker, sknuth_CouponCollector
std::vector<NativeTest> max_oft_tests(); // sknuth_MaxOft, svaria_WeightDistrib
std::vector<NativeTest> matrix_rank_tests(); // smarsa_MatrixRank
std::vector<NativeTest> hamming_indep_tests(); // sstring_HammingIndep
std::vector<NativeTest> random_walk_tests(); // swalk_RandomWalk1
// sstring_LongestHeadRun, sstring_PeriodsInStrings, sstring_HammingWeight2, sstring_HammingCorr
std::vector<NativeTest> sstring_bits_tests();
std::vector<NativeTest> smarsa_more_tests(); // smarsa_SerialOver, smarsa_Savir2, smarsa_GCD
// svaria_SampleProd, svaria_SampleMean, svaria_SampleCorr, svaria_AppearanceSpacings,
// svaria_SumCollector
std::vector<NativeTest> svaria_more_tests();
std::vector<NativeTest> linear_comp_tests(); // scomp_LinearComp
std::vector<NativeTest> spectral_tests(); // sspectral_Fourier3
// sknuth_Run, sknuth_Permutation, sknuth_CollisionPermut
std::vector<NativeTest> sknuth_order_tests();
std::vector<NativeTest> bit_runs_tests(); // sstring_Run, sstring_AutoCor, scomp_LempelZiv
std::vector<NativeTest> close_pairs_tests(); // snpair_ClosePairs, snpair_ClosePairsBitMatch

} // namespace rngvet::native
