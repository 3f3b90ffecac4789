// Second-level tests: is a set of p-values (one statistic over many seeds) uniform on [0, 1]?
// And how many suspect values would chance alone give?
#pragma once

#include "verdict.hpp" // suspect_probability

#include <cstddef>
#include <vector>

namespace rngvet {

struct UniformityTest {
    std::size_t n = 0; // number of p-values
    double ks = 0; // Kolmogorov-Smirnov D = max(D+, D-)
    double ks_p = 1; // P(D >= ks) for n uniform values
    double ad = 0; // Anderson-Darling A^2
    double ad_p = 1; // P(A^2 >= ad) for n uniform values
};

// Kolmogorov-Smirnov and Anderson-Darling tests of H0: the values are independent and uniform
// on [0, 1]. Statistics from TestU01's gofs_KS and gofs_AndersonDarling (values within
// gofs_EpsilonAD of 0 or 1 are moved to that distance, so p-values of exactly 0 or 1 are
// allowed), p-values from fbar_KS1 and fbar_AndersonDarling. Requires at least one value; the
// input need not be sorted.
UniformityTest uniformity_test(std::vector<double> values);

// P(X >= k) for X ~ Binomial(n, p); 1 for k <= 0, 0 for k > n.
double binomial_tail(long n, double p, long k);

} // namespace rngvet
