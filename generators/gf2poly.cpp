#include "gf2poly.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace rngvet {

namespace {

int highest_bit(std::uint64_t w)
{
    return 63 - __builtin_clzll(w);
}

// Bits 0..31 of x moved to the even positions 0, 2, ..., 62 (the square of a polynomial).
std::uint64_t spread32(std::uint64_t x)
{
    x &= 0xFFFFFFFFull;
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFull;
    x = (x | (x << 8)) & 0x00FF00FF00FF00FFull;
    x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0Full;
    x = (x | (x << 2)) & 0x3333333333333333ull;
    x = (x | (x << 1)) & 0x5555555555555555ull;
    return x;
}

std::size_t words_for_degree(int degree)
{
    return static_cast<std::size_t>(degree / 64 + 1);
}

// r ^= src * t^(64 * offset), for word vectors with r large enough.
void xor_at(
    std::vector<std::uint64_t>& r, const std::vector<std::uint64_t>& src, std::size_t offset)
{
    for (std::size_t i = 0; i < src.size() && offset + i < r.size(); ++i)
        r[offset + i] ^= src[i];
}

// Degree of a small polynomial held in a uint32 (-1 for zero).
int small_degree(std::uint32_t g)
{
    return g == 0 ? -1 : 31 - __builtin_clz(g);
}

// a mod g for small polynomials, a of degree < 64.
std::uint64_t small_mod(std::uint64_t a, std::uint32_t g)
{
    const int dg = small_degree(g);
    for (int i = a == 0 ? -1 : highest_bit(a); i >= dg; --i) {
        if ((a >> i) & 1u) a ^= static_cast<std::uint64_t>(g) << (i - dg);
    }
    return a;
}

} // namespace

Gf2Poly::Gf2Poly(std::vector<std::uint64_t> words)
    : words_(std::move(words))
{
    trim();
}

Gf2Poly Gf2Poly::monomial(int degree)
{
    Gf2Poly p;
    p.set_coeff(degree, true);
    return p;
}

void Gf2Poly::trim()
{
    while (!words_.empty() && words_.back() == 0)
        words_.pop_back();
}

int Gf2Poly::degree() const
{
    if (words_.empty()) return -1;
    return static_cast<int>(64 * (words_.size() - 1)) + highest_bit(words_.back());
}

bool Gf2Poly::coeff(int i) const
{
    const std::size_t w = static_cast<std::size_t>(i / 64);
    return i >= 0 && w < words_.size() && ((words_[w] >> (i % 64)) & 1u);
}

void Gf2Poly::set_coeff(int i, bool value)
{
    const std::size_t w = static_cast<std::size_t>(i / 64);
    if (w >= words_.size()) {
        if (!value) return;
        words_.resize(w + 1, 0);
    }
    const std::uint64_t bit = 1ull << (i % 64);
    words_[w] = value ? (words_[w] | bit) : (words_[w] & ~bit);
    trim();
}

int Gf2Poly::weight() const
{
    int n = 0;
    for (std::uint64_t w : words_)
        n += __builtin_popcountll(w);
    return n;
}

std::string Gf2Poly::hex() const
{
    if (is_zero()) return "0";
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (int nibble = degree() / 4; nibble >= 0; --nibble) {
        const std::uint64_t w = words_[static_cast<std::size_t>(nibble / 16)];
        out += digits[(w >> (4 * (nibble % 16))) & 0xF];
    }
    return out;
}

Gf2Poly& Gf2Poly::operator+=(const Gf2Poly& other)
{
    if (other.words_.size() > words_.size()) words_.resize(other.words_.size(), 0);
    for (std::size_t i = 0; i < other.words_.size(); ++i)
        words_[i] ^= other.words_[i];
    trim();
    return *this;
}

