// Native sknuth_Collision and smarsa_CollisionOver (collision.hpp).
//
// Facts from TestU01 1.2.3's source (smultin.c, sknuth.c, smarsa.c, unif01.c), with
// USE_LONGLONG (Debian's build):
// - sknuth_Collision calls smultin_Multinomial with one statistic, Delta = -1 (collisions),
//   cells from smultin_GenerCellSerial (t numbers unif01_StripL(r, d) each, Horner's rule in
//   base d, so k = d^t cells) and Sparse = TRUE; smarsa_CollisionOver calls
//   smultin_MultinomialOver the same way: n numbers per replication, the n overlapping t-tuples
//   of them taken circularly (the last t - 1 tuples end with the first t - 1 numbers).
// - Whether cells are counted in a table or by hashing, the collision statistic of a
//   replication (CalcPowDivEqual / CalcPoDiEqHache with the table F[j] = j - 1) is a sum of
//   integers below 2^53: exactly n minus the number of distinct cells. That count is all the
//   integer work there is; it is done here.
// - After the counts, everything follows Multinom / CalcResultsPowDiv (Collision) and
//   MultinomOver / InitCollOver / CalcResCollOver (CollisionOver) operation for operation,
//   through TestU01's own functions (smultin_PowDivMom, smultin_CreateCollisions,
//   fmass_CreatePoisson, fdist_Poisson2, fbar_Poisson2, fbar_Gamma, fdist_Gamma, gofw_pDisc,
//   gofw_ActiveTests1, fbar_Normal1). InitCollOver is static in smultin.c: its formulas are
//   written out below in the same order of operations.
//
// The number of distinct cells: the cells of a replication are partitioned by their high bits
// (two passes over the numbers, each thread on its own range, with its own histogram), then
// each bucket's low bits are counted with a bitmap, a small open-addressing table or a sort,
// buckets in parallel. Memory: the replication's numbers as cells of one dimension (1, 2 or 4
// bytes each) and the partitioned low bits (4 or 8 bytes a cell): at most 160 MB for BigCrush's
// n = 2 * 10^7.
#include "collision.hpp"

#include "device.hpp"
#include "families.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <omp.h>
#include <stdexcept>
#include <string>
#include <utility>

extern "C" {
#include <testu01/fbar.h>
#include <testu01/fdist.h>
#include <testu01/fmass.h>
#include <testu01/gofw.h>
#include <testu01/smultin.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

// smultin.c's EMPTYLIM: the largest Poisson mean and count it gives to the gamma distribution.
constexpr double empty_limit = 200000000000000.0;
// smultin.c's MAX_DIM (t < MAX_DIM in MultinomialOver).
constexpr int max_dim = 64;
// Numbers read at a time.
constexpr std::size_t read_block = std::size_t(1) << 20;
// Below this many cells (or numbers in a block) a replication runs on one thread.
constexpr std::size_t parallel_min = std::size_t(1) << 18;

int bit_length(std::uint64_t x)
{
    return x == 0 ? 0 : 64 - __builtin_clzll(x);
}

void require(bool ok, const char* what)
{
    if (!ok) throw std::invalid_argument(what);
}

// d^e, or 0 when it exceeds 2^63 (smultin's Maxk).
std::uint64_t power(std::uint64_t d, int e)
{
    const std::uint64_t max = std::uint64_t(1) << 63;
    std::uint64_t p = 1;
    for (int i = 0; i < e; ++i) {
        if (p > max / d) return 0;
        p *= d;
    }
    return p;
}

// An allocator whose resize leaves new elements uninitialized: the large buffers are written
// whole before they are read.
template <class T> struct Uninitialized : std::allocator<T> {
    template <class U> struct rebind {
        using other = Uninitialized<U>;
    };
    Uninitialized() = default;
    template <class U> Uninitialized(const Uninitialized<U>&) noexcept { }
    template <class U> void construct(U* p) noexcept { ::new (static_cast<void*>(p)) U; }
    template <class U, class... A> void construct(U* p, A&&... a)
    {
        ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
    }
};
template <class T> using Buffer = std::vector<T, Uninitialized<T>>;

// The next `count` numbers as cells of one dimension, unif01_StripL(r, d) each (unif01.c):
// (long) (d * (2^r U - (long) 2^r U)). For d = 2^s those operations are exact and give the s
// bits of the word that follow its r most significant ones, taken here with shifts. E holds
// values below d.
template <class E>
void read_cells(Numbers& in, std::size_t count, int r, long d, E* out, int threads)
{
    Buffer<std::uint64_t> words(std::min(count, read_block));
    const int bits = in.bits();
    const bool pow2 = (d & (d - 1)) == 0;
    const int s = bit_length(static_cast<std::uint64_t>(d)) - 1;
    const int room = bits - r; // bits left after the r dropped ones
    const std::uint64_t low = room >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << room) - 1;
    for (std::size_t done = 0; done < count;) {
        const std::size_t m = std::min(read_block, count - done);
        in.read(words.data(), m);
        E* o = out + done;
        const std::uint64_t* w = words.data();
        const long mm = static_cast<long>(m);
        const int team = m >= parallel_min ? threads : 1;
        if (!pow2) {
#pragma omp parallel for num_threads(team) schedule(static)
            for (long i = 0; i < mm; ++i)
                o[i] = static_cast<E>(in.strip_l(w[i], r, d));
        } else if (room <= 0) {
            std::fill(o, o + m, E(0));
        } else if (s <= room) {
            const int shift = room - s;
#pragma omp parallel for num_threads(team) schedule(static)
            for (long i = 0; i < mm; ++i)
                o[i] = static_cast<E>((w[i] & low) >> shift);
        } else {
            const int shift = s - room;
#pragma omp parallel for num_threads(team) schedule(static)
            for (long i = 0; i < mm; ++i)
                o[i] = static_cast<E>((w[i] & low) << shift);
        }
        done += m;
    }
}

