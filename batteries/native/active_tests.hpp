// gofw_ActiveTests0 for native tests (native.hpp): TestU01's empirical-distribution tests of N
// sorted values, their terms computed on several threads and summed in TestU01's order.
#pragma once

namespace rngvet::native {

// gofw_ActiveTests0 (U, N, sVal, pVal) for sorted U[1..N] (TestU01's probdist/gofw.c), on
// `threads` threads: gofw_Tests0's statistics, each term computed as Tests0 computes it (its
// logarithms in parallel) and summed in Tests0's order, then the p-values of the active tests
// from TestU01's fbar.
void active_tests0(const double* U, long N, double* sVal, double* pVal, int threads);

} // namespace rngvet::native