bool operator<(const Gf2Poly& a, const Gf2Poly& b)
{
    if (a.words_.size() != b.words_.size()) return a.words_.size() < b.words_.size();
    return std::lexicographical_compare(
        a.words_.rbegin(), a.words_.rend(), b.words_.rbegin(), b.words_.rend());
}

Gf2Poly shift_left(const Gf2Poly& a, int k)
{
    if (a.is_zero()) return a;
    const std::size_t word_shift = static_cast<std::size_t>(k / 64);
    const int bit_shift = k % 64;
    const auto& src = a.words();
    std::vector<std::uint64_t> out(src.size() + word_shift + 1, 0);
    for (std::size_t i = 0; i < src.size(); ++i) {
        out[i + word_shift] ^= src[i] << bit_shift;
        if (bit_shift != 0) out[i + word_shift + 1] ^= src[i] >> (64 - bit_shift);
    }
    return Gf2Poly(std::move(out));
}

Gf2Poly multiply(const Gf2Poly& a, const Gf2Poly& b)
{
    if (a.is_zero() || b.is_zero()) return Gf2Poly();
    // Schoolbook: add b * t^i for every set coefficient i of a; b is pre-shifted by 0..63.
    std::vector<std::vector<std::uint64_t>> b_shifted(64);
    for (int s = 0; s < 64; ++s) {
        b_shifted[static_cast<std::size_t>(s)] = shift_left(b, s).words();
    }
    std::vector<std::uint64_t> out(a.words().size() + b.words().size() + 1, 0);
    for (int i = 0; i <= a.degree(); ++i) {
        if (a.coeff(i)) xor_at(out, b_shifted[static_cast<std::size_t>(i % 64)], i / 64);
    }
    return Gf2Poly(std::move(out));
}

Gf2Poly square(const Gf2Poly& a)
{
    std::vector<std::uint64_t> out(2 * a.words().size(), 0);
    for (std::size_t i = 0; i < a.words().size(); ++i) {
        out[2 * i] = spread32(a.words()[i]);
        out[2 * i + 1] = spread32(a.words()[i] >> 32);
    }
    return Gf2Poly(std::move(out));
}

Gf2Poly remainder(const Gf2Poly& a, const Gf2Poly& m)
{
    if (m.is_zero()) throw std::invalid_argument("Gf2Poly remainder: division by zero");
    if (a.degree() < m.degree()) return a;
    if (m.degree() == 0) return Gf2Poly(); // m = 1 divides everything
    return Gf2Modulus(m).reduce(a);
}

Gf2Poly gcd(Gf2Poly a, Gf2Poly b)
{
    while (!b.is_zero()) {
        Gf2Poly r = remainder(a, b);
        a = std::move(b);
        b = std::move(r);
    }
    return a;
}

Gf2Modulus::Gf2Modulus(const Gf2Poly& m)
    : m_(m)
    , degree_(m.degree())
{
    if (degree_ < 1) throw std::invalid_argument("Gf2Modulus: degree must be >= 1");
    shifted_.reserve(64);
    for (int s = 0; s < 64; ++s) {
        std::vector<std::uint64_t> w = shift_left(m_, s).words();
        w.resize(words_for_degree(degree_ + 63), 0);
        shifted_.push_back(std::move(w));
    }
}

void Gf2Modulus::reduce_words(std::vector<std::uint64_t>& r) const
{
    // Clear coefficients from the top down: for a set coefficient i >= d, add m * t^(i - d),
    // whose leading term is t^i and whose other terms lie below i.
    const std::size_t lowest_word = static_cast<std::size_t>(degree_ / 64);
    for (std::size_t wi = r.size(); wi-- > lowest_word;) {
        while (r[wi] != 0) {
            const int i = static_cast<int>(64 * wi) + highest_bit(r[wi]);
            if (i < degree_) break;
            const int shift = i - degree_;
            xor_at(r, shifted_[static_cast<std::size_t>(shift % 64)],
                static_cast<std::size_t>(shift / 64));
        }
    }
}