// Distinct values among the m values of one bucket, each below 2^R.
template <class Rem> struct BucketScratch {
    std::vector<Rem> table;
    std::vector<std::uint32_t> filled;
    std::vector<std::uint64_t> bitmap;
};

constexpr std::size_t too_many = ~std::size_t(0);

// Distinct values by open addressing (linear probing) in 2^log_cap slots holding value + 1
// (0: empty), or too_many when they are more than half the slots. The table stays zero between
// calls: the slots filled are cleared afterwards.
template <class Rem>
std::size_t hash_count(const Rem* v, std::size_t m, int log_cap, BucketScratch<Rem>& s)
{
    const std::size_t cap = std::size_t(1) << log_cap;
    const std::size_t mask = cap - 1;
    const std::size_t limit = std::min(m, cap / 2);
    if (s.table.size() < cap) s.table.resize(cap, 0);
    if (s.filled.size() < limit) s.filled.resize(limit);
    Rem* t = s.table.data();
    std::uint32_t* filled = s.filled.data();
    std::size_t count = 0;
    for (std::size_t i = 0; i < m; ++i) {
        const Rem key = static_cast<Rem>(v[i] + 1);
        std::size_t h = static_cast<std::size_t>(
            (static_cast<std::uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> (64 - log_cap));
        while (t[h] != 0 && t[h] != key)
            h = (h + 1) & mask;
        if (t[h] == 0) {
            if (count == limit) {
                count = too_many;
                break;
            }
            t[h] = key;
            filled[count++] = static_cast<std::uint32_t>(h);
        }
    }
    const std::size_t used = count == too_many ? limit : count;
    for (std::size_t i = 0; i < used; ++i)
        t[filled[i]] = 0;
    return count;
}

template <class Rem>
std::uint64_t distinct_in_bucket(Rem* v, std::size_t m, int R, BucketScratch<Rem>& s)
{
    if (m <= 1) return m;
    const std::uint64_t range = std::uint64_t(1) << R;
    if (R <= 15 || range <= 8 * static_cast<std::uint64_t>(m)) {
        s.bitmap.assign(static_cast<std::size_t>((range + 63) / 64), 0);
        std::uint64_t* b = s.bitmap.data();
        std::uint64_t count = 0;
        for (std::size_t i = 0; i < m; ++i) {
            const std::uint64_t x = v[i];
            const std::uint64_t bit = std::uint64_t(1) << (x & 63);
            std::uint64_t& word = b[x >> 6];
            count += (word & bit) == 0;
            word |= bit;
        }
        return count;
    }
    // A table of 2 to 4 slots a value; for a larger bucket (a generator whose cells pile up),
    // tables of 2^17 to 2^22 slots while the distinct values fit, else a sort.
    if (m <= (std::size_t(1) << 16))
        return hash_count(v, m, std::max(4, bit_length(static_cast<std::uint64_t>(m) - 1) + 1), s);
    for (int log_cap = 17; log_cap <= 22; ++log_cap) {
        const std::size_t count = hash_count(v, m, log_cap, s);
        if (count != too_many) return count;
    }
    std::sort(v, v + m);
    std::uint64_t count = 1;
    for (std::size_t i = 1; i < m; ++i)
        count += v[i] != v[i - 1];
    return count;
}

// The number of distinct values among the n cells keys(lo, hi, f) hands to f, each below 2^kbits.
template <class Rem, class Keys>
std::uint64_t count_distinct(
    const Keys& keys, std::size_t n, int kbits, int p, int threads, Buffer<Rem>& part)
{
    const int R = kbits - p;
    const std::size_t buckets = std::size_t(1) << p;
    const std::uint64_t mask = (std::uint64_t(1) << R) - 1;
    const int team = n >= parallel_min ? std::max(1, threads) : 1;
    part.resize(n);
    std::vector<std::size_t> hist(static_cast<std::size_t>(team) * buckets, 0);
    std::vector<std::size_t> start(buckets + 1, 0);
    Rem* out = part.data();

#pragma omp parallel num_threads(team)
    {
        const std::size_t nt = static_cast<std::size_t>(omp_get_num_threads());
        const std::size_t id = static_cast<std::size_t>(omp_get_thread_num());
        const std::size_t lo = n / nt * id + std::min(id, n % nt);
        const std::size_t hi = lo + n / nt + (id < n % nt ? 1 : 0);
        std::size_t* h = hist.data() + id * buckets;
        keys(lo, hi, [h, R](std::uint64_t key) { ++h[key >> R]; });
#pragma omp barrier
#pragma omp single
        {
            std::size_t pos = 0;
            for (std::size_t b = 0; b < buckets; ++b) {
                start[b] = pos;
                for (std::size_t i = 0; i < nt; ++i) {
                    const std::size_t c = hist[i * buckets + b];
                    hist[i * buckets + b] = pos;
                    pos += c;
                }
            }
            start[buckets] = pos;
        }
        keys(lo, hi, [h, R, mask, out](std::uint64_t key) {
            out[h[key >> R]++] = static_cast<Rem>(key & mask);
        });
    }

    std::uint64_t distinct = 0;
    const long nb = static_cast<long>(buckets);
#pragma omp parallel num_threads(team) reduction(+ : distinct)
    {
        BucketScratch<Rem> scratch;
#pragma omp for schedule(dynamic, 16)
        for (long b = 0; b < nb; ++b) {
            const std::size_t i = static_cast<std::size_t>(b);
            distinct += distinct_in_bucket(out + start[i], start[i + 1] - start[i], R, scratch);
        }
    }
    return distinct;
}

// Partition bits for n cells below 2^kbits: 8192 to 16384 cells a bucket, low parts of at most 31
// bits where that takes at most 2^16 buckets (else 64-bit low parts).
struct Partition {
    int kbits;
    int p;
    bool wide;
};

Partition partition_for(std::size_t n, std::uint64_t k)
{
    Partition q;
    q.kbits = std::max(1, bit_length(k - 1));
    q.p = std::min(q.kbits, std::min(16, bit_length(n >> 14)));
    if (q.kbits - q.p > 31 && q.kbits - 31 <= 16) q.p = q.kbits - 31;
    q.wide = q.kbits - q.p > 31;
    return q;
}

// Scratch kept across replications.
struct Workspace {
    Buffer<std::uint8_t> cells8;
    Buffer<std::uint16_t> cells16;
    Buffer<std::uint32_t> cells32;
    Buffer<std::uint32_t> part32;
    Buffer<std::uint64_t> part64;
    Buffer<std::uint8_t>& cells(std::uint8_t*) { return cells8; }
    Buffer<std::uint16_t>& cells(std::uint16_t*) { return cells16; }
    Buffer<std::uint32_t>& cells(std::uint32_t*) { return cells32; }
};

template <class Keys>
std::uint64_t distinct_cells(
    const Keys& keys, std::size_t n, std::uint64_t k, int threads, Workspace& ws)
{
    const Partition q = partition_for(n, k);
    if (q.wide) return count_distinct(keys, n, q.kbits, q.p, threads, ws.part64);
    return count_distinct(keys, n, q.kbits, q.p, threads, ws.part32);
}

// One replication: its numbers read as cells of one dimension (E: values below d), then the
// number of distinct cells of t dimensions among the n cells of t numbers each
// (smultin_GenerCellSerial, Horner's rule) or, overlapping, among the n t-tuples of numbers j
// .. j + t - 1 (the first t - 1 numbers repeated after the last).
template <class E>
std::uint64_t replication_t(Numbers& in, bool overlapping, std::size_t n, std::size_t t, int r,
    long d, std::uint64_t k, int threads, Workspace& ws)
{
    Buffer<E>& cells = ws.cells(static_cast<E*>(nullptr));
    const std::size_t count = overlapping ? n : n * t;
    cells.resize(overlapping ? n + t - 1 : count);
    read_cells(in, count, r, d, cells.data(), threads);
    const E* e = cells.data();
    const std::uint64_t dd = static_cast<std::uint64_t>(d);
    if (!overlapping) {
        auto keys = [e, t, dd](std::size_t lo, std::size_t hi, auto&& f) {
            const E* c = e + lo * t;
            for (std::size_t i = lo; i < hi; ++i) {
                std::uint64_t key = *c++;
                for (std::size_t j = 1; j < t; ++j)
                    key = key * dd + *c++;
                f(key);
            }
        };
        return distinct_cells(keys, n, k, threads, ws);
    }
    std::copy(cells.begin(), cells.begin() + static_cast<long>(t - 1),
        cells.begin() + static_cast<long>(n));
    const std::uint64_t k1 = k / dd;
    auto keys = [e, t, dd, k1](std::size_t lo, std::size_t hi, auto&& f) {
        std::uint64_t key = 0;
        for (std::size_t i = 0; i + 1 < t; ++i)
            key = key * dd + e[lo + i];
        for (std::size_t j = lo; j < hi; ++j) {
            key = key * dd + e[j + t - 1];
            f(key);
            key -= e[j] * k1;
        }
    };
    return distinct_cells(keys, n, k, threads, ws);
}

std::uint64_t replication(Numbers& in, bool overlapping, std::size_t n, std::size_t t, int r,
    long d, std::uint64_t k, int threads, Workspace& ws)
{
    if (d <= 256) return replication_t<std::uint8_t>(in, overlapping, n, t, r, d, k, threads, ws);
    if (d <= 65536)
        return replication_t<std::uint16_t>(in, overlapping, n, t, r, d, k, threads, ws);
    return replication_t<std::uint32_t>(in, overlapping, n, t, r, d, k, threads, ws);
}

std::vector<double> test_array()
{
    return std::vector<double>(gofw_NTestTypes, -1.0);
}

} // namespace

