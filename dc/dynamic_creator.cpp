#include "dc/dynamic_creator.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace rngvet {

// ---------------------------------------------------------------------------------------------
// Primitivity
// ---------------------------------------------------------------------------------------------

MtPrimitivity mt_primitivity(const MtParams& prm)
{
    MtPrimitivity out;
    out.charpoly = mt_characteristic_polynomial(prm);
    const int p = mt_exponent(prm);
    if (out.charpoly.degree() != p) {
        out.reason = "the output has linear complexity " + std::to_string(out.charpoly.degree())
            + " < p, so the characteristic polynomial is reducible";
        return out;
    }
    const PrimitivityResult r = primitivity_mersenne(out.charpoly);
    out.primitive = r.primitive;
    out.reason = r.reason;
    return out;
}

// ---------------------------------------------------------------------------------------------
// Equidistribution k(v)
//
// Method: rank of the linear map from the state to the top v bits of k consecutive outputs.
// Take the state as the words x_0 (upper 32 - rr bits only), x_1, ..., x_{nn-1}; later words
// follow x_t = x_{t-nn+mm} ^ A((x_{t-nn} & umask) | (x_{t-nn+1} & lmask)), outputs are
// y_t = T(x_t) with T the tempering, and k(v) is the largest k for which the top v bits of
// y_1..y_k are linearly independent functionals of the state (B is invertible, so any window
// of k outputs gives the same rank). Each state bit is a coordinate; a "symbolic word" holds,
// for each of its 32 bits, the vector of coordinates it depends on (nn uint32 words, word i
// = coordinates of x_i), and the recurrence is run on symbolic words.
//
// Shortcut: y_1..y_{nn-1} are T applied to separate state words, and T is invertible, so their
// rows are independent for every v; they span, in each block x_i, the span R_i of the top v
// rows of T. Instead of eliminating them, every later row is reduced modulo R_i block by block
// (reduced echelon form of 32-bit rows), and only the rows of y_nn, y_{nn+1}, ... enter the
// main elimination, which then has p - (nn-1)v columns worth of rank to fill instead of p.
// Rows are added one output at a time; the first output whose rows become dependent gives
// k(v) = t - 1. k(32) = nn - 1 = floor(p/32) always.
// ---------------------------------------------------------------------------------------------

namespace {

// rows[b] bit l is set when output bit b of the tempering depends on input bit l.
std::array<std::uint32_t, 32> tempering_rows(const MtParams& prm)
{
    std::array<std::uint32_t, 32> rows{};
    for (int l = 0; l < 32; ++l) {
        const std::uint32_t y = mt_temper(prm, 1u << l);
        for (int b = 0; b < 32; ++b) {
            if ((y >> b) & 1u) rows[static_cast<std::size_t>(b)] |= 1u << l;
        }
    }
    return rows;
}

// Reduced row echelon basis of a few 32-bit rows; reduce() gives the normal form modulo
// their span (a linear map whose kernel is the span).
class SmallBasis {
public:
    void add(std::uint32_t row)
    {
        row = reduce(row);
        if (row == 0) return;
        const int pivot = 31 - __builtin_clz(row);
        for (auto& [piv, r] : rows_) {
            if ((r >> pivot) & 1u) r ^= row;
        }
        rows_.emplace_back(pivot, row);
    }
    std::uint32_t reduce(std::uint32_t x) const
    {
        for (const auto& [piv, r] : rows_) {
            if ((x >> piv) & 1u) x ^= r;
        }
        return x;
    }

private:
    std::vector<std::pair<int, std::uint32_t>> rows_;
};

// Row echelon form over vectors of nn uint32 words; a row's pivot is its lowest coordinate.
class Echelon {
public:
    Echelon(int nn, int capacity)
        : nn_(nn)
        , pivot_of_(static_cast<std::size_t>(32 * nn), -1)
    {
        rows_.reserve(static_cast<std::size_t>(capacity) * static_cast<std::size_t>(nn));
    }

    // Reduces `row` (destroyed) against the basis; adds it and returns true when it is
    // independent, returns false when it reduces to zero.
    bool insert(std::uint32_t* row)
    {
        for (int i = 0; i < nn_; ++i) {
            while (row[i] != 0) {
                const int coord = 32 * i + __builtin_ctz(row[i]);
                const int piv = pivot_of_[static_cast<std::size_t>(coord)];
                if (piv < 0) {
                    pivot_of_[static_cast<std::size_t>(coord)] = count_++;
                    rows_.insert(rows_.end(), row, row + nn_);
                    return true;
                }
                const std::uint32_t* basis = rows_.data() + static_cast<std::size_t>(piv) * nn_;
                for (int j = i; j < nn_; ++j)
                    row[j] ^= basis[j];
            }
        }
        return false;
    }

private:
    int nn_;
    int count_ = 0;
    std::vector<int> pivot_of_;
    std::vector<std::uint32_t> rows_;
};

// The symbolic words x_{t-nn+1} .. x_t in a ring of nn slots; slot t % nn holds x_t.
class SymbolicRecurrence {
public:
    explicit SymbolicRecurrence(const MtParams& prm)
        : prm_(prm)
        , nn_(prm.nn)
        , ring_(static_cast<std::size_t>(32 * nn_ * nn_), 0)
        , next_(static_cast<std::size_t>(32 * nn_))
    {
        for (int i = 0; i < nn_; ++i) {
            for (int b = 0; b < 32; ++b) {
                if (i == 0 && ((prm.umask >> b) & 1u) == 0) continue; // dead bits of x_0
                bit(i, b)[i] = 1u << b;
            }
        }
    }

    // Bit b of x_t, t in the ring: nn words.
    const std::uint32_t* word_bit(int t, int b) const
    {
        return ring_.data() + (static_cast<std::size_t>(t % nn_) * 32 + b) * nn_;
    }

    // Computes x_t (t >= nn) into the ring, replacing x_{t-nn}.
    void advance(int t)
    {
        const int old = t - nn_;
        for (int l = 0; l < 32; ++l) {
            std::uint32_t* out = next_.data() + static_cast<std::size_t>(l) * nn_;
            const std::uint32_t* mid = word_bit(old + prm_.mm, l);
            std::copy(mid, mid + nn_, out);
            if (l < 31) xor_into(out, z_bit(old, l + 1));
            if ((prm_.aaa >> l) & 1u) xor_into(out, z_bit(old, 0));
        }
        std::copy(next_.begin(), next_.end(), bit(t % nn_, 0));
    }

private:
    std::uint32_t* bit(int slot, int b)
    {
        return ring_.data() + (static_cast<std::size_t>(slot) * 32 + b) * nn_;
    }
    // Bit l of (x_old & umask) | (x_{old+1} & lmask).
    const std::uint32_t* z_bit(int old, int l) const
    {
        return ((prm_.umask >> l) & 1u) ? word_bit(old, l) : word_bit(old + 1, l);
    }
    void xor_into(std::uint32_t* out, const std::uint32_t* in) const
    {
        for (int i = 0; i < nn_; ++i)
            out[i] ^= in[i];
    }