Gf2Poly Gf2Modulus::reduce(Gf2Poly a) const
{
    std::vector<std::uint64_t> r = a.words();
    reduce_words(r);
    return Gf2Poly(std::move(r));
}

Gf2Poly Gf2Modulus::square_mod(const Gf2Poly& a) const
{
    return reduce(square(a));
}

namespace {

// Clears bytes last_byte .. top_byte of the word array r, top down: byte j, with value c,
// is cleared by adding entry c of `table` (entry_words words, a multiple of 4) at byte
// offset j - top_byte. The next byte's value must wait for that addition; instead of
// reading it back from memory, each word of r is read once into a register and kept up to
// date from the table (the eight bytes of entry c that land on it), so that the chain from
// one byte to the next is a table load and an XOR. The additions themselves run four words
// at a time with GCC vector types, built for AVX2 and for the baseline and chosen when the
// program loads (target_clones), so the same binary runs everywhere.
typedef std::uint64_t Words4 __attribute__((vector_size(32)));

__attribute__((target_clones("avx2", "default"))) void xor_table_entries(std::uint64_t* r,
    const std::uint64_t* table, std::size_t entry_words, int top_byte, int last_byte)
{
    unsigned char* bytes = reinterpret_cast<unsigned char*>(r);
    const unsigned char* table_bytes = reinterpret_cast<const unsigned char*>(table);
    for (int wi = last_byte / 8; wi >= top_byte / 8; --wi) {
        std::uint64_t word = r[wi];
        const int q_low = wi == top_byte / 8 ? top_byte % 8 : 0;
        for (int q = 7; q >= q_low; --q) {
            const unsigned c = static_cast<unsigned>(word >> (8 * q)) & 0xFFu;
            if (c == 0) continue;
            const std::size_t entry = c * entry_words;
            std::uint64_t lands; // entry bytes top_byte - q .. top_byte - q + 7: this word
            std::memcpy(&lands, table_bytes + 8 * entry + (top_byte - q), 8);
            word ^= lands;
            unsigned char* dst = bytes + (8 * wi + q - top_byte);
            for (std::size_t i = 0; i < entry_words; i += 4) {
                Words4 w;
                Words4 f;
                std::memcpy(&w, dst + 8 * i, sizeof w);
                std::memcpy(&f, table + entry + i, sizeof f);
                w ^= f;
                std::memcpy(dst + 8 * i, &w, sizeof w);
            }
        }
    }
}

// Reduction modulo m eight coefficients at a time. With d8 the least multiple of 8 >= d,
// entry c of the table is the multiple q(t) m(t) t^(d8 - d), deg q < 8, whose coefficients of
// t^d8 .. t^(d8+7) are the bits of c and which has none above: adding entry c shifted up by
// 8s bits clears byte d8/8 + s of a polynomial whose value there is c and changes only lower
// coefficients. Bytes are cleared from the top down; the at most 7 coefficients of degree
// d .. d8-1 left over are cleared one at a time. Polynomials are little-endian word arrays, so
// byte j holds coefficients 8j .. 8j+7 (checked at compile time below).
class ByteReducer {
public:
    ByteReducer(const Gf2Poly& m, int degree)
        : top_byte_((degree + 7) / 8)
        , entry_words_(static_cast<std::size_t>(((top_byte_ + 8) / 8 + 3) / 4 * 4))
        , table_(256 * entry_words_, 0)
    {
        const Gf2Poly base = shift_left(m, 8 * top_byte_ - degree); // degree 8 * top_byte_
        // basis[b]: the multiple whose top byte is exactly bit b.
        std::vector<std::uint64_t> basis(8 * entry_words_, 0);
        for (int b = 0; b < 8; ++b) {
            std::vector<std::uint64_t> w = shift_left(base, b).words();
            w.resize(entry_words_, 0);
            for (int lower = b - 1; lower >= 0; --lower) {
                const int bit = 8 * top_byte_ + lower;
                if ((w[static_cast<std::size_t>(bit / 64)] >> (bit % 64)) & 1u) {
                    for (std::size_t i = 0; i < entry_words_; ++i)
                        w[i] ^= basis[static_cast<std::size_t>(lower) * entry_words_ + i];
                }
            }
            std::copy(w.begin(), w.end(),
                basis.begin()
                    + static_cast<std::ptrdiff_t>(b) * static_cast<std::ptrdiff_t>(entry_words_));
        }
        for (std::size_t c = 1; c < 256; ++c) {
            const std::size_t low
                = static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(c)));
            const std::uint64_t* prev = entry(c & (c - 1));
            const std::uint64_t* bit = basis.data() + low * entry_words_;
            std::uint64_t* out = table_.data() + c * entry_words_;
            for (std::size_t i = 0; i < entry_words_; ++i)
                out[i] = prev[i] ^ bit[i];
        }
    }

    // Words a buffer needs beyond its polynomial's own words for reduce_top_bytes.
    std::size_t padding_words() const { return entry_words_ + 1; }

    // Clears the bytes top_byte_ .. last_byte of `r` (all higher bytes must be zero); r must
    // have padding_words() zero words beyond the last word that holds last_byte.
    void reduce_top_bytes(std::uint64_t* r, int last_byte) const
    {
        xor_table_entries(r, table_.data(), entry_words_, top_byte_, last_byte);
    }

