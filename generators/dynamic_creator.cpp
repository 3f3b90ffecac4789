#include "dynamic_creator.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace rngvet {

// ---------------------------------------------------------------------------------------------
// Characteristic polynomial and primitivity
//
// Why Berlekamp-Massey gives phi. Any fixed output bit, from a fixed start state, is a sequence
// s_n = f(B^n x) for a linear functional f. Its minimal polynomial g divides the minimal
// polynomial of B, which divides phi (degree p). If phi is irreducible, g is 1 or phi; g = 1
// would mean f vanishes on the B-cyclic subspace of x, which is the whole space (phi
// irreducible), so f = 0 -- but a tempered output bit is a non-zero functional (the tempering
// is invertible). Hence g = phi, and 2p bits determine it exactly (Massey 1969). Conversely, if
// BM returns a degree-p polynomial that passes the irreducibility test, it is phi (it divides
// phi and has the same degree); if it returns a lower degree, phi is reducible.
// ---------------------------------------------------------------------------------------------

Gf2Poly mt_characteristic_polynomial(const MtParams& prm)
{
    static thread_local MtState s;
    mt_seed(s, prm, 4357u);
    const int p = mt_exponent(prm);
    std::vector<std::uint8_t> bits(2 * static_cast<std::size_t>(p));
    for (auto& b : bits)
        b = static_cast<std::uint8_t>(mt_next(s, prm) & 1u);
    return berlekamp_massey(bits);
}

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
    if (prm.ww != 32 || p > mt_kv_max_p) {
        throw std::invalid_argument(
            "mt_equidistribution: needs w = 32 and p <= " + std::to_string(mt_kv_max_p));
    }
    const int nn = prm.nn;
    MtEquidistribution out;
    out.p = p;
    std::fill(std::begin(out.k), std::end(out.k), -1);
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
// Tempering search
//
// rngvet's own procedure, in DC's spirit (masks chosen bit by bit for k(v)); it does not
// reproduce dcmt's sets. Start with every effective mask bit set (maskB bits >= shiftB, maskC
// bits >= shiftC; lower bits cannot reach the output). Pass 1: for v = 1..32, i.e. output bit
// j = 32 - v from the top, try the settings of maskB bit j and maskC bit j and keep the one
// with the smallest sum of defects d(u) over the accuracies u it can change, u = v - shiftC..v
// (maskB bit j also feeds output bit j + shiftC through maskC); ties keep the current setting.
// Pass 2: flip single mask bits while that lowers the total defect sum. Measured on p = 521:
// defect sums 108..117 for four sets, against 105..121 for the 32 published Fixstars sets.
// ---------------------------------------------------------------------------------------------

namespace {

constexpr int dc_tempering_sweeps = 8;

int defect_sum_over(const MtParams& prm, int u_lo, int u_hi)
{
    const MtEquidistribution eq = mt_equidistribution(prm, u_lo, u_hi);
    int sum = 0;
    for (int u = u_lo; u <= u_hi; ++u)
        sum += eq.defect(u);
    return sum;
}

} // namespace

void dc_tune_tempering(MtParams& prm)
{
    prm.maskB = prm.wmask & ~((1u << prm.shiftB) - 1u);
    prm.maskC = prm.wmask & ~((1u << prm.shiftC) - 1u);
    // Pass 1: top bit first, each decision judged on the accuracies it can change.
    for (int v = 1; v <= 32; ++v) {
        const int j = 32 - v;
        const int u_lo = std::max(1, v - prm.shiftC);
        const bool b_free = j >= prm.shiftB;
        const bool c_free = j >= prm.shiftC;
        if (!b_free && !c_free) continue;
        int best = defect_sum_over(prm, u_lo, v);
        MtParams best_prm = prm;
        for (int choice = 1; choice < 4; ++choice) {
            const bool flip_b = (choice & 1) != 0;
            const bool flip_c = (choice & 2) != 0;
            if ((flip_b && !b_free) || (flip_c && !c_free)) continue;
            MtParams trial = prm;
            if (flip_b) trial.maskB ^= 1u << j;
            if (flip_c) trial.maskC ^= 1u << j;
            const int d = defect_sum_over(trial, u_lo, v);
            if (d < best) {
                best = d;
                best_prm = trial;
            }
        }
        prm = best_prm;
    }
    // Pass 2: single-bit flips of either mask, top bit first, kept while they lower the total
    // defect sum over v = 1..32; sweeps repeat until one changes nothing (at most 8).
    int best = defect_sum_over(prm, 1, 32);
    for (int sweep = 0; sweep < dc_tempering_sweeps; ++sweep) {
        bool improved = false;
        for (int j = 31; j >= prm.shiftB; --j) {
            for (int which = 0; which < 2; ++which) {
                if (which == 1 && j < prm.shiftC) continue;
                MtParams trial = prm;
                (which == 0 ? trial.maskB : trial.maskC) ^= 1u << j;
                const int d = defect_sum_over(trial, 1, 32);
                if (d < best) {
                    best = d;
                    prm = trial;
                    improved = true;
                }
            }
        }
        if (!improved) break;
    }
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

// Candidates drawn before giving up on an id: each id has 2^15 possible aaa and about one
// in p has a primitive phi, so this many draws failing would point to a bug.
constexpr int dc_max_draws = 1 << 20;

MtParams dc_find_primitive(int p, std::uint32_t id, std::uint32_t seed)
{
    static thread_local MtState rng;
    const MtParams mt19937 = mt19937_params();
    const std::uint32_t key[2] = { seed, id };
    mt19937_init_by_array(rng, mt19937, key, 2);
    for (int draw = 0; draw < dc_max_draws; ++draw) {
        const std::uint32_t r = mt_next(rng, mt19937);
        const std::uint32_t aaa = 0x80000000u | (r & 0x7FFF0000u) | (id & 0xFFFFu);
        const MtParams prm = mt_params_for(p, aaa, 0, 0);
        if (mt_primitivity(prm).primitive) return prm;
    }
    throw std::runtime_error("dc_create: no primitive aaa found for id " + std::to_string(id));
}

} // namespace

MtParamSet dc_create(int p, int count, std::uint32_t seed, int threads, const DcProgress& progress)
{
    if (!is_mersenne_exponent(p) || p < 521 || p > mt_kv_max_p) {
        throw std::invalid_argument(
            "dc_create: p must be a Mersenne exponent in 521.." + std::to_string(mt_kv_max_p));
    }
    if (count < 1 || count > 65536)
        throw std::invalid_argument("dc_create: count must be 1..65536");
    MtParamSet out;
    out.source = "dc-create";
    out.p = p;
    out.sets.resize(static_cast<std::size_t>(count));
    out.ids.resize(static_cast<std::size_t>(count));
    std::atomic<int> done{ 0 };
    std::mutex progress_mutex;
    parallel_for(static_cast<std::size_t>(count),
        thread_count(threads, static_cast<std::size_t>(count)), [&](std::size_t i) {
            const auto id = static_cast<std::uint32_t>(i);
            MtParams prm = dc_find_primitive(p, id, seed);
            dc_tune_tempering(prm);
            out.sets[i] = prm;
            out.ids[i] = id;
            const int n = ++done;
            if (progress) {
                std::lock_guard<std::mutex> lock(progress_mutex);
                progress(n, count);
            }
        });
    return out;
}

// ---------------------------------------------------------------------------------------------
// dc_verify
// ---------------------------------------------------------------------------------------------

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
    rep.p = set.p;
    rep.max_defect_sum = options.max_defect_sum;
    rep.kv_computed = options.equidistribution && set.p <= mt_kv_max_p;
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