    MtParams prm_;
    int nn_;
    std::vector<std::uint32_t> ring_; // [slot][bit][word]
    std::vector<std::uint32_t> next_; // [bit][word]
};

// The search for k(v) of one accuracy v: its block bases, its elimination, its answer.
struct Accuracy {
    int v;
    int bound; // floor(p / v)
    SmallBasis block_basis;
    Echelon echelon;
    bool done = false;
    int k = -1;
};

} // namespace

int MtEquidistribution::defect_sum() const
{
    int sum = 0;
    for (int v = 1; v <= 32; ++v)
        sum += defect(v);
    return sum;
}

MtEquidistribution mt_equidistribution(const MtParams& prm, int v_lo, int v_hi)
{
    const int p = mt_exponent(prm);
    if (prm.ww != 32) throw std::invalid_argument("mt_equidistribution: needs w = 32");
    const int nn = prm.nn;
    MtEquidistribution out;
    out.p = p;
    std::fill(std::begin(out.k), std::end(out.k), -1);
    if (p > mt_kv_gauss_max_p) {
        for (int v = std::max(1, v_lo); v <= std::min(32, v_hi); ++v)
            out.k[v] = mt_kv_lattice(prm, v);
        return out;
    }
    const auto trows = tempering_rows(prm);

    std::vector<Accuracy> acc;
    acc.reserve(33);
    int t_max = 0;
    for (int v = std::max(1, v_lo); v <= std::min(32, v_hi); ++v) {
        const int bound = p / v;
        if (bound <= nn - 1) { // y_1..y_bound are separate state words: independent
            out.k[v] = bound;
            continue;
        }
        acc.push_back({ v, bound, SmallBasis(), Echelon(nn, p - (nn - 1) * v) });
        for (int b = 31; b >= 32 - v; --b)
            acc.back().block_basis.add(trows[static_cast<std::size_t>(b)]);
        t_max = std::max(t_max, bound);
    }

    SymbolicRecurrence rec(prm);
    std::vector<std::uint32_t> out_rows(32 * static_cast<std::size_t>(nn)); // rows of y_t
    std::vector<std::uint32_t> row(static_cast<std::size_t>(nn));
    for (int t = nn; t <= t_max; ++t) {
        rec.advance(t);
        int top = 0; // how many top bits of y_t some unfinished accuracy needs
        for (const auto& a : acc) {
            if (!a.done) top = std::max(top, a.v);
        }
        if (top == 0) break;
        for (int j = 0; j < top; ++j) { // row of output bit 31 - j
            std::uint32_t* r = out_rows.data() + static_cast<std::size_t>(j) * nn;
            std::fill(r, r + nn, 0u);
            const std::uint32_t mask = trows[static_cast<std::size_t>(31 - j)];
            for (int l = 0; l < 32; ++l) {
                if (((mask >> l) & 1u) == 0) continue;
                const std::uint32_t* x = rec.word_bit(t, l);
                for (int i = 0; i < nn; ++i)
                    r[i] ^= x[i];
            }
        }
        for (auto& a : acc) {
            if (a.done) continue;
            for (int j = 0; j < a.v && !a.done; ++j) {
                const std::uint32_t* r = out_rows.data() + static_cast<std::size_t>(j) * nn;
                row[0] = r[0];
                for (int i = 1; i < nn; ++i)
                    row[static_cast<std::size_t>(i)] = a.block_basis.reduce(r[i]);
                if (!a.echelon.insert(row.data())) {
                    a.done = true;
                    a.k = t - 1;
                }
            }
            if (!a.done && t == a.bound) {
                a.done = true;
                a.k = t;
            }
        }
    }
    for (const auto& a : acc)
        out.k[a.v] = a.k;
    return out;
}

// ---------------------------------------------------------------------------------------------
// MtCharpoly: phi as a linear function of aaa (see dynamic_creator.hpp for the formula)
// ---------------------------------------------------------------------------------------------

MtCharpoly::MtCharpoly(int p)
    : p_(p)
{
    if (!is_mersenne_exponent(p) || p < 521) {
        throw std::invalid_argument(
            "MtCharpoly: p = " + std::to_string(p) + " is not a Mersenne exponent >= 521");
    }
    const MtParams layout = mt_params_for(p, 0, 0, 0);
    const int n = layout.nn;
    const int m = layout.mm;
    const int r = layout.rr;
    const Gf2Poly t_poly = Gf2Poly::monomial(n) + Gf2Poly::monomial(m);
    const Gf2Poly s_poly = Gf2Poly::monomial(n - 1) + Gf2Poly::monomial(m - 1);
    term_.resize(33);
    // Bits k >= r: T^(31-k); bits k < r: T^(32-r) S^(r-1-k); the rest: T^(32-r) S^r.
    Gf2Poly t_pow = Gf2Poly::monomial(0);
    for (int k = 31; k >= r; --k) {
        term_[static_cast<std::size_t>(k)] = t_pow;
        t_pow = multiply(t_pow, t_poly);
    }
    Gf2Poly ts = t_pow; // T^(32-r)
    for (int j = 0; j <= r; ++j) {
        term_[static_cast<std::size_t>(j < r ? r - 1 - j : 32)] = ts;
        ts = multiply(ts, s_poly);
    }
    if (r >= 32) throw std::logic_error("MtCharpoly: rr >= 32");
    if (term_[32].degree() != p) throw std::logic_error("MtCharpoly: degree is not p");
    for (std::uint32_t g : small_irreducibles(9)) {
        std::array<std::uint16_t, 33> res{};
        for (std::size_t k = 0; k < 33; ++k)
            res[k] = static_cast<std::uint16_t>(remainder_small(term_[k], g));
        residues_.push_back(res);
    }
}

Gf2Poly MtCharpoly::of(std::uint32_t aaa) const
{
    Gf2Poly out = term_[32];
    for (int k = 0; k < 32; ++k) {
        if ((aaa >> k) & 1u) out += term_[static_cast<std::size_t>(k)];
    }
    return out;
}

bool MtCharpoly::prescreen(std::uint32_t aaa) const
{
    for (const auto& res : residues_) {
        std::uint32_t x = res[32];
        for (std::uint32_t a = aaa, k = 0; a != 0; a >>= 1, ++k) {
            if (a & 1u) x ^= res[k];
        }
        if (x == 0) return false;
    }
    return true;
}

