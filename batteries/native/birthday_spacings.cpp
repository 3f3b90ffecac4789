// smarsa_BirthdaySpacings, native (birthday_spacings.hpp).
//
// What TestU01 1.2.3 does (smarsa.c, smarsa_BirthdaySpacings; the USE_LONGLONG branches, which
// Debian's build takes: cells are 64-bit unsigned and their arithmetic is modulo 2^64):
//   k = d^t as a double, kc = d^t modulo 2^64 (kc starts as (unsigned long long) (double) d);
//   Lambda = (double) n * n / k * (n / 4.0); the test is declined when d <= 1, k > smarsa_Maxk
//   or 8.0 * N * Lambda > sqrt (sqrt (k)).
//   Each of the N replications draws n cells (smultin.c, smultin_GenerCellSerial:
//   c = c * d + StripL (r, d), t times; smultin_GenerCellSerial2 with Order 2:
//   c += d^(j-1) * StripL (r, d)), where unif01.c's unif01_StripL is
//   (long) (d * (2^r U - (long) 2^r U)) (d * U when r = 0). It sorts them, takes the spacings
//   D[i+1] - D[i] (gofs.c, gofs_DiffULL) and the wrap-around one kc - D[n] + D[1], sorts those
//   and counts Y, the adjacent equal spacings; statcoll_AddObs (sVal1, Y), Sum += Y (a long).
//   Then Mass = fmass_CreatePoisson (N * Lambda), pLeft = fdist_Poisson2 (Mass, Sum),
//   pRight = fbar_Poisson2 (Mass, Sum), pVal2 = gofw_pDisc (pLeft, pRight).
//
// Here the cells are built from words read in blocks (converted in parallel, operation for
// operation as StripL) and sorted with a parallel radix sort (one most-significant-digit scatter
// over all threads, then each bucket sorted by least-significant-digit passes while it is in
// cache). Spacings of few varying bits are counted in a table of the values seen; wider ones are
// scattered by a hash (equal spacings in one bucket, buckets of even size) and sorted there.
// Y is an integer count, so any exact sort gives TestU01's Y. The floating-point stages are
// TestU01's own functions, called with the same arguments in the same order.
//
// Memory: two arrays of n cells per replication in flight, as TestU01's Dates and DatDiff.
// Replications run in parallel (each sorted by one thread) only when n is small; otherwise
// each replication's sort runs on all threads.
#include "birthday_spacings.hpp"

#include "device.hpp"
#include "families.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <omp.h>
#include <stdexcept>
#include <utility>

extern "C" {
#include <testu01/fbar.h>
#include <testu01/fdist.h>
#include <testu01/fmass.h>
#include <testu01/gofw.h>
#include <testu01/smarsa.h>
}

namespace rngvet::native {

namespace {

using Cell = std::uint64_t;

// ---------------------------------------------------------------------------------------------
// Cells.

// Builds one cell from t consecutive words, as smultin_GenerCellSerial / GenerCellSerial2 do
// from t calls of unif01_StripL.
class CellBuilder {
public:
    CellBuilder(const Numbers& in, const BirthdaySpacingsParams& p)
        : in_(in)
        , r_(p.r)
        , t_(p.t)
        , order2_(p.order == 2)
        , d_(p.d)
        , dd_(static_cast<double>(p.d))
        , dr_(static_cast<Cell>(p.d))
        , two_r_(Numbers::two_exp(p.r))
    {
    }

    // unif01_StripL (gen, r, d) of word w.
    long strip_l(std::uint64_t w) const
    {
        const double u = in_.u01(w);
        if (r_ == 0) return static_cast<long>(dd_ * u);
        const double v = two_r_ * u;
        return static_cast<long>(dd_ * (v - static_cast<double>(static_cast<long>(v))));
    }

    Cell operator()(const std::uint64_t* w) const
    {
        Cell c = static_cast<Cell>(strip_l(w[0]));
        if (order2_) {
            Cell dr = dr_;
            for (int j = 1; j < t_; ++j) {
                c += dr * static_cast<Cell>(strip_l(w[j]));
                dr *= static_cast<Cell>(d_);
            }
        } else {
            for (int j = 1; j < t_; ++j)
                c = c * dr_ + static_cast<Cell>(strip_l(w[j]));
        }
        return c;
    }

