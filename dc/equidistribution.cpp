#include "dc/equidistribution.hpp"

#include "generators/mt.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace rngvet {

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

} // namespace rngvet