bool MtCharpoly::primitive(std::uint32_t aaa, const std::atomic<bool>* stop) const
{
    if (!prescreen(aaa)) return false;
    // A failed decimation test proves phi reducible; one that passes is confirmed below.
    if (p_ >= decimation_min_p && !passes_decimation(aaa, stop)) return false;
    // With no factor of degree 1 (prescreen) and p prime, t^(2^p) = t mod phi iff phi is
    // irreducible, hence primitive as 2^p - 1 is prime (gf2poly.hpp, primitivity_mersenne).
    const Gf2Modulus mod(of(aaa));
    const Gf2Poly power = mod.t_pow_2k(p_, stop);
    if (stop && *stop) return false;
    return power == mod.reduce(Gf2Poly::monomial(1));
}

// The decimation test (the inversive-decimation method of the MT paper, Matsumoto & Nishimura
// 1998, section 4.3). Words: x_(i+n) = x_(i+m) ^ A z_i with z_i = (x_i & umask) |
// (x_(i+1) & lmask) and A z = (z >> 1) ^ (z_0 ? aaa : 0). Since aaa's top bit is set, A is
// invertible given z_0, the lowest bit of z_i, which is the lowest bit of x_(i+1) (bit 0 lies
// in lmask): z_i = ((x_(i+n) ^ x_(i+m) ^ (z_0 ? aaa : 0)) << 1) | z_0. So from the lowest bits
// s_i of x_1 .. x_p and any words above, running that backwards from i = p - n down to 0 gives
// a state (x_0's upper bits, x_1 .. x_(n-1)) whose forward words have exactly those lowest
// bits (each step sets x_i's upper and x_(i+1)'s lower bits so that the recurrence holds at i,
// and leaves every lowest bit alone).
//
// One round: the words x_1 .. x_2p of the state, then s_i := s_(2i) (i = 1..p), then the state
// back. With g the lowest bit of x_1 and mu(c) = g(c(B) Y) for the state Y, the round maps mu
// to c -> mu(t c^2) whenever the state is determined by s_1 .. s_p; if phi is irreducible it
// is (the lowest-bit sequence of a non-zero state is not zero, and the space of states has no
// invariant subspace but 0 and itself), and p rounds map mu to c -> mu(t^(2^p - 1) c^(2^p)) =
// mu(c): the state comes back. So a state that does not come back proves phi reducible. For
// a reducible phi the start state may still come back (a small subspace of states does), so
// primitive() confirms a pass with t^(2^p) = t. About 20p scalar operations per round, 20p^2
// in all, against about p^3/512 (vectorised) for t^(2^p) mod phi: faster from p of about
// 15000 on (docs/dynamic_creator.md).
bool MtCharpoly::passes_decimation(std::uint32_t aaa, const std::atomic<bool>* stop) const
{
    const MtParams layout = mt_params_for(p_, aaa, 0, 0);
    const int n = layout.nn;
    const int m = layout.mm;
    const std::uint32_t upper = layout.umask;
    const std::uint32_t lower = layout.lmask;
    std::vector<std::uint32_t> x(2 * static_cast<std::size_t>(p_) + 1);
    std::uint32_t r = 0x9E3779B9u; // a fixed start state (xorshift32), not zero
    for (int i = 0; i < n; ++i) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        x[static_cast<std::size_t>(i)] = r;
    }
    const std::vector<std::uint32_t> start(x.begin(), x.begin() + n);
    std::uint32_t* w = x.data();
    for (int round = 0; round < p_; ++round) {
        if (stop && round % 16 == 0 && stop->load(std::memory_order_relaxed)) return false;
        for (int i = 0; i + n <= 2 * p_; ++i) { // forward: x_n .. x_2p
            const std::uint32_t z = (w[i] & upper) | (w[i + 1] & lower);
            w[i + n] = w[i + m] ^ (z >> 1) ^ ((z & 1u) ? aaa : 0u);
        }
        for (int i = 1; i <= p_; ++i) // decimation: only the lowest bits matter from here
            w[i] = w[2 * i];
        for (int i = p_ - n; i >= 0; --i) { // backward
            const std::uint32_t z0 = w[i + 1] & 1u;
            const std::uint32_t z = ((w[i + n] ^ w[i + m] ^ (z0 ? aaa : 0u)) << 1) | z0;
            w[i] = (z & upper) | (w[i] & lower);
            w[i + 1] = (w[i + 1] & upper) | (z & lower);
        }
    }
    if ((w[0] & upper) != (start[0] & upper)) return false;
    return std::equal(start.begin() + 1, start.end(), x.begin() + 1);
}

// ---------------------------------------------------------------------------------------------
// k(v) by lattice pivot reduction
//
// A row is a generator state (nn words in a ring starting at `start`, the oldest word first,
// stored twice over), its degree `count` (steps taken) and `next`, the top v bits of the
// tempered word the last step produced (without the final right shift, which maps the top v
// bits invertibly and so leaves k(v) alone). Rows 0..v-1 start as the unit vectors of the v output
// bits (zero state, next = that bit), row v as a fixed non-zero state stepped until its output is
// non-zero. Each round adds to row v the row whose index is the lowest set bit of row v's next
// (after swapping the two if that row has the smaller degree), which clears that bit; when next
// becomes zero, row v steps on. It ends when row v's state is zero. Steps on one row are
// capped at nn*31 - rr per round, as in dcmt, so that every decision matches dcmt's.
// ---------------------------------------------------------------------------------------------

namespace {

// u[i] and u[i + n] ^= w[i] for i < n, four words at a time (rows never overlap).
typedef std::uint32_t Words4x32 __attribute__((vector_size(16)));

void add_twice(std::uint32_t* __restrict u, const std::uint32_t* __restrict w, int n)
{
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        Words4x32 x;
        Words4x32 a;
        Words4x32 b;
        std::memcpy(&x, w + i, sizeof x);
        std::memcpy(&a, u + i, sizeof a);
        std::memcpy(&b, u + n + i, sizeof b);
        a ^= x;
        b ^= x;
        std::memcpy(u + i, &a, sizeof a);
        std::memcpy(u + n + i, &b, sizeof b);
    }
    for (; i < n; ++i) {
        u[i] ^= w[i];
        u[i + n] ^= w[i];
    }
}

class LatticeRows {
public:
    LatticeRows(const MtParams& prm, int v)
        : prm_(prm)
        , n_(prm.nn)
        , v_(v)
        , top_(v >= 32 ? 0xFFFFFFFFu : ~(0xFFFFFFFFu >> v))
        , cap_(prm.nn * 31 - prm.rr)
        , cf_(static_cast<std::size_t>(v + 1) * 2 * static_cast<std::size_t>(prm.nn), 0u)
        , meta_(static_cast<std::size_t>(v + 1))
        , order_(static_cast<std::size_t>(v + 1))
    {
        for (int i = 0; i <= v; ++i) {
            order_[static_cast<std::size_t>(i)] = i;
            Meta& m = meta_[static_cast<std::size_t>(i)];
            m.start = 0;
            m.count = 0;
            m.next = i < v ? (0x80000000u >> i) : 0u;
        }
        words(v)[n_ - 1] = 0xC0000000u;
        words(v)[2 * n_ - 1] = 0xC0000000u;
        int steps = 0;
        do {
            step(v, steps);
        } while (meta(v).next == 0 && steps <= cap_);
    }