std::uint64_t distinct_count(const std::vector<std::uint64_t>& keys, std::uint64_t k, int threads)
{
    require(k >= 1 && k <= (std::uint64_t(1) << 63), "distinct_count: k out of [1, 2^63]");
    const std::uint64_t* v = keys.data();
    auto each = [v](std::size_t lo, std::size_t hi, auto&& f) {
        for (std::size_t i = lo; i < hi; ++i)
            f(v[i]);
    };
    Workspace ws;
    return distinct_cells(each, keys.size(), k, std::max(1, threads), ws);
}

CollisionResult collision(Numbers& in, long N, long n, int r, long d, int t, int threads)
{
    threads = std::max(1, threads);
    require(N >= 1, "Collision: N < 1");
    require(n > 4, "Collision: n <= 4");
    require(t >= 1, "Collision: t < 1");
    require(r >= 0 && r < 64, "Collision: r out of range");
    require(d >= 2 && d <= (1L << 32), "Collision: d out of [2, 2^32]");
    const std::uint64_t k = power(static_cast<std::uint64_t>(d), t);
    require(k != 0, "Collision: d^t > 2^63");
    const double kd = static_cast<double>(k);

    // InitPowDiv (Sparse): the mean and standard deviation of the number of collisions, from
    // smultin_PowDivMom, which gives -1 (and writes a line) when n/k > 8 or k <= 2.
    double mu = -1.0, sigma = -1.0;
    if (!(static_cast<double>(n) / kd > 8.0) && !(kd <= 2))
        smultin_PowDivMom(-1.0, n, kd, static_cast<double>(n) / kd, &mu, &sigma);
    // CalcResultsPowDiv with N > 1: a Poisson law of mean N Mu, left undefined by TestU01 when
    // Mu >= SeuilEColl.
    if (N > 1) {
        require(mu < smultin_env.SeuilEColl, "Collision: N > 1 and Mu >= SeuilEColl");
        require(mu >= 0.0, "Collision: N > 1 and no mean for n/k");
    }

    CollisionResult res;
    res.s_val2 = test_array();
    res.p_val2 = test_array();
    res.mu = mu;

    Workspace ws;
    const std::size_t nn = static_cast<std::size_t>(n);
    const std::size_t tt = static_cast<std::size_t>(t);

    double sum_x = 0.0, sum_x2 = 0.0, x0_pre = 0.0;
    for (long seq = 1; seq <= N; ++seq) {
        const std::uint64_t distinct = replication(in, false, nn, tt, r, d, k, threads, ws);
        // Multinom: X, then X0 = (X - Mu) / Sigma; NbCollisions and the collector get X.
        const double x = static_cast<double>(nn - distinct);
        const double x0 = (x - mu) / sigma;
        res.collisions += x;
        res.values.push_back(x);
        sum_x += x0;
        sum_x2 += x0 * x0_pre;
        x0_pre = x0;
    }

    double p_left, p_right;
    if (N == 1) {
        fmass_INFO mass = smultin_CreateCollisions(n, k);
        p_left = smultin_FDistCollisions(mass, static_cast<long>(res.collisions));
        p_right = smultin_FBarCollisions(mass, static_cast<long>(res.collisions));
        smultin_DeleteCollisions(mass);
        res.p_left = p_left;
        res.p_right = p_right;
        res.s_val2[gofw_Mean] = sum_x;
        res.p_val2[gofw_Mean] = fbar_Normal1(res.s_val2[gofw_Mean]);
    } else {
        fmass_INFO mass = fmass_CreatePoisson(static_cast<double>(N) * mu);
        p_left = fdist_Poisson2(mass, static_cast<long>(res.collisions));
        p_right = fbar_Poisson2(mass, static_cast<long>(res.collisions));
        fmass_DeletePoisson(mass);
    }
    res.p_value = gofw_pDisc(p_left, p_right);
    if (N > 1) {
        const double rac_n = std::sqrt(static_cast<double>(N));
        res.s_val2[gofw_Mean] = sum_x / rac_n;
        res.p_val2[gofw_Mean] = fbar_Normal1(res.s_val2[gofw_Mean]);
        res.s_val2[gofw_Cor] = rac_n * sum_x2 / static_cast<double>(N - 1);
        res.p_val2[gofw_Cor] = fbar_Normal1(res.s_val2[gofw_Cor]);
    }
    res.s_val2_poisson = res.collisions;
    return res;
}