    int t() const { return t_; }

private:
    const Numbers& in_;
    int r_;
    int t_;
    bool order2_;
    long d_;
    double dd_;
    Cell dr_;
    double two_r_;
};

// Fills cells[0, count) with the next count cells of the stream and returns their bitwise OR.
// The words are read in stream order, a chunk at a time, by the calling thread while the others
// convert the previous chunk.
Cell generate_cells(
    Numbers& in, const CellBuilder& build, Cell* cells, std::size_t count, int threads)
{
    const std::size_t t = static_cast<std::size_t>(build.t());
    const std::size_t chunk = std::max<std::size_t>(1, (std::size_t(1) << 20) / t);
    const std::size_t chunks = (count + chunk - 1) / chunk;
    auto cells_in = [&](std::size_t k) { return std::min(chunk, count - k * chunk); };
    Cell all = 0;

    if (threads <= 1 || count < 2 * chunk) {
        std::vector<std::uint64_t> words(chunk * t);
        for (std::size_t k = 0; k < chunks; ++k) {
            const std::size_t m = cells_in(k);
            in.read(words.data(), m * t);
            Cell* out = cells + k * chunk;
            for (std::size_t j = 0; j < m; ++j) {
                out[j] = build(words.data() + j * t);
                all |= out[j];
            }
        }
        return all;
    }

    std::vector<std::uint64_t> buffer[2]
        = { std::vector<std::uint64_t>(chunk * t), std::vector<std::uint64_t>(chunk * t) };
    in.read(buffer[0].data(), cells_in(0) * t);
    // The calling thread (the team's master) reads, so that a source sees one thread; what it
    // throws is thrown again after the parallel region.
    std::exception_ptr error;
#pragma omp parallel num_threads(threads) reduction(| : all)
    {
        for (std::size_t k = 0; k < chunks; ++k) {
#pragma omp master
            {
                if (k + 1 < chunks && !error) {
                    try {
                        in.read(buffer[(k + 1) & 1].data(), cells_in(k + 1) * t);
                    } catch (...) {
                        error = std::current_exception();
                    }
                }
            }
            const std::uint64_t* words = buffer[k & 1].data();
            Cell* out = cells + k * chunk;
            const long m = static_cast<long>(cells_in(k));
#pragma omp for schedule(dynamic, 2048) nowait
            for (long j = 0; j < m; ++j) {
                const Cell c = build(words + static_cast<std::size_t>(j) * t);
                out[j] = c;
                all |= c;
            }
#pragma omp barrier
        }
    }
    if (error) std::rethrow_exception(error);
    return all;
}

// ---------------------------------------------------------------------------------------------
// Sorting: 64-bit keys whose bits outside [lo, hi) are zero in every key.

constexpr int digit_bits = 11; // widest digit: 2048 buckets
constexpr std::size_t small_sort = 64; // ranges sorted by insertion at most this long

void bit_range(Cell all, int& lo, int& hi)
{
    if (all == 0) {
        lo = hi = 0;
        return;
    }
    lo = __builtin_ctzll(all);
    hi = 64 - __builtin_clzll(all);
}

void insertion_sort(Cell* a, std::size_t len)
{
    for (std::size_t i = 1; i < len; ++i) {
        const Cell x = a[i];
        std::size_t j = i;
        for (; j > 0 && a[j - 1] > x; --j)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

// Sorts src[0, len), whose keys agree outside bits [lo, hi), into dst[0, len); src is scratch.
// Least significant digit first, in passes of at most digit_bits bits (a pass whose digit is the
// same in every key is skipped). Where the keys are wide, only their top bits, about 6 more than
// log2(len), are sorted by digits; keys that agree there (few, unless the keys are far from
// uniform) are then sorted by comparison within their run.
void lsd_sort(Cell* src, Cell* dst, std::size_t len, int lo, int hi)
{
    if (len <= small_sort || hi <= lo) {
        std::memcpy(dst, src, len * sizeof *src);
        if (hi > lo) insertion_sort(dst, len);
        return;
    }
    const int log2_len = 64 - __builtin_clzll(len);
    int cut = std::max(lo, hi - (log2_len + 6));
    if ((hi - cut + digit_bits - 1) / digit_bits == (hi - lo + digit_bits - 1) / digit_bits)
        cut = lo; // as many passes for the whole key
    const int bits = hi - cut;
    const int passes = (bits + digit_bits - 1) / digit_bits;
    const int width = (bits + passes - 1) / passes;
    std::size_t count[std::size_t(1) << digit_bits];
    Cell* a = src;
    Cell* b = dst;
    for (int pass = 0; pass < passes; ++pass) {
        const int shift = cut + pass * width;
        const int w = std::min(width, hi - shift);
        const std::size_t buckets = std::size_t(1) << w;
        const Cell mask = buckets - 1;
        std::fill(count, count + buckets, std::size_t(0));
        for (std::size_t i = 0; i < len; ++i)
            ++count[(a[i] >> shift) & mask];
        if (count[(a[0] >> shift) & mask] == len) continue; // one digit value: order unchanged
        std::size_t sum = 0;
        for (std::size_t v = 0; v < buckets; ++v) {
            const std::size_t c = count[v];
            count[v] = sum;
            sum += c;
        }
        for (std::size_t i = 0; i < len; ++i)
            b[count[(a[i] >> shift) & mask]++] = a[i];
        std::swap(a, b);
    }
    if (a != dst) std::memcpy(dst, a, len * sizeof *a);
    if (cut == lo) return;
    // Runs of keys equal in bits [cut, hi): ordered by their low bits.
    std::size_t begin = 0;
    for (std::size_t i = 1; i <= len; ++i) {
        if (i < len && (dst[i] >> cut) == (dst[begin] >> cut)) continue;
        const std::size_t run = i - begin;
        if (run > 16)
            std::sort(dst + begin, dst + i);
        else if (run > 1)
            insertion_sort(dst + begin, run);
        begin = i;
    }
}

// Sorts a[0, n), whose keys are zero outside bits [lo, hi), with tmp[0, n) as scratch; the
// result is in a. One scatter by a top digit into tmp (per-thread histograms, stable), then each
// bucket is sorted by the bits below back into a, the buckets shared among the threads. Buckets
// hold about 8192 keys where the keys are uniform, so that each stays in cache, and there are at
// most 1024 of them (scattering into more streams costs more than it saves).
//
// With `grouped`, the digit is a multiplicative hash of the key instead, and each bucket is
// sorted on all bits: equal keys end up next to each other, in buckets of even size whatever
// the distribution (the spacings are about exponential), but the buckets are not in order.
void sort_cells(Cell* a, Cell* tmp, std::size_t n, int lo, int hi, bool grouped, int threads)
{
    if (n < 2 || hi <= lo) return;
    const int log2_n = 63 - __builtin_clzll(n);
    const int w = std::min(hi - lo, std::clamp(log2_n - 13, 8, 10));
    const int shift = grouped ? 64 - w : hi - w;
    const std::size_t buckets = std::size_t(1) << w;
    const Cell mask = buckets - 1;
    if (n < (std::size_t(1) << 16)) threads = 1;
    std::vector<std::size_t> hist(static_cast<std::size_t>(threads) * buckets);
    std::vector<std::size_t> begin(buckets + 1);
    // Fibonacci hashing: the top w bits of key * 2^64 / phi.
    auto digit = [grouped, shift, mask](Cell x) {
        return ((grouped ? x * 0x9E3779B97F4A7C15ull : x) >> shift) & mask;
    };

    auto histogram = [&](int i, int nt) {
        std::size_t* h = hist.data() + static_cast<std::size_t>(i) * buckets;
        const std::size_t from = n * static_cast<std::size_t>(i) / static_cast<std::size_t>(nt);
        const std::size_t to = n * static_cast<std::size_t>(i + 1) / static_cast<std::size_t>(nt);
        for (std::size_t j = from; j < to; ++j)
            ++h[digit(a[j])];
    };
    auto offsets = [&](int nt) {
        std::size_t sum = 0;
        for (std::size_t v = 0; v < buckets; ++v) {
            begin[v] = sum;
            for (int i = 0; i < nt; ++i) {
                std::size_t& h = hist[static_cast<std::size_t>(i) * buckets + v];
                const std::size_t c = h;
                h = sum;
                sum += c;
            }
        }
        begin[buckets] = sum;
    };
    auto scatter = [&](int i, int nt) {
        std::size_t* h = hist.data() + static_cast<std::size_t>(i) * buckets;
        const std::size_t from = n * static_cast<std::size_t>(i) / static_cast<std::size_t>(nt);
        const std::size_t to = n * static_cast<std::size_t>(i + 1) / static_cast<std::size_t>(nt);
        for (std::size_t j = from; j < to; ++j)
            tmp[h[digit(a[j])]++] = a[j];
    };
    auto bucket = [&](std::size_t v) {
        const std::size_t b = begin[v], len = begin[v + 1] - begin[v];
        lsd_sort(tmp + b, a + b, len, lo, grouped ? hi : shift);
    };

    if (threads <= 1) {
        histogram(0, 1);
        offsets(1);
        scatter(0, 1);
        for (std::size_t v = 0; v < buckets; ++v)
            bucket(v);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        const int i = omp_get_thread_num();
        const int nt = omp_get_num_threads();
        histogram(i, nt);
#pragma omp barrier
#pragma omp single
        offsets(nt);
        scatter(i, nt);
#pragma omp barrier
        const long nb = static_cast<long>(buckets);
#pragma omp for schedule(dynamic, 1)
        for (long v = 0; v < nb; ++v)
            bucket(static_cast<std::size_t>(v));
    }
}

// ---------------------------------------------------------------------------------------------
// One replication.

// Keys of at most this many varying bits are counted in a table instead of sorted.
constexpr int count_bits = 20;

// Adjacent equal keys of s[0, n) once sorted, that is n minus the distinct keys, for keys zero
// outside bits [lo, hi) with hi - lo <= count_bits: a table of the keys seen, one per thread.
long duplicates_by_table(const Cell* s, std::size_t n, int lo, int hi, int threads)
{
    const std::size_t size = std::size_t(1) << (hi - lo);
    if (threads <= 1) {
        std::vector<unsigned char> seen(size);
        long y = 0;
        for (std::size_t j = 0; j < n; ++j) {
            unsigned char& f = seen[s[j] >> lo];
            y += f;
            f = 1;
        }
        return y;
    }
    std::vector<unsigned char> seen(static_cast<std::size_t>(threads) * size);
    long distinct = 0;
#pragma omp parallel num_threads(threads) reduction(+ : distinct)
    {
        const std::size_t i = static_cast<std::size_t>(omp_get_thread_num());
        const std::size_t nt = static_cast<std::size_t>(omp_get_num_threads());
        unsigned char* mine = seen.data() + i * size;
        for (std::size_t j = n * i / nt; j < n * (i + 1) / nt; ++j)
            mine[s[j] >> lo] = 1;
#pragma omp barrier
        const long entries = static_cast<long>(size);
#pragma omp for schedule(static)
        for (long v = 0; v < entries; ++v) {
            unsigned char any = 0;
            for (std::size_t k = 0; k < nt; ++k)
                any |= seen[k * size + static_cast<std::size_t>(v)];
            distinct += any;
        }
    }
    return static_cast<long>(n) - distinct;
}

// Y of one replication: the dates in a[0, n) (their OR is `all`), tmp[0, n) as scratch.
long collisions(Cell* a, Cell* tmp, std::size_t n, Cell kc, Cell all, int threads)
{
    if (n < (std::size_t(1) << 16)) threads = 1;
    int lo, hi;
    bit_range(all, lo, hi);
    sort_cells(a, tmp, n, lo, hi, false, threads);

    // The spacings (gofs_DiffULL's) and the wrap-around one, kc - D[n] + D[1].
    Cell spacings_all = 0;
    const long last = static_cast<long>(n) - 1;
#pragma omp parallel for num_threads(threads) reduction(| : spacings_all) if (threads > 1)
    for (long j = 0; j < last; ++j) {
        const Cell s = a[j + 1] - a[j];
        tmp[j] = s;
        spacings_all |= s;
    }
    tmp[last] = kc - a[last] + a[0];
    spacings_all |= tmp[last];

    // Y: the adjacent equal spacings once sorted.
    bit_range(spacings_all, lo, hi);
    if (hi - lo <= count_bits && (std::size_t(1) << (hi - lo)) <= 8 * n)
        return duplicates_by_table(tmp, n, lo, hi, threads);
    sort_cells(tmp, a, n, lo, hi, true, threads);
    // Equal spacings are adjacent (in one bucket, sorted there); different buckets hold
    // different spacings.
    long y = 0;
    const long size = static_cast<long>(n);
#pragma omp parallel for num_threads(threads) reduction(+ : y) if (threads > 1)
    for (long j = 1; j < size; ++j)
        if (tmp[j] == tmp[j - 1]) ++y;
    return y;
}

// Replications per batch when replications run in parallel (0: they do not).
long replication_batch(long N, std::size_t n, int threads)
{
    constexpr std::size_t small_n = std::size_t(1) << 18;
    constexpr std::size_t budget = std::size_t(256) << 20; // bytes of cells in flight
    if (N < 2 || threads < 2 || n > small_n) return 0;
    const std::size_t per = n * sizeof(Cell);
    const std::size_t fit = budget / per;
    const std::size_t t = static_cast<std::size_t>(threads);
    if (fit < 2 * t) return 0;
    return static_cast<long>(
        std::min<std::size_t>(static_cast<std::size_t>(N), std::min<std::size_t>(4 * t, fit - t)));
}

} // namespace

BirthdaySpacingsResult birthday_spacings(Numbers& in, const BirthdaySpacingsParams& p, int threads)
{
    if (p.N < 1 || p.n < 1 || p.t < 1 || p.r < 0 || p.r > 62)
        throw std::invalid_argument("smarsa_BirthdaySpacings: N, n, t >= 1 and 0 <= r <= 62");
    threads = std::max(1, threads);

    // smarsa_BirthdaySpacings's own order: kc = k = d, then t - 1 products.
    double k = static_cast<double>(p.d);
    Cell kc = static_cast<Cell>(k);
    for (int j = 2; j <= p.t; ++j) {
        k *= static_cast<double>(p.d);
        kc *= static_cast<Cell>(p.d);
    }
    const double n_real = static_cast<double>(p.n);
    const double lambda = n_real * n_real / k * (n_real / 4.0);

    BirthdaySpacingsResult res;
    if (p.d <= 1 || k > smarsa_Maxk
        || 8.0 * static_cast<double>(p.N) * lambda > std::sqrt(std::sqrt(k)))
        return res;
    res.done = true;
    res.lambda = lambda;
    res.mu = static_cast<double>(p.N) * lambda;
    res.collisions.resize(static_cast<std::size_t>(p.N));

    const CellBuilder build(in, p);
    const std::size_t n = static_cast<std::size_t>(p.n);
    const long batch = replication_batch(p.N, n, threads);

    // The counts from the device the stream runs on (device.hpp) where its words can be had
    // there; the rest is the same code for both paths.
    if (const auto y = device_birthday_collisions(in, p)) {
        for (long rep = 0; rep < p.N; ++rep)
            res.collisions[static_cast<std::size_t>(rep)]
                = static_cast<double>((*y)[static_cast<std::size_t>(rep)]);
    } else if (batch == 0) {
        const std::unique_ptr<Cell[]> a(new Cell[n]), tmp(new Cell[n]);
        for (long rep = 0; rep < p.N; ++rep) {
            const Cell all = generate_cells(in, build, a.get(), n, threads);
            res.collisions[static_cast<std::size_t>(rep)]
                = static_cast<double>(collisions(a.get(), tmp.get(), n, kc, all, threads));
        }
    } else {
        // A batch's cells are read in stream order, then each replication is sorted by one
        // thread with its own scratch.
        const std::unique_ptr<Cell[]> cells(new Cell[static_cast<std::size_t>(batch) * n]);
        const std::unique_ptr<Cell[]> scratch(new Cell[static_cast<std::size_t>(threads) * n]);
        for (long first = 0; first < p.N; first += batch) {
            const long reps = std::min(batch, p.N - first);
            const Cell all = generate_cells(
                in, build, cells.get(), static_cast<std::size_t>(reps) * n, threads);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
            for (long rep = 0; rep < reps; ++rep) {
                Cell* tmp = scratch.get() + static_cast<std::size_t>(omp_get_thread_num()) * n;
                Cell* a = cells.get() + static_cast<std::size_t>(rep) * n;
                res.collisions[static_cast<std::size_t>(first + rep)]
                    = static_cast<double>(collisions(a, tmp, n, kc, all, 1));
            }
        }
    }

    // Sum += Y: a long plus a double, stored back in the long.
    long sum = 0;
    for (const double y : res.collisions)
        sum = static_cast<long>(static_cast<double>(sum) + y);
    res.sum = static_cast<double>(sum);
    fmass_INFO mass = fmass_CreatePoisson(static_cast<double>(p.N) * lambda);
    res.p_left = fdist_Poisson2(mass, sum);
    res.p_right = fbar_Poisson2(mass, sum);
    fmass_DeletePoisson(mass);
    res.p_value = gofw_pDisc(res.p_left, res.p_right);
    return res;
}

// ---------------------------------------------------------------------------------------------
// Battery rows: bbattery.c's SmallCrush, Crush and BigCrush calls (USE_LONGLONG, long of 64 bits)
// and the names they give res->pVal2.

namespace {

constexpr long million = 1000000;

const BirthdaySpacingsRow battery_rows[] = {
    { "smallcrush", 1, "BirthdaySpacings", { 1, 5 * million, 0, 1073741824L, 2, 1 } },
    { "crush", 11, "BirthdaySpacings, t = 2", { 5, 20 * million, 0, 2 * 1073741824L, 2, 1 } },
    { "crush", 12, "BirthdaySpacings, t = 3", { 5, 20 * million, 0, 2097152, 3, 1 } },
    { "crush", 13, "BirthdaySpacings, t = 4", { 5, 20 * million, 0, 65536, 4, 1 } },
    { "crush", 14, "BirthdaySpacings, t = 7", { 3, 20 * million, 0, 512, 7, 1 } },
    { "crush", 15, "BirthdaySpacings, t = 7", { 3, 20 * million, 7, 512, 7, 1 } },
    { "crush", 16, "BirthdaySpacings, t = 8", { 3, 20 * million, 14, 256, 8, 1 } },
    { "crush", 17, "BirthdaySpacings, t = 8", { 3, 20 * million, 22, 256, 8, 1 } },
    { "bigcrush", 13, "BirthdaySpacings, t = 2", { 100, 10 * million, 0, 2147483648L, 2, 1 } },
    { "bigcrush", 14, "BirthdaySpacings, t = 3", { 20, 20 * million, 0, 2097152, 3, 1 } },
    { "bigcrush", 15, "BirthdaySpacings, t = 4", { 20, 30 * million, 14, 65536, 4, 1 } },
    { "bigcrush", 16, "BirthdaySpacings, t = 7", { 20, 20 * million, 0, 512, 7, 1 } },
    { "bigcrush", 17, "BirthdaySpacings, t = 7", { 20, 20 * million, 7, 512, 7, 1 } },
    { "bigcrush", 18, "BirthdaySpacings, t = 8", { 20, 30 * million, 14, 256, 8, 1 } },
    { "bigcrush", 19, "BirthdaySpacings, t = 8", { 20, 30 * million, 22, 256, 8, 1 } },
    { "bigcrush", 20, "BirthdaySpacings, t = 16", { 20, 30 * million, 0, 16, 16, 1 } },
    { "bigcrush", 21, "BirthdaySpacings, t = 16", { 20, 30 * million, 26, 16, 16, 1 } },
};
constexpr std::size_t row_count = sizeof battery_rows / sizeof battery_rows[0];

std::vector<NativeStatistic> run_row(const BirthdaySpacingsRow& row, Numbers& in)
{
    const BirthdaySpacingsResult res = birthday_spacings(in, row.params, threads());
    if (!res.done) throw std::logic_error("smarsa_BirthdaySpacings: battery row declined");
    return { { row.name, res.p_value } };
}

} // namespace

const std::vector<BirthdaySpacingsRow>& birthday_spacings_rows()
{
    static const std::vector<BirthdaySpacingsRow> rows(
        std::begin(battery_rows), std::end(battery_rows));
    return rows;
}

std::vector<NativeTest> birthday_spacings_tests()
{
    std::vector<NativeTest> tests;
    for (const BirthdaySpacingsRow& row : battery_rows)
        tests.push_back(
            { row.battery, row.number, [&row](Numbers& in) { return run_row(row, in); } });
    return tests;
}

} // namespace rngvet::native