    int run()
    {
        for (;;) {
            const int pivot = 31 - __builtin_ctz(meta(v_).next);
            if (meta(pivot).count < meta(v_).count) {
                std::swap(
                    order_[static_cast<std::size_t>(pivot)], order_[static_cast<std::size_t>(v_)]);
            }
            add_into(v_, pivot);
            if (meta(v_).next != 0) continue;
            int steps = 0;
            step(v_, steps);
            if (meta(v_).next != 0) continue;
            if (is_zero(v_)) break;
            while (meta(v_).next == 0) {
                ++steps;
                step(v_, steps);
                if (steps > cap_) break;
            }
            if (meta(v_).next == 0) break;
        }
        int k = meta(0).count;
        for (int i = 1; i < v_; ++i)
            k = std::min(k, meta(i).count);
        return k;
    }

private:
    struct Meta {
        int start;
        int count;
        std::uint32_t next;
    };

    Meta& meta(int row)
    {
        return meta_[static_cast<std::size_t>(order_[static_cast<std::size_t>(row)])];
    }
    std::uint32_t* words(int row)
    {
        return cf_.data()
            + static_cast<std::size_t>(order_[static_cast<std::size_t>(row)]) * 2
            * static_cast<std::size_t>(n_);
    }

    // Steps the row until its output is non-zero or `steps` passes the cap.
    void step(int row, int& steps)
    {
        Meta& m = meta(row);
        std::uint32_t* x = words(row);
        do {
            const int s = m.start;
            const int s1 = s + 1 == n_ ? 0 : s + 1;
            const int sm = s + prm_.mm >= n_ ? s + prm_.mm - n_ : s + prm_.mm;
            const std::uint32_t z = (x[s] & prm_.umask) | (x[s1] & prm_.lmask);
            std::uint32_t y = x[sm] ^ (z >> 1) ^ ((z & 1u) ? prm_.aaa : 0u);
            x[s] = y;
            x[s + n_] = y;
            m.start = s1;
            ++m.count;
            y ^= y >> prm_.shift0;
            y ^= (y << prm_.shiftB) & prm_.maskB;
            y ^= (y << prm_.shiftC) & prm_.maskC;
            m.next = y & top_;
            ++steps;
            if (steps > cap_) break;
        } while (m.next == 0);
    }

    // Row `dst` += row `src`, states aligned oldest word to oldest word.
    void add_into(int dst, int src)
    {
        Meta& d = meta(dst);
        const Meta& s = meta(src);
        std::uint32_t* u = words(dst);
        const std::uint32_t* w = words(src);
        // Logical word j of a row sits at (start + j) mod n, and again n words later (each
        // row is stored twice over, so that this is one loop of fixed length: its length no
        // longer changes from call to call, which the branch predictor notices).
        const int diff = s.start >= d.start ? s.start - d.start : s.start - d.start + n_;
        add_twice(u, w + diff, n_);
        d.next ^= s.next;
    }

    bool is_zero(int row)
    {
        const std::uint32_t* x = words(row);
        return std::all_of(x, x + n_, [](std::uint32_t w) { return w == 0; });
    }

    const MtParams& prm_;
    int n_;
    int v_;
    std::uint32_t top_;
    int cap_;
    std::vector<std::uint32_t> cf_;
    std::vector<Meta> meta_;
    std::vector<int> order_; // order_[row] = storage slot of that row
};

} // namespace

int mt_kv_lattice(const MtParams& prm, int v)
{
    if (prm.ww != 32 || v < 1 || v > 32)
        throw std::invalid_argument("mt_kv_lattice: needs w = 32 and 1 <= v <= 32");
    LatticeRows rows(prm, v);
    return rows.run();
}

// ---------------------------------------------------------------------------------------------
// Tempering search
//
// Positions: "bit v" is the v-th bit from the top (0x80000000 >> v), the convention of dcmt's
// search; shifts s = shiftB = 7 and t = shiftC = 15. At level v the candidates decide bit v of
// maskC (free while v + t < 32), bit v of maskB (free while v + s < 32, unless maskC's bit
// v - t is set: then bit v of maskB was already decided at level v - t) and bit v + t of maskB
// (free while v + t + s < 32, and only when maskC's bit v is set: the only way it reaches the
// output at level v). Candidate order, which decides ties: maskC bit set before clear; for
// each, maskB bit v + t set before clear (outer) and maskB bit v set before clear (inner).
// ---------------------------------------------------------------------------------------------

namespace {

struct MaskPair {
    std::uint32_t b, c;
};

std::uint32_t top_bit(int v)
{
    return v < 32 ? 0x80000000u >> v : 0u;
}

// The candidates of level v grown from (b, c), in dcmt's order.
int level_candidates(const MtParams& prm, std::uint32_t b, std::uint32_t c, int v, MaskPair out[8])
{
    const int s = prm.shiftB;
    const int t = prm.shiftC;
    int n = 0;
    std::uint32_t c_opts[2];
    int n_c = 0;
    if (v + t < 32) {
        c_opts[n_c++] = c | top_bit(v);
    }
    c_opts[n_c++] = c;
    for (int ci = 0; ci < n_c; ++ci) {
        const std::uint32_t cc = c_opts[ci];
        std::uint32_t bv[2];
        int n_bv;
        if (s + v >= 32) {
            bv[0] = 0;
            n_bv = 1;
        } else if (v >= t && (cc & top_bit(v - t))) {
            bv[0] = b & top_bit(v);
            n_bv = 1;
        } else {
            bv[0] = top_bit(v);
            bv[1] = 0;
            n_bv = 2;
        }
        std::uint32_t bvt[2];
        int n_bvt;
        if (v + t + s < 32 && (cc & top_bit(v))) {
            bvt[0] = top_bit(v + t);
            bvt[1] = 0;
            n_bvt = 2;
        } else {
            bvt[0] = 0;
            n_bvt = 1;
        }
        std::uint32_t keep = top_bit(v);
        if (v + t < 32) keep |= top_bit(v + t);
        keep = ~keep;
        for (int i = 0; i < n_bvt; ++i) {
            for (int j = 0; j < n_bv; ++j)
                out[n++] = { (b & keep) | bv[j] | bvt[i], cc };
        }
    }
    return n;
}

int kv_with(MtParams prm, const MaskPair& m, int v)
{
    prm.maskB = m.b;
    prm.maskC = m.c;
    return mt_kv_lattice(prm, v);
}

// dcmt's exhaustive levels (its LIMIT_V_BEST_OPT) before the greedy ones.
constexpr int dcmt_exhaustive_levels = 15;

} // namespace

