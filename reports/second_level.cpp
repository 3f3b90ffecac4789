#include "second_level.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

extern "C" {
#include <testu01/fbar.h>
#include <testu01/gofs.h>
}

namespace rngvet {

UniformityTest uniformity_test(std::vector<double> values)
{
    if (values.empty()) throw std::invalid_argument("uniformity_test: no values");
    for (double v : values)
        if (!(v >= 0.0 && v <= 1.0))
            throw std::invalid_argument("uniformity_test: a value outside [0, 1]");
    std::sort(values.begin(), values.end());
    // TestU01's goodness-of-fit functions index their arrays from 1.
    values.insert(values.begin(), 0.0);
    const long n = static_cast<long>(values.size() - 1);
    UniformityTest t;
    t.n = static_cast<std::size_t>(n);
    double dplus = 0, dminus = 0;
    gofs_KS(values.data(), n, &dplus, &dminus, &t.ks);
    t.ks_p = fbar_KS1(n, t.ks);
    t.ad = gofs_AndersonDarling(values.data(), n);
    t.ad_p = fbar_AndersonDarling(n, t.ad);
    return t;
}

double binomial_tail(long n, double p, long k)
{
    if (k <= 0) return 1.0;
    if (k > n) return 0.0;
    if (p <= 0.0) return 0.0;
    if (p >= 1.0) return 1.0;
    const double lp = std::log(p), lq = std::log1p(-p);
    const double lgn = std::lgamma(static_cast<double>(n) + 1.0);
    auto term = [&](long i) {
        const double di = static_cast<double>(i), dn_i = static_cast<double>(n - i);
        return std::exp(
            lgn - std::lgamma(di + 1.0) - std::lgamma(dn_i + 1.0) + di * lp + dn_i * lq);
    };
    // Below the mean the complement has fewer terms and no cancellation worth speaking of;
    // above it, the terms from k upward fall geometrically and the loop stops once they no
    // longer change the sum.
    if (static_cast<double>(k) <= static_cast<double>(n) * p) {
        double below = 0;
        for (long i = 0; i < k; ++i)
            below += term(i);
        return std::max(0.0, 1.0 - below);
    }
    double sum = 0;
    for (long i = k; i <= n; ++i) {
        const double t = term(i);
        sum += t;
        if (t < sum * 1e-17) break;
    }
    return std::min(1.0, sum);
}

} // namespace rngvet