CollisionResult collision_over(Numbers& in, long N, long n, int r, long d, int t, int threads)
{
    threads = std::max(1, threads);
    require(N >= 1, "CollisionOver: N < 1");
    require(n > 4, "CollisionOver: n <= 4");
    require(t >= 2 && t < max_dim, "CollisionOver: t out of [2, 63]");
    require(t <= n, "CollisionOver: t > n");
    require(r >= 0 && r < 64, "CollisionOver: r out of range");
    require(d >= 2 && d <= (1L << 32), "CollisionOver: d out of [2, 2^32]");
    const std::uint64_t k = power(static_cast<std::uint64_t>(d), t);
    require(k != 0, "CollisionOver: d^t > 2^63");
    const std::uint64_t k1 = k / static_cast<std::uint64_t>(d);
    const double kd = static_cast<double>(k);
    const double n_lr = static_cast<double>(n);

    // InitCollOver.
    const double delta = static_cast<double>(n - t + 1) / kd;
    int approx = smultin_CollNotInit;
    double esperance = -1.0, stand_dev = -1.0;
    if (delta > smultin_env.SeuilCOverNorSup && delta < smultin_env.SeuilCOverDense) {
        approx = smultin_CollPoissonDense;
        esperance = kd * std::exp(-delta);
    } else if (delta >= smultin_env.SeuilCOverNorInf && delta <= smultin_env.SeuilCOverNorSup) {
        approx = smultin_CollNormal;
        esperance = kd * (delta - 1.0 + std::exp(-delta));
        double terme = kd * std::exp(-delta) * (1.0 - (1.0 + delta) * std::exp(-delta));
        // Marsaglia's variances for the OQSO and DNA tests.
        if (n == 2097152 && k == 1048576) {
            if (d == 32 && t == 4) terme = 295.0 * 295.0;
            if (d == 4 && t == 10) terme = 339.0 * 339.0;
        }
        if (terme < 0.0)
            esperance = -1.0;
        else
            stand_dev = std::sqrt(terme);
    } else if (delta < smultin_env.SeuilCOverSparse) {
        approx = smultin_CollPoissonSparse;
        if (delta < 0.1) {
            const double epsilon = 1.0E-20;
            const int max_iter = 32;
            int j = 3;
            double v = 2.0;
            double terme = delta * delta / 2.0;
            esperance = terme;
            while (std::fabs(terme / esperance) > epsilon && j < max_iter) {
                v += 1.0;
                terme = -terme * delta / v;
                esperance += terme;
                ++j;
            }
            esperance *= kd;
        } else
            esperance = kd * (delta - 1.0 + std::exp(-delta));
    }
    require(approx != smultin_CollNotInit && esperance >= 0.0,
        "CollisionOver: no approximation for this density");
    // InitPowDiv with z = k - k1 decides hashing, which decides how Nb[0] is counted.
    const double z = static_cast<double>(k - k1);
    const bool hashing = z >= smultin_env.SeuilHash && n_lr / z < 1.0;

    CollisionResult res;
    res.s_val2 = test_array();
    res.p_val2 = test_array();
    res.approximation = approx;

    Workspace ws;
    const std::size_t nn = static_cast<std::size_t>(n);
    const std::size_t tt = static_cast<std::size_t>(t);

    // The counts from the device the stream runs on (device.hpp) where its words can be had
    // there; the rest is the same code for both paths.
    const auto on_device = device_collision_over_distinct(in, N, n, r, d, t);
    double sum_x = 0.0, sum_x2 = 0.0, x0_pre = 0.0;
    for (long seq = 1; seq <= N; ++seq) {
        const std::uint64_t distinct = on_device
            ? (*on_device)[static_cast<std::size_t>(seq - 1)]
            : replication(in, true, nn, tt, r, d, k, threads, ws);
        // MultinomOver: X, X0 by the approximation, NbCollisions, Nb[0], the collector.
        const double x = static_cast<double>(nn - distinct);
        double x0 = x;
        if (approx == smultin_CollPoissonDense)
            x0 = kd + x - n_lr;
        else if (approx == smultin_CollNormal)
            x0 = (x - esperance) / stand_dev;
        res.collisions += x;
        // CalcNbCells: with hashing Nb[0] is k + X - n in double; else the empty cells counted.
        res.empty_cells += hashing ? static_cast<std::uint64_t>(kd + x - n_lr) : k - distinct;
        res.values.push_back(x0);
        sum_x += x0;
        sum_x2 += x0 * x0_pre;
        x0_pre = x0;
    }

    // CalcResCollOver.
    res.mu = esperance;
    const double nd = static_cast<double>(N);
    if (approx == smultin_CollNormal) {
        std::vector<double> v(res.values.size() + 1, 0.0);
        std::copy(res.values.begin(), res.values.end(), v.begin() + 1);
        gofw_ActiveTests1(v.data(), N, wdist_Normal, nullptr, res.s_val2.data(), res.p_val2.data());
        res.p_value = res.p_val2[gofw_Mean];
        if (N > 1) {
            const double rac_n = std::sqrt(nd);
            res.s_val2[gofw_Mean] = sum_x / rac_n;
            res.p_val2[gofw_Mean] = fbar_Normal1(res.s_val2[gofw_Mean]);
            res.s_val2[gofw_Cor] = rac_n * sum_x2 / static_cast<double>(N - 1);
            res.p_val2[gofw_Cor] = fbar_Normal1(res.s_val2[gofw_Cor]);
            res.p_value = res.p_val2[gofw_KSP];
        }
    } else if (approx == smultin_CollPoissonSparse) {
        fmass_INFO w = fmass_CreatePoisson(nd * esperance);
        const double p_left = fdist_Poisson2(w, static_cast<long>(res.collisions));
        const double p_right = fbar_Poisson2(w, static_cast<long>(res.collisions));
        res.p_value = gofw_pDisc(p_left, p_right);
        fmass_DeletePoisson(w);
    } else {
        const double empty = static_cast<double>(res.empty_cells);
        if (empty <= empty_limit && nd * esperance <= empty_limit) {
            const double p_left = fbar_Gamma(empty + 1.0, 15, nd * esperance);
            double p_right;
            if (res.empty_cells <= 0 || res.empty_cells > k)
                p_right = 1.0;
            else
                p_right = fdist_Gamma(empty, 15, nd * esperance);
            res.p_value = gofw_pDisc(p_left, p_right);
        }
    }
    // smarsa_CollisionOver's sres_Poisson sVal2.
    res.s_val2_poisson = approx == smultin_CollPoissonSparse ? res.collisions
                                                             : static_cast<double>(res.empty_cells);
    return res;
}