namespace {

// dcmt's search (dc_tune_tempering_dcmt), which also records in kv[v] each k(v) it computed
// (-1 elsewhere). After level v the top v + 1 output bits are final (later levels change
// lower mask bits only, which reach lower output bits only), so k(v + 1) is final too; with
// bound >= 0 the search gives up, returning false, as soon as the defects of the accuracies
// decided so far reach bound (it can then no longer end below bound).
bool dcmt_search(MtParams& prm, int kv[33], int bound)
{
    const int p = mt_exponent(prm);
    std::fill(kv, kv + 33, -1);
    int decided = 0; // defect sum of the accuracies decided so far
    auto decide = [&](int v, int k) {
        kv[v] = k;
        decided += p / v - k;
        return bound < 0 || decided < bound;
    };
    std::vector<MaskPair> prev{ { 0u, 0u } };
    MaskPair best{ 0u, 0u };
    MaskPair cand[8];
    for (int v = 0; v < dcmt_exhaustive_levels; ++v) {
        int best_k = -1;
        std::vector<std::pair<MaskPair, int>> kept; // in evaluation order
        for (const MaskPair& node : prev) {
            const int n = level_candidates(prm, node.b, node.c, v, cand);
            for (int i = 0; i < n; ++i) {
                const int k = kv_with(prm, cand[i], v + 1);
                if (k >= best_k) {
                    best_k = k;
                    best = cand[i];
                    kept.emplace_back(cand[i], k);
                }
            }
        }
        if (!decide(v + 1, best_k)) return false;
        // dcmt keeps its list newest first: the next level visits them in reverse order.
        prev.clear();
        for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
            if (it->second >= best_k) prev.push_back(it->first);
        }
    }
    // Greedy levels: the first best candidate of each level, from the last best of the
    // exhaustive levels.
    MaskPair cur = best;
    for (int v = dcmt_exhaustive_levels;; ++v) {
        const int n = level_candidates(prm, cur.b, cur.c, v, cand);
        int best_i = 0;
        int best_k = 0;
        if (n > 1) {
            for (int i = 0; i < n; ++i) {
                const int k = kv_with(prm, cand[i], v + 1);
                if (k > best_k) {
                    best_k = k;
                    best_i = i;
                }
            }
            if (!decide(v + 1, best_k)) return false;
        }
        cur = cand[best_i];
        if (v >= 31) break;
    }
    prm.maskB = cur.b;
    prm.maskC = cur.c;
    return true;
}

// Completes kv[1..32] (entries < 0 are computed) and returns the defect sum.
int complete_kv(const MtParams& prm, int kv[33])
{
    const int p = mt_exponent(prm);
    int sum = 0;
    for (int v = 1; v <= 32; ++v) {
        if (kv[v] < 0) kv[v] = mt_kv_lattice(prm, v);
        sum += p / v - kv[v];
    }
    return sum;
}

} // namespace

void dc_tune_tempering_dcmt(MtParams& prm)
{
    int kv[33];
    dcmt_search(prm, kv, -1);
}

// rngvet's search: dcmt's, then single-bit flips judged on the accuracies each can change
// (maskB bit j moves output bit j and, through maskC bit j + shiftC, output bit j + shiftC;
// maskC bit j moves output bit j; output bit q belongs to the top v bits for v >= 32 - q).

namespace {

constexpr int dc_tempering_sweeps = 8;

// The flips, from prm with its k(v) in kv[1..32] (both updated), at most `sweeps` sweeps.
void flip_search(MtParams& prm, int kv[33], int sweeps)
{
    const int p = mt_exponent(prm);
    for (int sweep = 0; sweep < sweeps; ++sweep) {
        bool improved = false;
        for (int j = 31; j >= prm.shiftB; --j) {
            for (int which = 0; which < 2; ++which) {
                if (which == 1 && j < prm.shiftC) continue;
                MtParams trial = prm;
                int q = j;
                if (which == 0) {
                    trial.maskB ^= 1u << j;
                    if (j + prm.shiftC < 32 && ((prm.maskC >> (j + prm.shiftC)) & 1u))
                        q = j + prm.shiftC;
                } else {
                    trial.maskC ^= 1u << j;
                }
                // The flip can change k(v) for v >= 32 - q only. Defects are >= 0, so the
                // trial is rejected as soon as its partial sum reaches the current one.
                const int v_lo = 32 - q;
                int current = 0;
                for (int v = v_lo; v <= 32; ++v)
                    current += p / v - kv[v];
                int trial_kv[33] = {};
                int sum = 0;
                for (int v = v_lo; v <= 32 && sum < current; ++v) {
                    trial_kv[v] = mt_kv_lattice(trial, v);
                    sum += p / v - trial_kv[v];
                }
                if (sum < current) {
                    prm = trial;
                    std::copy(trial_kv + v_lo, trial_kv + 33, kv + v_lo);
                    improved = true;
                }
            }
        }
        if (!improved) break;
    }
}

} // namespace

void dc_tune_tempering(MtParams& prm)
{
    int kv[33];
    dcmt_search(prm, kv, -1);
    complete_kv(prm, kv);
    flip_search(prm, kv, dc_tempering_sweeps);
}

// ---------------------------------------------------------------------------------------------
// dc_create
// ---------------------------------------------------------------------------------------------

