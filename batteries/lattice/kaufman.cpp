// Kaufman's finite-lattice partition function (kaufman.hpp) in __float128 dual numbers.
// Formulas: B. Kaufman, Phys. Rev. 76, 1232 (1949); A. E. Ferdinand and M. E. Fisher, Phys. Rev.
// 185, 832 (1969), eqs. (2.1)-(2.5); P. D. Beale, Phys. Rev. Lett. 76, 78 (1996), eqs. (2)-(4).
#include "kaufman.hpp"

#include <stdexcept>
#include <string>

__extension__ typedef __float128 Quad;

// libquadmath's functions used here, declared as the library defines them rather than through
// <quadmath.h>, a header of GCC's own that other compilers (clang, for the fuzz targets) do not
// find.
extern "C" {
Quad acoshq(Quad);
Quad atanq(Quad);
Quad coshq(Quad);
Quad cosq(Quad);
Quad expm1q(Quad);
Quad expq(Quad);
Quad log1pq(Quad);
Quad logq(Quad);
Quad sinhq(Quad);
Quad sqrtq(Quad);
Quad tanhq(Quad);
}

namespace rngvet::lattice {
namespace {

Quad q(double x)
{
    return static_cast<Quad>(x);
}

// A value with its first and second derivative with respect to K: f, f', f''.
struct Dual {
    Quad v = 0;
    Quad d = 0;
    Quad dd = 0;
};

Dual constant(Quad v)
{
    return { v, 0, 0 };
}

Dual operator+(const Dual& a, const Dual& b)
{
    return { a.v + b.v, a.d + b.d, a.dd + b.dd };
}
Dual operator-(const Dual& a, const Dual& b)
{
    return { a.v - b.v, a.d - b.d, a.dd - b.dd };
}
Dual operator*(const Dual& a, const Dual& b)
{
    return { a.v * b.v, a.d * b.v + a.v * b.d, a.dd * b.v + q(2) * a.d * b.d + a.v * b.dd };
}
Dual operator*(Quad s, const Dual& a)
{
    return { s * a.v, s * a.d, s * a.dd };
}

// f(a) for f with derivatives f1 = f'(a.v), f2 = f''(a.v) (chain rule to second order).
Dual apply(const Dual& a, Quad f0, Quad f1, Quad f2)
{
    return { f0, f1 * a.d, f2 * a.d * a.d + f1 * a.dd };
}

Dual exp(const Dual& a)
{
    const Quad e = expq(a.v);
    return apply(a, e, e, e);
}
Dual log(const Dual& a)
{
    return apply(a, logq(a.v), q(1) / a.v, -q(1) / (a.v * a.v));
}
Dual cosh(const Dual& a)
{
    const Quad c = coshq(a.v), s = sinhq(a.v);
    return apply(a, c, s, c);
}
Dual sinh(const Dual& a)
{
    const Quad c = coshq(a.v), s = sinhq(a.v);
    return apply(a, s, c, s);
}
Dual acosh(const Dual& a)
{
    // acosh' = 1/sqrt(x^2 - 1), acosh'' = -x/(x^2 - 1)^(3/2); x - 1 > 0 here (x >= 2 - cos).
    const Quad w = (a.v - q(1)) * (a.v + q(1));
    const Quad r = sqrtq(w);
    return apply(a, acoshq(a.v), q(1) / r, -a.v / (w * r));
}
Dual tanh(const Dual& a)
{
    const Quad t = tanhq(a.v);
    const Quad s = q(1) - t * t; // sech^2
    return apply(a, t, s, q(-2) * t * s);
}
// exp(-a), 1 + exp(-a) and 1 - exp(-a) without loss where a is small.
Dual one_plus_exp_minus(const Dual& a)
{
    const Quad e = expq(-a.v);
    return apply(a, q(1) + e, -e, e);
}
Dual one_minus_exp_minus(const Dual& a)
{
    const Quad e = expq(-a.v);
    return apply(a, -expm1q(-a.v), e, -e);
}

} // namespace

double critical_coupling()
{
    return static_cast<double>(log1pq(sqrtq(q(2))) / q(2));
}

IsingExact kaufman_exact(int L, double K)
{
    if (L < 2 || L % 2 != 0)
        throw std::invalid_argument(
            "kaufman_exact: L must be even and at least 2, not " + std::to_string(L));
    if (!(K > 0) || !(K < 1e6))
        throw std::invalid_argument("kaufman_exact: K must be positive and finite");

    const Quad pi = q(4) * atanq(q(1));
    const Quad half_l = q(L) / q(2);
    const Dual k{ q(K), q(1), q(0) };
    const Dual two_k = q(2) * k;
    const Dual sinh_2k = sinh(two_k);
    const Dual cosh_2k = cosh(two_k);
    // cosh 2K coth 2K = cosh^2 2K / sinh 2K (>= 2, equal at K_c).
    const Dual c = cosh_2k * cosh_2k * exp(q(-1) * log(sinh_2k));

    // g_0 = 2K + ln tanh K, signed.
    const Dual g0 = two_k + log(tanh(k));

    // Odd l: A = (L/2) sum g_l, P1 = prod (1 + e^{-L g_l}), P2 = prod (1 - e^{-L g_l}).
    // Even l >= 2: B likewise, P3 and P4 carry the l = 0 factors 2 cosh(L g_0/2), 2 sinh(L g_0/2).
    Dual a = constant(0), b = constant(0);
    Dual p1 = constant(1), p2 = constant(1);
    Dual p3 = q(2) * cosh(half_l * g0), p4 = q(2) * sinh(half_l * g0);
    for (int l = 1; l < 2 * L; ++l) {
        const Dual g = acosh(c - constant(cosq(pi * q(l) / q(L))));
        const Dual lg = q(L) * g;
        if (l % 2 == 1) {
            a = a + half_l * g;
            p1 = p1 * one_plus_exp_minus(lg);
            p2 = p2 * one_minus_exp_minus(lg);
        } else {
            b = b + half_l * g;
            p3 = p3 * one_plus_exp_minus(lg);
            p4 = p4 * one_minus_exp_minus(lg);
        }
    }
    // ln(Z1 + Z2 + Z3 + Z4) = A + ln(P1 + P2 + e^{B - A} (P3 + P4)).
    const Dual log_sum = a + log(p1 + p2 + exp(b - a) * (p3 + p4));
    const Quad n = q(L) * q(L);
    const Dual log_z = constant(-logq(q(2))) + (n / q(2)) * log(q(2) * sinh_2k) + log_sum;

    IsingExact out;
    out.L = L;
    out.K = K;
    out.log_z = static_cast<double>(log_z.v);
    out.energy = static_cast<double>(-log_z.d / n);
    out.specific_heat = static_cast<double>(q(K) * q(K) * log_z.dd / n);
    return out;
}

} // namespace rngvet::lattice
