// Exact finite-lattice answers for the 2D Ising model on the periodic L x L square lattice: the
// partition function of B. Kaufman, Phys. Rev. 76, 1232 (1949), in the form restated by
// A. E. Ferdinand and M. E. Fisher, Phys. Rev. 185, 832 (1969), and P. D. Beale, Phys. Rev. Lett.
// 76, 78 (1996):
//
//   Z = 1/2 (2 sinh 2K)^(N/2) (Z1 + Z2 + Z3 + Z4),      N = L^2, L even,
//   Z1 = prod_{r=0}^{L-1} 2 cosh(L g_{2r+1} / 2),  Z2 = prod_{r=0}^{L-1} 2 sinh(L g_{2r+1} / 2),
//   Z3 = prod_{r=0}^{L-1} 2 cosh(L g_{2r} / 2),    Z4 = prod_{r=0}^{L-1} 2 sinh(L g_{2r} / 2),
//   cosh g_l = cosh 2K coth 2K - cos(pi l / L)  (g_l > 0 for l >= 1),
//   g_0 = 2K + ln tanh K                        (signed: < 0 below K_c, so Z4 < 0 there).
//
// Conventions: H = -sum over the 2N nearest-neighbour bonds of s_i s_j, Z = sum exp(-K H).
// energy        E = <H>/N = -(1/N) d ln Z / dK   (E = -2 at T = 0, 0 at K = 0);
// specific heat C = K^2/N d^2 ln Z / dK^2 = K^2/N (<H^2> - <H>^2) (per spin, k_B = 1).
//
// ln Z and its first two derivatives are carried as forward-mode second-order dual numbers in
// __float128 (libquadmath, ~34 digits). The factors with l >= 1 are divided by exp(L g_l / 2)
// so that the products stay near 1 for any L, and Z1..Z4 are summed as
// exp(A) (P1 + P2) + exp(B) (P3 + P4); the cancellation between Z3 and Z4 (at small K) and the
// sign of Z4 (negative below K_c) are thus taken exactly as the formula gives them. The results,
// rounded to double, agree with brute-force enumeration (L = 2, 4) to 1e-13 and with the
// published L = 16 values at K_c to 1e-15 relative (tests/test_lattice.cpp).
#pragma once

namespace rngvet::lattice {

// K_c = ln(1 + sqrt 2) / 2, rounded to the nearest double.
double critical_coupling();

struct IsingExact {
    int L = 0;
    double K = 0; // the coupling exactly as given
    double log_z = 0; // ln Z
    double energy = 0; // E per spin, -(1/N) d ln Z / dK
    double specific_heat = 0; // C per spin, K^2/N d^2 ln Z / dK^2
};

// The exact answers for the periodic L x L lattice at coupling K (L even, L >= 2, K > 0).
// Throws std::invalid_argument otherwise.
IsingExact kaufman_exact(int L, double K);

} // namespace rngvet::lattice