namespace {

int thread_count(int requested, std::size_t jobs)
{
    int n = requested > 0 ? requested : static_cast<int>(std::thread::hardware_concurrency());
    n = std::max(1, n);
    return static_cast<int>(
        std::min<std::size_t>(static_cast<std::size_t>(n), std::max<std::size_t>(jobs, 1)));
}

// Runs job(i) for i in [0, jobs) on `threads` threads; rethrows the first exception.
void parallel_for(std::size_t jobs, int threads, const std::function<void(std::size_t)>& job)
{
    std::atomic<std::size_t> next{ 0 };
    std::exception_ptr error;
    std::mutex error_mutex;
    auto worker = [&] {
        for (std::size_t i; (i = next++) < jobs;) {
            try {
                job(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
                next = jobs;
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& th : pool)
        th.join();
    if (error) std::rethrow_exception(error);
}

// rngvet mode: candidates drawn before giving up on an id. Each id has 2^15 possible aaa and
// about one in p has a primitive phi, so this many draws failing would point to a bug.
constexpr int dc_max_draws = 1 << 20;

// dcmt's limit of candidates per id (its MAX_SEARCH).
constexpr int dcmt_max_candidates = 10000;

// rngvet mode: primitive aaa tempered per id (the first ones of the id's stream); the set
// keeps the one whose tempering reaches the lowest defect sum.
constexpr int rngvet_aaa_per_id = 2;

// rngvet mode: sweeps of single-bit flips after choosing the aaa (one: a second sweep costs
// about a fifth more time at p = 521 and changed 1 of the 32 sets of the benchmark at p = 521
// and 1279, none at 607, with the same median and maximum defect sums).
constexpr int rngvet_flip_sweeps = 1;

// rngvet mode: the set for one id from its first primitive aaa (in stream order). Each gets
// dcmt's tempering search; a later one only replaces the best so far when its defect sum is
// lower (its search stops as soon as the defects it has decided reach the best sum); then
// single-bit flips lower the winner's defect sum further.
MtParams rngvet_tempering(int p, const std::vector<std::uint32_t>& aaa)
{
    MtParams best = mt_params_for(p, aaa.at(0), 0, 0);
    int best_kv[33];
    dcmt_search(best, best_kv, -1);
    int best_sum = complete_kv(best, best_kv);
    for (std::size_t i = 1; i < aaa.size(); ++i) {
        MtParams trial = mt_params_for(p, aaa[i], 0, 0);
        int kv[33];
        if (!dcmt_search(trial, kv, best_sum)) continue;
        const int sum = complete_kv(trial, kv);
        if (sum < best_sum) {
            best = trial;
            std::copy(kv, kv + 33, best_kv);
            best_sum = sum;
        }
    }
    flip_search(best, best_kv, rngvet_flip_sweeps);
    return best;
}

// The parallel search of dc_create.
//
// Both modes look, in a stream of candidate aaa, for the first primitive ones in stream
// order: dcmt mode has one stream (one MT19937 for all ids in turn: an id's candidates start
// right after the draws of the previous id's winner), rngvet mode one stream per id. Such a
// stream is a lane. A candidate passes the prescreen when it is drawn (cheap, under the
// lock); the exact test runs outside the lock, on any thread, and threads take the next
// untested candidate of a lane in stream order even before the earlier ones have finished
// (speculation: almost every candidate is reducible). When a candidate proves primitive and
// completes its id (its `want`-th primitive), every later candidate of the lane is dropped
// (tests under way are cancelled) and the lane goes on with the next id from the stream right
// after that candidate, as dcmt does; an earlier candidate that proves primitive later moves
// the cut back. An id is settled when all its candidates up to the cut are tested, from the
// front of the lane; its tempering is then a job of its own, which threads take before
// candidates. The result is the first primitive ones in stream order whatever the threads
// did, so it does not depend on the thread count.
class DcSearch {
public:
    DcSearch(
        const MtCharpoly& phi, const DcCreateOptions& o, int threads, std::function<void()> tick)
        : phi_(phi)
        , o_(o)
        , threads_(threads)
        , dcmt_(o.creator == DcCreator::dcmt_061)
        , want_(dcmt_ ? 1 : rngvet_aaa_per_id)
        , nn_(mt_params_for(o.p, 0, 0, 0).nn)
        , draw_limit_(o.max_draws > 0 ? o.max_draws
                  : dcmt_             ? dcmt_max_candidates
                                      : dc_max_draws)
        , tick_(std::move(tick))
        , aaa_(static_cast<std::size_t>(o.count))
        , sets_(static_cast<std::size_t>(o.count))
    {
        if (dcmt_) {
            lanes_.resize(1);
            Lane& lane = lanes_[0];
            lane.rng = std::make_unique<MtState>();
            mt_seed(*lane.rng, mt19937_, o.seed); // init_dc(seed): init_genrand
            lane.first_id = 0;
            lane.last_id = o.count - 1;
            lane.gen_id = lane.conf_id = 0;
            lane.started = true;
        } else {
            lanes_.resize(static_cast<std::size_t>(o.count));
            for (int i = 0; i < o.count; ++i) {
                Lane& lane = lanes_[static_cast<std::size_t>(i)];
                lane.first_id = lane.last_id = lane.gen_id = lane.conf_id = i;
            }
        }
    }

    std::vector<MtParams> run()
    {
        std::vector<std::thread> pool;
        for (int t = 1; t < threads_; ++t)
            pool.emplace_back([this] { work(); });
        work();
        for (auto& th : pool)
            th.join();
        if (error_) std::rethrow_exception(error_);
        return std::move(sets_);
    }

private:
    struct Candidate {
        std::uint32_t aaa = 0;
        int id = 0; // index of the id (0 .. count - 1)
        std::unique_ptr<MtState> after; // dcmt mode: the stream right after its draws
        enum class State { untested, testing, reducible, primitive } state = State::untested;
        std::atomic<bool> dropped{ false };
    };

    struct Lane {
        std::deque<std::shared_ptr<Candidate>> cands; // not yet settled, in stream order
        std::size_t handed = 0; // cands[0 .. handed) are tested or under test
        int in_flight = 0;
        bool started = false;
        std::unique_ptr<MtState> rng; // the stream after the last candidate drawn
        int first_id = 0;
        int last_id = 0;
        int gen_id = 0; // the id the next draw is for
        int draws = 0; // draws for gen_id so far
        bool exhausted = false; // gen_id reached the draw limit
        bool gen_done = false; // every id of the lane has its cut
        int conf_id = 0; // the id being settled at the front
        std::vector<std::uint32_t> conf_aaa; // its primitive aaa settled so far
    };

    void start(Lane& lane, int id)
    {
        lane.rng = std::make_unique<MtState>();
        const std::uint32_t key[2] = { o_.seed, static_cast<std::uint32_t>(o_.start_id + id) };
        mt19937_init_by_array(*lane.rng, mt19937_, key, 2);
        lane.started = true;
    }

    // Draws the lane's next candidate that passes the prescreen; false when the lane has no
    // more (all its ids cut, or the current one out of draws).
    bool draw(Lane& lane)
    {
        if (!lane.started) start(lane, lane.first_id);
        if (lane.gen_done || lane.exhausted) return false;
        const auto id = static_cast<std::uint32_t>(o_.start_id + lane.gen_id);
        while (lane.draws < draw_limit_) {
            const std::uint32_t r = mt_next(*lane.rng, mt19937_);
            ++lane.draws;
            const std::uint32_t aaa = dcmt_ ? (r & 0xFFFF0000u) | 0x80000000u | id
                                            : 0x80000000u | (r & 0x7FFF0000u) | (id & 0xFFFFu);
            if (!phi_.prescreen(aaa)) continue;
            auto c = std::make_shared<Candidate>();
            c->aaa = aaa;
            c->id = lane.gen_id;
            if (dcmt_) {
                for (int d = 0; d < nn_; ++d) // dcmt's period check draws its start state
                    mt_next(*lane.rng, mt19937_);
                c->after = std::make_unique<MtState>(*lane.rng);
            }
            lane.cands.push_back(std::move(c));
            return true;
        }
        lane.exhausted = true;
        check_exhausted(lane);
        return false;
    }

    bool has_work(Lane& lane) { return lane.handed < lane.cands.size() || draw(lane); }

    // The lane a thread tests its next candidate from: its previous lane while no other
    // thread works on it, else a lane not started yet, else the started one with the fewest
    // tests under way. Null when no lane has a candidate to test.
    Lane* pick(int& last)
    {
        if (dcmt_) return has_work(lanes_[0]) ? &lanes_[0] : nullptr;
        if (last >= 0) {
            Lane& lane = lanes_[static_cast<std::size_t>(last)];
            if (lane.in_flight == 0 && has_work(lane)) return &lane;
        }
        while (next_lane_ < lanes_.size()) {
            Lane& lane = lanes_[next_lane_];
            active_.push_back(next_lane_++);
            if (has_work(lane)) {
                last = static_cast<int>(active_.back());
                return &lane;
            }
        }
        Lane* best = nullptr;
        for (std::size_t i = 0; i < active_.size();) {
            Lane& lane = lanes_[active_[i]];
            if (!has_work(lane)) { // a lane never regains work in rngvet mode
                active_[i] = active_.back();
                active_.pop_back();
                continue;
            }
            if (!best || lane.in_flight < best->in_flight) {
                best = &lane;
                last = static_cast<int>(active_[i]);
            }
            ++i;
        }
        return best;
    }

    // A test result: cut the lane after the candidate that completes an id, then settle what
    // the front of the lane allows.
    void record(Lane& lane, const Candidate& c)
    {
        if (c.state == Candidate::State::primitive) {
            int found = c.id == lane.conf_id ? static_cast<int>(lane.conf_aaa.size()) : 0;
            for (std::size_t i = 0; i < lane.cands.size(); ++i) {
                const Candidate& x = *lane.cands[i];
                if (x.id != c.id || x.state != Candidate::State::primitive) continue;
                if (++found < want_) continue;
                cut_after(lane, i);
                break;
            }
        }
        settle(lane);
    }

    void cut_after(Lane& lane, std::size_t i)
    {
        const Candidate& c = *lane.cands[i];
        for (std::size_t j = i + 1; j < lane.cands.size(); ++j)
            lane.cands[j]->dropped = true;
        lane.cands.resize(i + 1);
        lane.handed = std::min(lane.handed, lane.cands.size());
        lane.exhausted = false;
        lane.draws = 0;
        if (c.id >= lane.last_id) {
            lane.gen_done = true;
            lane.gen_id = c.id;
            // No more draws: free the state (several KB; rngvet mode has a lane per id).
            lane.rng.reset();
        } else {
            lane.gen_done = false;
            lane.gen_id = c.id + 1;
            // Only dcmt mode has lanes with several ids, and its candidates keep `after`.
            lane.rng = std::make_unique<MtState>(*c.after);
        }
    }

    void settle(Lane& lane)
    {
        while (!lane.cands.empty()) {
            const Candidate& c = *lane.cands.front();
            if (c.state == Candidate::State::untested || c.state == Candidate::State::testing)
                break;
            if (c.state == Candidate::State::primitive) {
                lane.conf_aaa.push_back(c.aaa);
                if (static_cast<int>(lane.conf_aaa.size()) == want_) {
                    aaa_[static_cast<std::size_t>(c.id)] = std::move(lane.conf_aaa);
                    lane.conf_aaa.clear();
                    tempering_.push_back(c.id);
                    ++lane.conf_id;
                    if (dcmt_ && tick_) tick_();
                }
            }
            lane.cands.pop_front();
            --lane.handed;
        }
        check_exhausted(lane);
    }

    // Throws when the id at the front of the lane can no longer be completed: all its
    // candidates are settled and its stream reached the draw limit. Called wherever either
    // can become true last (after settling, and when a draw reaches the limit), so that no
    // thread waits for work that will never come.
    void check_exhausted(const Lane& lane) const
    {
        if (!(lane.cands.empty() && lane.exhausted && lane.gen_id == lane.conf_id)) return;
        const int id = o_.start_id + lane.conf_id;
        throw std::runtime_error(dcmt_
                ? "dc_create: dcmt gives up on id " + std::to_string(id) + " after "
                    + std::to_string(draw_limit_) + " candidates (dcmt returns the sets before it)"
                : "dc_create: no primitive aaa found for id " + std::to_string(id) + " in "
                    + std::to_string(draw_limit_) + " draws");
    }

    void work()
    {
        int last = -1;
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            if (error_ || tempered_ == o_.count) break;
            if (!tempering_.empty()) {
                const int id = tempering_.front();
                tempering_.pop_front();
                lock.unlock();
                try {
                    temper(id);
                } catch (...) {
                    lock.lock();
                    fail(std::current_exception());
                    break;
                }
                lock.lock();
                ++tempered_;
                changed_.notify_all();
                continue;
            }
            Lane* lane = nullptr;
            try {
                lane = pick(last);
            } catch (...) {
                fail(std::current_exception());
                break;
            }
            if (!lane) {
                changed_.wait(lock);
                continue;
            }
            std::shared_ptr<Candidate> c = lane->cands[lane->handed++];
            c->state = Candidate::State::testing;
            ++lane->in_flight;
            lock.unlock();
            bool primitive = false;
            try {
                primitive = phi_.primitive(c->aaa, &c->dropped);
            } catch (...) {
                lock.lock();
                --lane->in_flight;
                fail(std::current_exception());
                break;
            }
            lock.lock();
            --lane->in_flight;
            if (!c->dropped) {
                c->state = primitive ? Candidate::State::primitive : Candidate::State::reducible;
                try {
                    record(*lane, *c);
                } catch (...) {
                    fail(std::current_exception());
                    break;
                }
            }
            changed_.notify_all();
        }
        changed_.notify_all();
    }

    void temper(int id)
    {
        const std::vector<std::uint32_t>& aaa = aaa_[static_cast<std::size_t>(id)];
        MtParams prm;
        if (dcmt_) {
            prm = mt_params_for(o_.p, aaa.at(0), 0, 0);
            dc_tune_tempering_dcmt(prm);
        } else {
            prm = rngvet_tempering(o_.p, aaa);
        }
        sets_[static_cast<std::size_t>(id)] = prm;
        if (tick_) tick_();
    }

    void fail(std::exception_ptr e)
    {
        if (!error_) error_ = std::move(e);
        changed_.notify_all();
    }

    const MtCharpoly& phi_;
    const DcCreateOptions& o_;
    int threads_;
    bool dcmt_;
    int want_;
    int nn_;
    int draw_limit_; // draws per id before giving up
    std::function<void()> tick_;
    const MtParams mt19937_ = mt19937_params();
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Lane> lanes_;
    std::size_t next_lane_ = 0; // rngvet mode: lanes started so far
    std::vector<std::size_t> active_; // rngvet mode: started lanes that may have work
    std::deque<int> tempering_; // settled ids waiting for their tempering
    int tempered_ = 0;
    std::vector<std::vector<std::uint32_t>> aaa_; // per id, once settled
    std::vector<MtParams> sets_;
    std::exception_ptr error_;
};

} // namespace

const char* dc_creator_name(DcCreator c)
{
    return c == DcCreator::dcmt_061 ? "dcmt-0.6.1" : "rngvet";
}

MtParamSet dc_create(const DcCreateOptions& o)
{
    if (!is_mersenne_exponent(o.p) || o.p < 521) {
        throw std::invalid_argument("dc_create: p must be a Mersenne exponent in 521..44497");
    }
    if (o.count < 1 || o.start_id < 0 || o.start_id + o.count - 1 > 65535)
        throw std::invalid_argument("dc_create: ids must lie in 0..65535 and count be >= 1");
    const MtCharpoly phi(o.p);
    MtParamSet out;
    out.source = "dc-create";
    out.p = o.p;
    out.creator = dc_creator_name(o.creator);
    out.dc_seed = std::to_string(o.seed);
    const auto count = static_cast<std::size_t>(o.count);
    std::atomic<int> done{ 0 };
    std::mutex progress_mutex;
    const int total = o.creator == DcCreator::dcmt_061 ? 2 * o.count : o.count;
    auto tick = [&] {
        const int n = ++done;
        if (o.progress) {
            std::lock_guard<std::mutex> lock(progress_mutex);
            o.progress(n, total);
        }
    };
    // Threads beyond the number of ids still help: they test further candidates of the
    // streams.
    DcSearch search(phi, o, thread_count(o.threads, std::numeric_limits<std::size_t>::max()), tick);
    out.sets = search.run();
    out.ids.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        out.ids[i] = static_cast<std::uint32_t>(o.start_id) + static_cast<std::uint32_t>(i);
    return out;
}

MtParamSet dc_create(int p, int count, std::uint32_t seed, int threads, const DcProgress& progress)
{
    DcCreateOptions o;
    o.p = p;
    o.count = count;
    o.seed = seed;
    o.threads = threads;
    o.progress = progress;
    return dc_create(o);
}

// ---------------------------------------------------------------------------------------------
// dc_verify
// ---------------------------------------------------------------------------------------------

const DcmtReference* dcmt_reference(int p)
{
    static const DcmtReference refs[] = {
        { 521, 32, "seed 4172, ids 0..31", 105, 108.5, 126 },
        { 607, 32, "seed 4172, ids 0..31", 205, 224.5, 283 },
        { 1279, 32, "seed 4172, ids 0..31", 419, 498.0, 616 },
        { 2203, 32, "seed 4172, ids 0..31", 700, 780.5, 1044 },
    };
    for (const auto& r : refs) {
        if (r.p == p) return &r;
    }
    return nullptr;
}

namespace {

bool same_layout(const MtParams& a, const MtParams& b)
{
    return a.aaa == b.aaa && a.mm == b.mm && a.nn == b.nn && a.rr == b.rr && a.ww == b.ww
        && a.wmask == b.wmask && a.umask == b.umask && a.lmask == b.lmask && a.shift0 == b.shift0
        && a.shift1 == b.shift1 && a.shiftB == b.shiftB && a.shiftC == b.shiftC
        && a.maskB == b.maskB && a.maskC == b.maskC;
}

// Index pairs (i, j), i < j, of equal keys.
template <class Key>
std::vector<std::pair<std::size_t, std::size_t>> equal_pairs(
    std::vector<std::pair<Key, std::size_t>> keyed)
{
    std::sort(keyed.begin(), keyed.end());
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t i = 1; i < keyed.size(); ++i) {
        if (!(keyed[i - 1].first < keyed[i].first)) {
            out.emplace_back(keyed[i - 1].second, keyed[i].second);
        }
    }
    return out;
}

std::string set_name(const DcSetReport& s)
{
    return "set " + std::to_string(s.index) + " (id " + std::to_string(s.id) + ")";
}

} // namespace

std::vector<std::string> DcVerifyReport::failures() const
{
    std::vector<std::string> out;
    for (const auto& s : sets) {
        if (!s.layout_ok)
            out.push_back(set_name(s) + ": layout: parameters are not DC's layout for p");
        if (!s.primitive) out.push_back(set_name(s) + ": primitive: " + s.reason);
        if (max_defect_sum >= 0 && s.kv_computed && s.kv.defect_sum() > max_defect_sum) {
            out.push_back(set_name(s) + ": equidistribution: defect sum "
                + std::to_string(s.kv.defect_sum()) + " > " + std::to_string(max_defect_sum));
        }
    }
    for (const auto& [a, b] : duplicate_ids) {
        out.push_back(set_name(sets[a]) + ": ids distinct: same id as " + set_name(sets[b]));
    }
    for (const auto& [a, b] : equal_charpolys) {
        out.push_back(set_name(sets[a]) + ": distinct characteristic polynomials: same as "
            + set_name(sets[b]));
    }
    return out;
}

DcVerifyReport dc_verify(const MtParamSet& set, const DcVerifyOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    DcVerifyReport rep;
    rep.source = set.source;
    rep.sha256 = set.sha256;
    rep.creator = set.creator;
    rep.dc_seed = set.dc_seed;
    rep.p = set.p;
    rep.max_defect_sum = options.max_defect_sum;
    rep.kv_computed = options.equidistribution;
    rep.sets.resize(set.sets.size());
    const std::size_t n = set.sets.size();
    parallel_for(n, thread_count(options.threads, n), [&](std::size_t i) {
        const MtParams& prm = set.sets[i];
        DcSetReport& s = rep.sets[i];
        s.index = i;
        s.id = i < set.ids.size() ? set.ids[i] : static_cast<std::uint32_t>(i);
        s.layout_ok = same_layout(prm, mt_params_for(set.p, prm.aaa, prm.maskB, prm.maskC));
        if (!s.layout_ok) { // the analysis below assumes DC's layout
            s.reason = "not checked (layout)";
            return;
        }
        const MtPrimitivity prim = mt_primitivity(prm);
        s.primitive = prim.primitive;
        s.reason = prim.reason;
        s.charpoly = prim.charpoly;
        if (rep.kv_computed) {
            s.kv = mt_equidistribution(prm);
            s.kv_computed = true;
        }
    });

    std::vector<std::pair<std::uint32_t, std::size_t>> by_id;
    std::vector<std::pair<Gf2Poly, std::size_t>> by_poly;
    for (const auto& s : rep.sets) {
        by_id.emplace_back(s.id, s.index);
        if (s.primitive) by_poly.emplace_back(s.charpoly, s.index);
    }
    rep.duplicate_ids = equal_pairs(std::move(by_id));
    rep.equal_charpolys = equal_pairs(std::move(by_poly));
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return rep;
}

} // namespace rngvet