namespace {

// bbattery.c: SmallCrush test 2, Crush tests 3-10, BigCrush tests 3-12.
const CollisionRow row_table[] = {
    { "smallcrush", 2, "Collision", false, 1, 5000000, 0, 65536, 2 },
    { "crush", 3, "CollisionOver, t = 2", true, 10, 10000000, 0, 1024 * 1024, 2 },
    { "crush", 4, "CollisionOver, t = 2", true, 10, 10000000, 10, 1024 * 1024, 2 },
    { "crush", 5, "CollisionOver, t = 4", true, 10, 10000000, 0, 1024, 4 },
    { "crush", 6, "CollisionOver, t = 4", true, 10, 10000000, 20, 1024, 4 },
    { "crush", 7, "CollisionOver, t = 8", true, 10, 10000000, 0, 32, 8 },
    { "crush", 8, "CollisionOver, t = 8", true, 10, 10000000, 25, 32, 8 },
    { "crush", 9, "CollisionOver, t = 20", true, 10, 10000000, 0, 4, 20 },
    { "crush", 10, "CollisionOver, t = 20", true, 10, 10000000, 28, 4, 20 },
    { "bigcrush", 3, "CollisionOver, t = 2", true, 30, 20000000, 0, 1024 * 1024 * 2, 2 },
    { "bigcrush", 4, "CollisionOver, t = 2", true, 30, 20000000, 9, 1024 * 1024 * 2, 2 },
    { "bigcrush", 5, "CollisionOver, t = 3", true, 30, 20000000, 0, 1024 * 16, 3 },
    { "bigcrush", 6, "CollisionOver, t = 3", true, 30, 20000000, 16, 1024 * 16, 3 },
    { "bigcrush", 7, "CollisionOver, t = 7", true, 30, 20000000, 0, 64, 7 },
    { "bigcrush", 8, "CollisionOver, t = 7", true, 30, 20000000, 24, 64, 7 },
    { "bigcrush", 9, "CollisionOver, t = 14", true, 30, 20000000, 0, 8, 14 },
    { "bigcrush", 10, "CollisionOver, t = 14", true, 30, 20000000, 27, 8, 14 },
    { "bigcrush", 11, "CollisionOver, t = 21", true, 30, 20000000, 0, 4, 21 },
    { "bigcrush", 12, "CollisionOver, t = 21", true, 30, 20000000, 28, 4, 21 },
};
constexpr std::size_t row_count = sizeof row_table / sizeof row_table[0];

} // namespace

const std::vector<CollisionRow>& collision_rows()
{
    static const std::vector<CollisionRow> rows(row_table, row_table + row_count);
    return rows;
}

std::vector<NativeStatistic> run_collision_row(
    const CollisionRow& row, Numbers& in, long n, int threads)
{
    const CollisionResult res = row.over
        ? collision_over(in, row.N, n, row.r, row.d, row.t, threads)
        : collision(in, row.N, n, row.r, row.d, row.t, threads);
    // bbattery.c takes res->Pois->pVal2 for both.
    return { NativeStatistic{ row.name, res.p_value } };
}

std::vector<NativeTest> collision_tests()
{
    std::vector<NativeTest> tests;
    for (const CollisionRow& row : row_table)
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return run_collision_row(row, in, row.n, threads()); } });
    return tests;
}

} // namespace rngvet::native
