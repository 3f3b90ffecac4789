// Polynomials over GF(2), bit-packed: coefficient of t^i is bit i % 64 of word i / 64.
// Enough arithmetic for the Dynamic Creator (dynamic_creator.hpp): sums, products, remainders,
// squaring, gcd, squaring modulo a fixed polynomial, Berlekamp-Massey, and the primitivity
// test for polynomials whose degree p is a Mersenne exponent.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

class Gf2Poly {
public:
    Gf2Poly() = default; // the zero polynomial
    // Coefficients from words (bit i of the array is the coefficient of t^i).
    explicit Gf2Poly(std::vector<std::uint64_t> words);
    static Gf2Poly monomial(int degree); // t^degree

    int degree() const; // -1 for the zero polynomial
    bool is_zero() const { return words_.empty(); }
    bool coeff(int i) const;
    void set_coeff(int i, bool value);
    int weight() const; // number of non-zero coefficients
    const std::vector<std::uint64_t>& words() const { return words_; }
    // Hex digits, most significant first ("0" for zero): t^4 + t + 1 is "13".
    std::string hex() const;

    Gf2Poly& operator+=(const Gf2Poly& other); // addition is XOR
    friend Gf2Poly operator+(Gf2Poly a, const Gf2Poly& b) { return a += b; }
    friend bool operator==(const Gf2Poly& a, const Gf2Poly& b) { return a.words_ == b.words_; }
    friend bool operator!=(const Gf2Poly& a, const Gf2Poly& b) { return !(a == b); }
    // A total order (by degree, then coefficients) so polynomials can be sorted.
    friend bool operator<(const Gf2Poly& a, const Gf2Poly& b);

private:
    void trim(); // drops zero high words, so equal polynomials have equal word vectors
    std::vector<std::uint64_t> words_;
};

Gf2Poly shift_left(const Gf2Poly& a, int k); // a * t^k
Gf2Poly multiply(const Gf2Poly& a, const Gf2Poly& b);
Gf2Poly square(const Gf2Poly& a); // a^2: coefficients spread to even positions
Gf2Poly remainder(const Gf2Poly& a, const Gf2Poly& m); // a mod m, m != 0
Gf2Poly gcd(Gf2Poly a, Gf2Poly b);

// Arithmetic modulo a fixed polynomial m of degree d >= 1, with the 64 shifted copies of m
// prepared once so that a reduction step is a word-aligned XOR.
class Gf2Modulus {
public:
    explicit Gf2Modulus(const Gf2Poly& m);
    int degree() const { return degree_; }
    Gf2Poly reduce(Gf2Poly a) const;
    Gf2Poly square_mod(const Gf2Poly& a) const;
    // t^(2^k) mod m by k squarings. When *stop becomes true (checked every 16 squarings),
    // returns early with a meaningless result.
    Gf2Poly t_pow_2k(int k, const std::atomic<bool>* stop = nullptr) const;

private:
    void reduce_words(std::vector<std::uint64_t>& r) const; // in place, r.size() unchanged

    Gf2Poly m_;
    int degree_;
    std::vector<std::vector<std::uint64_t>> shifted_; // shifted_[s] = words of m * t^s
};

// The shortest linear recurrence of a bit sequence (Berlekamp-Massey, Massey 1969), returned
// as its monic characteristic polynomial f(t) = t^L + c_1 t^(L-1) + ... + c_L for the
// recurrence s_n = c_1 s_(n-1) + ... + c_L s_(n-L). Exact when the sequence has linear
// complexity L and at least 2L bits are given.
Gf2Poly berlekamp_massey(const std::vector<std::uint8_t>& bits);

// All irreducible polynomials of degree 1..max_degree (max_degree <= 31), by a sieve:
// a polynomial is irreducible when no irreducible polynomial of lower degree divides it.
// For max_degree = 9 there are 127.
std::vector<std::uint32_t> small_irreducibles(int max_degree);

// f mod g for a small polynomial g (bit i = coefficient of t^i, 1 <= degree <= 31).
std::uint32_t remainder_small(const Gf2Poly& f, std::uint32_t g);

// True when the small polynomial g (bit i = coefficient of t^i, degree <= 31) divides f.
bool divides_small(std::uint32_t g, const Gf2Poly& f);

// The Mersenne exponents up to 44497 (2^p - 1 prime), ascending, and whether p is one.
const std::vector<int>& mersenne_exponents();
bool is_mersenne_exponent(int p);

struct PrimitivityResult {
    bool primitive;
    std::string reason; // why not, empty when primitive
};

// Primitivity of f of degree p, p a Mersenne exponent (throws std::invalid_argument
// otherwise). Rabin's test for prime degree p: f is irreducible iff t^(2^p) = t mod f and f
// has no factor of degree 1. A prescreen by the irreducible polynomials of degree <= 9 (which
// includes the degree-1 check) rejects most candidates cheaply. As 2^p - 1 is prime, the
// multiplicative order of t modulo an irreducible f divides 2^p - 1 and is not 1, so
// irreducible implies primitive.
PrimitivityResult primitivity_mersenne(const Gf2Poly& f);

} // namespace rngvet