private:
    const std::uint64_t* entry(std::size_t c) const { return table_.data() + c * entry_words_; }

    int top_byte_; // d8 / 8
    std::size_t entry_words_;
    std::vector<std::uint64_t> table_;
};

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
    "ByteReducer addresses coefficients 8j..8j+7 as byte j of the word array");

} // namespace

Gf2Poly Gf2Modulus::t_pow_2k(int k, const std::atomic<bool>* stop) const
{
    // k squarings, each reduced eight coefficients at a time (ByteReducer): about d/8 additions
    // of a (d/64 + 1)-word table entry per squaring instead of about d/2 additions of a
    // shifted modulus. This loop is the cost of the primitivity test.
    const std::size_t words = words_for_degree(degree_);
    std::vector<std::uint64_t> x = reduce(Gf2Poly::monomial(1)).words();
    x.resize(words, 0);
    if (degree_ < 64) { // too small for the byte table
        Gf2Poly y(x);
        for (int step = 0; step < k; ++step)
            y = square_mod(y);
        return y;
    }
    const ByteReducer bytes(m_, degree_);
    const int last_byte = (2 * (degree_ - 1)) / 8; // a square of degree < d has degree <= 2d - 2
    std::vector<std::uint64_t> sq(2 * words + bytes.padding_words(), 0);
    for (int step = 0; step < k; ++step) {
        if (stop && step % 16 == 0 && stop->load(std::memory_order_relaxed)) break;
        for (std::size_t i = 0; i < words; ++i) {
            sq[2 * i] = spread32(x[i]);
            sq[2 * i + 1] = spread32(x[i] >> 32);
        }
        bytes.reduce_top_bytes(sq.data(), last_byte);
        reduce_words(sq); // the coefficients of degree d .. d8 - 1
        std::copy(sq.begin(), sq.begin() + static_cast<std::ptrdiff_t>(words), x.begin());
        std::fill(sq.begin() + static_cast<std::ptrdiff_t>(words), sq.end(), 0);
    }
    return Gf2Poly(std::move(x));
}

