#include "jump.hpp"

#include "mt_charpoly.hpp"

#include <vector>

namespace rngvet {
namespace {

constexpr int lags = ranmar_lags; // 97
constexpr int short_offset = lags - ranmar_short_lag; // 64: X_{m-33} is x^64 in the window

// (a * b) mod m for a, b < m < 2^63, without a 128-bit type.
std::uint64_t mulmod(std::uint64_t a, std::uint64_t b, std::uint64_t m)
{
    std::uint64_t r = 0;
    for (a %= m; b; b >>= 1) {
        if (b & 1) r = r + a >= m ? r + a - m : r + a;
        a = a + a >= m ? a + a - m : a + a;
    }
    return r;
}

// Polynomials of degree < 97 over Z/2^bits, reduced modulo x^97 = 1 - x^64.
using Poly = std::vector<std::uint64_t>;

Poly mul_mod_p(const Poly& a, const Poly& b, std::uint64_t mask)
{
    std::vector<std::uint64_t> prod(2 * lags - 1, 0);
    for (int i = 0; i < lags; ++i) {
        if (a[i] == 0) continue;
        for (int j = 0; j < lags; ++j)
            prod[i + j] += a[i] * b[j];
    }
    // Reduce from the top: x^k = x^(k-97) - x^(k-33).
    for (int k = 2 * lags - 2; k >= lags; --k) {
        const std::uint64_t c = prod[k];
        prod[k] = 0;
        prod[k - lags] += c;
        prod[k - lags + short_offset] -= c;
    }
    Poly out(lags);
    for (int i = 0; i < lags; ++i)
        out[i] = prod[i] & mask;
    return out;
}

Poly times_x(const Poly& a, std::uint64_t mask)
{
    Poly out(lags, 0);
    for (int i = 0; i + 1 < lags; ++i)
        out[i + 1] = a[i];
    const std::uint64_t top = a[lags - 1];
    out[0] = (out[0] + top) & mask;
    out[short_offset] = (out[short_offset] - top) & mask;
    return out;
}

Poly x_pow_mod_p(std::uint64_t n, std::uint64_t mask)
{
    Poly result(lags, 0), base(lags, 0);
    result[0] = 1;
    base[1] = 1;
    for (; n; n >>= 1) {
        if (n & 1) result = mul_mod_p(result, base, mask);
        base = mul_mod_p(base, base, mask);
    }
    return result;
}

} // namespace

void ranmar_jump(RanmarState& s, std::uint64_t n)
{
    if (n == 0) return;
    const std::uint64_t mask = (1ull << s.bits) - 1;
    // The current window: w[m] = X_{now-97+m}.
    Poly window(lags);
    ranmar_window(s, window.data());
    Poly r = x_pow_mod_p(n, mask);
    Poly next(lags);
    for (int j = 0; j < lags; ++j) {
        std::uint64_t acc = 0;
        for (int m = 0; m < lags; ++m)
            acc += r[m] * window[m];
        next[j] = acc & mask;
        r = times_x(r, mask);
    }
    ranmar_set_window(s, next.data(), n);
    // c_(now+n) = (c - n cd) mod cm.
    s.c = ranmar_c_back(s.c, mulmod(s.cd, n, s.cm), s.cm);
}

RanmarJump ranmar_jump_by(const RanmarState& s, std::uint64_t n)
{
    const std::uint64_t mask = (1ull << s.bits) - 1;
    RanmarJump j;
    j.n = n;
    const Poly r = x_pow_mod_p(n, mask);
    for (int m = 0; m < lags; ++m)
        j.poly[m] = r[m];
    j.c_back = mulmod(s.cd, n, s.cm);
    return j;
}

void ranmar_jump(RanmarState& s, const RanmarJump& j)
{
    if (j.n == 0) return;
    const std::uint64_t mask = (1ull << s.bits) - 1;
    // ext[m] = X_{e-97+m}, m = 0..192: the window, then 96 values of the recurrence.
    std::uint64_t ext[2 * lags - 1];
    ranmar_window(s, ext);
    for (int t = lags; t < 2 * lags - 1; ++t)
        ext[t] = ranmar_lag_step(ext[t - lags], ext[t - ranmar_short_lag], mask);
    std::uint64_t next[lags];
    for (int w = 0; w < lags; ++w) {
        std::uint64_t acc = 0;
        for (int m = 0; m < lags; ++m)
            acc += j.poly[m] * ext[w + m];
        next[w] = acc & mask;
    }
    ranmar_set_window(s, next, j.n);
    s.c = ranmar_c_back(s.c, j.c_back, s.cm);
}

void mt_jump(MtState& s, const MtParams& prm, std::uint64_t n)
{
    if (n == 0) return;
    mt_jump(s, prm, mt_characteristic_polynomial(prm), n);
}

void mt_jump(MtState& s, const MtParams& prm, const Gf2Poly& phi, std::uint64_t n)
{
    if (n == 0) return;
    mt_jump(s, prm, mt_jump_polynomial(phi, n));
}

Gf2Poly mt_jump_polynomial(const Gf2Poly& phi, std::uint64_t n)
{
    return gf2_jump_polynomial(phi, n);
}

Gf2Poly gf2_jump_polynomial(const Gf2Poly& phi, std::uint64_t n)
{
    // g(x) = x^n mod phi by square-and-multiply.
    const Gf2Modulus mod(phi);
    Gf2Poly g = Gf2Poly::monomial(0);
    for (int bit = 63; bit >= 0; --bit) {
        g = mod.square_mod(g);
        if ((n >> bit) & 1) g = mod.reduce(shift_left(g, 1));
    }
    return g;
}

void mt_jump(MtState& s, const MtParams& prm, const Gf2Poly& g)
{
    // Horner: acc = sum g_i T^i s, from the highest coefficient down. States are added word by
    // word in their logical order (word j is st[(k + j) mod nn]).
    const int nn = prm.nn;
    MtState acc{};
    acc.k = 0;
    for (int i = g.degree(); i >= 0; --i) {
        mt_next(acc, prm);
        if (!g.coeff(i)) continue;
        for (int j = 0; j < nn; ++j)
            acc.st[(acc.k + j) % nn] ^= s.st[(s.k + j) % nn];
    }
    s = acc;
}

} // namespace rngvet