Gf2Poly berlekamp_massey(const std::vector<std::uint8_t>& bits)
{
    // Connection polynomial C(x) = 1 + c_1 x + ... + c_L x^L; `window` holds the recent bits
    // reversed (bit i = s_(n-i)), so the discrepancy is the parity of C AND window.
    const std::size_t n_bits = bits.size();
    std::vector<std::uint64_t> window(n_bits / 64 + 1, 0);
    Gf2Poly c = Gf2Poly::monomial(0);
    Gf2Poly b = Gf2Poly::monomial(0);
    int length = 0;
    int gap = 1;
    for (std::size_t n = 0; n < n_bits; ++n) {
        for (std::size_t i = window.size(); i-- > 1;) {
            window[i] = (window[i] << 1) | (window[i - 1] >> 63);
        }
        window[0] = (window[0] << 1) | (bits[n] & 1u);
        std::uint64_t acc = 0;
        for (std::size_t i = 0; i < c.words().size(); ++i)
            acc ^= c.words()[i] & window[i];
        if (__builtin_parityll(acc) == 0) {
            ++gap;
            continue;
        }
        Gf2Poly next = c + shift_left(b, gap);
        if (2 * length <= static_cast<int>(n)) {
            length = static_cast<int>(n) + 1 - length;
            b = std::move(c);
            gap = 1;
        } else {
            ++gap;
        }
        c = std::move(next);
    }
    // The characteristic polynomial is the reciprocal of C over degree L.
    Gf2Poly f;
    for (int i = 0; i <= length; ++i) {
        if (c.coeff(i)) f.set_coeff(length - i, true);
    }
    return f;
}

std::vector<std::uint32_t> small_irreducibles(int max_degree)
{
    std::vector<std::uint32_t> found;
    for (int d = 1; d <= max_degree && d <= 31; ++d) {
        for (std::uint64_t g = 1ull << d; g < (2ull << d); ++g) {
            bool irreducible = true;
            for (std::uint32_t h : found) {
                if (2 * small_degree(h) > d) break;
                if (small_mod(g, h) == 0) {
                    irreducible = false;
                    break;
                }
            }
            if (irreducible) found.push_back(static_cast<std::uint32_t>(g));
        }
    }
    return found;
}

std::uint32_t remainder_small(const Gf2Poly& f, std::uint32_t g)
{
    // Horner from the top coefficient: r = r * t + f_i (mod g), one coefficient at a time.
    const int dg = small_degree(g);
    std::uint32_t r = 0;
    for (int i = f.degree(); i >= 0; --i) {
        r = (r << 1) | (f.coeff(i) ? 1u : 0u);
        if ((r >> dg) & 1u) r ^= g;
    }
    return r;
}

bool divides_small(std::uint32_t g, const Gf2Poly& f)
{
    return remainder_small(f, g) == 0;
}

const std::vector<int>& mersenne_exponents()
{
    static const std::vector<int> exponents = { 2, 3, 5, 7, 13, 17, 19, 31, 61, 89, 107, 127, 521,
        607, 1279, 2203, 2281, 3217, 4253, 4423, 9689, 9941, 11213, 19937, 21701, 23209, 44497 };
    return exponents;
}

bool is_mersenne_exponent(int p)
{
    const std::vector<int>& exponents = mersenne_exponents();
    return std::find(exponents.begin(), exponents.end(), p) != exponents.end();
}

PrimitivityResult primitivity_mersenne(const Gf2Poly& f)
{
    const int p = f.degree();
    if (!is_mersenne_exponent(p)) {
        throw std::invalid_argument(
            "primitivity_mersenne: degree " + std::to_string(p) + " is not a Mersenne exponent");
    }
    static const std::vector<std::uint32_t> prescreen = small_irreducibles(9);
    for (std::uint32_t g : prescreen) {
        if (small_degree(g) < p && divides_small(g, f)) {
            return { false,
                "divisible by the small irreducible polynomial 0x" + Gf2Poly({ g }).hex() };
        }
    }
    const Gf2Modulus mod(f);
    if (mod.t_pow_2k(p) != mod.reduce(Gf2Poly::monomial(1))) {
        return { false, "t^(2^p) != t modulo the characteristic polynomial" };
    }
    return { true, "" };
}

} // namespace rngvet
