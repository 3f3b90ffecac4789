// Native sspectral_Fourier3 (spectral.hpp).
//
// What TestU01 does is read from its source (TestU01 1.2.3): sspectral.c (sspectral_Fourier3,
// InitRes), fftc.c (rsrfft, rstage, rbitrev: H. V. Sorensen's real-valued split-radix FFT,
// which sspectral.c includes), unif01.c (unif01_StripB), testu01/sres.c, probdist/statcoll.c
// and probdist/gofw.c; the battery rows from bbattery.c (Crush 74-75, BigCrush 84-85).
//
// The bit reversal that starts the FFT only moves values: it is applied here as a permutation
// of the bits as they are written into the array (the permutation is that of fftc.c's rbitrev,
// obtained by running its exchanges on the indices). Every arithmetic step of the transform
// (the length-two butterflies and each stage's L-shaped butterflies, with the rotation factors
// computed recursively from sin and cos as fftc.c computes them) is fftc.c's, in its order. The
// replications' transforms and squared moduli are computed on several threads (the next chunk
// of numbers read meanwhile), four replications at a time in the lanes of a vector (each lane's
// operations are the scalar ones, rounded alike: IEEE doubles, no contraction; on processors
// with AVX2 a vector is one register); their sums over
// the replications are taken in replication order, as sspectral_Fourier3 takes them, and the
// standardization and the goodness-of-fit tests come from the same operations and TestU01's
// own functions (statcoll, gofw).
#include "spectral.hpp"

#include "crew.hpp"
#include "families.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include <testu01/gofw.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
#include <testu01/wdist.h>
}

namespace rngvet::native {

namespace {

// fftc.c's rbitrev on x[1..n], n = 2^m, as a permutation: after it, x[p] holds what was at
// source[p].
std::vector<long> bit_reversal_sources(int m)
{
    const long n = 1L << m;
    std::vector<long> x(static_cast<std::size_t>(n) + 1);
    for (long p = 0; p <= n; ++p)
        x[static_cast<std::size_t>(p)] = p;
    int m2 = m / 2;
    const long nbit = 1L << m2;
    if (2 * m2 != m) m2 = m2 + 1;
    std::vector<long> itab((std::size_t(1) << m2) + 2);
    itab[1] = 0;
    itab[2] = 1;
    long imax = 1;
    for (int lbss = 2; lbss <= m2; ++lbss) {
        imax = 2 * imax;
        for (long i = 1; i <= imax; ++i) {
            itab[static_cast<std::size_t>(i)] = 2 * itab[static_cast<std::size_t>(i)];
            itab[static_cast<std::size_t>(i + imax)] = 1 + itab[static_cast<std::size_t>(i)];
        }
    }
    for (long k = 2; k <= nbit; ++k) {
        const long j0 = nbit * itab[static_cast<std::size_t>(k)] + 1;
        long i = k;
        long j = j0;
        for (long l = 2; l <= itab[static_cast<std::size_t>(k)] + 1; ++l) {
            std::swap(x[static_cast<std::size_t>(i)], x[static_cast<std::size_t>(j)]);
            i = i + nbit;
            j = j0 + itab[static_cast<std::size_t>(l)];
        }
    }
    return x;
}

// Four replications' values, one per lane: every arithmetic operation acts on each lane as the
// same operation on doubles.
constexpr int lane_count = 4;
typedef double Lanes __attribute__((vector_size(lane_count * sizeof(double))));

// v = x in every lane (v a double: v = x). A product by v is, lane by lane, the product by x; v
// is set once before a loop, so that the loop does not broadcast x again at every use.
[[maybe_unused]] inline void splat(double& v, double x)
{
    v = x;
}
static_assert(lane_count == 4, "splat writes four lanes");
inline void splat(Lanes& v, double x)
{
    v = Lanes{ x, x, x, x };
}

// One stage of the transform (fftc.c's rstage) on x1, x2, x3, x4 = x + 0, n4, 2 n4, 3 n4,
// indexed from 1; T is double or Lanes.
template <class T> void split_radix_stage(long n, long n2, long n4, T* x1, T* x2, T* x3, T* x4)
{
    const long n8 = n2 / 8;
    long is = 0;
    long id = n2 * 2;
    do {
        for (long i1 = is + 1; i1 <= n; i1 += id) {
            const T t1 = x4[i1] + x3[i1];
            x4[i1] = x4[i1] - x3[i1];
            x3[i1] = x1[i1] - t1;
            x1[i1] = x1[i1] + t1;
        }
        is = 2 * id - n2;
        id = 4 * id;
    } while (is < n);
    if (n4 - 1 <= 0) return;

    is = 0;
    id = n2 * 2;
    T root_half;
    splat(root_half, .7071067811865475);
    do {
        for (long i2 = is + 1 + n8; i2 <= n; i2 += id) {
            const T t1 = (x3[i2] + x4[i2]) * root_half;
            const T t2 = (x3[i2] - x4[i2]) * root_half;
            x4[i2] = x2[i2] - t1;
            x3[i2] = -x2[i2] - t1;
            x2[i2] = x1[i2] - t2;
            x1[i2] = x1[i2] + t2;
        }
        is = 2 * id - n2;
        id = 4 * id;
    } while (is < n);
    if (n8 - 1 <= 0) return;

    const double e = 2 * 3.14159265358979323 / static_cast<double>(n2);
    double ss1 = std::sin(e);
    const double sd1 = ss1;
    const double sd3 = 3 * sd1 - 4 * (sd1 * sd1 * sd1);
    double ss3 = sd3;
    double cc1 = std::cos(e);
    const double cd1 = cc1;
    const double cd3 = 4 * (cd1 * cd1 * cd1) - 3. * cd1;
    double cc3 = cd3;
    for (long j = 2; j <= n8; ++j) {
        is = 0;
        id = 2 * n2;
        const long jn = n4 - 2 * j + 2;
        T vc1, vs1, vc3, vs3;
        splat(vc1, cc1);
        splat(vs1, ss1);
        splat(vc3, cc3);
        splat(vs3, ss3);
        do {
            for (long i1 = is + j; i1 <= n; i1 += id) {
                const long i2 = i1 + jn;
                T t1 = x3[i1] * vc1 + x3[i2] * vs1;
                const T t2 = x3[i2] * vc1 - x3[i1] * vs1;
                T t3 = x4[i1] * vc3 + x4[i2] * vs3;
                T t4 = x4[i2] * vc3 - x4[i1] * vs3;
                const T t5 = t1 + t3;
                t3 = t1 - t3;
                t1 = t2 + t4;
                t4 = t2 - t4;
                x3[i1] = t1 - x2[i2];
                x4[i2] = t1 + x2[i2];
                x3[i2] = -x2[i1] - t3;
                x4[i1] = x2[i1] - t3;
                x2[i2] = x1[i1] - t5;
                x1[i1] = x1[i1] + t5;
                x2[i1] = x1[i2] + t4;
                x1[i2] = x1[i2] - t4;
            }
            is = 2 * id - n2;
            id = 4 * id;
        } while (is < n);
        const double c1 = cc1 * cd1 - ss1 * sd1;
        ss1 = cc1 * sd1 + ss1 * cd1;
        cc1 = c1;
        const double c3 = cc3 * cd3 - ss3 * sd3;
        ss3 = cc3 * sd3 + ss3 * cd3;
        cc3 = c3;
    }
}

// fftc.c's rsrfft on x[1..n], n = 2^m, its values already in bit-reversed order.
template <class T> void split_radix_fft(T* x, int m)
{
    const long n = 1L << m;
    long is = 1;
    long id = 4;
    do {
        for (long i0 = is; i0 <= n; i0 += id) {
            const T t1 = x[i0];
            x[i0] = t1 + x[i0 + 1];
            x[i0 + 1] = t1 - x[i0 + 1];
        }
        is = 2 * id - 1;
        id = 4 * id;
    } while (is < n);
    long n2 = 2;
    for (int k = 2; k <= m; ++k) {
        n2 = n2 * 2;
        const long n4 = n2 / 4;
        split_radix_stage(n, n2, n4, x, x + n4, x + 2 * n4, x + 3 * n4);
    }
}

// split_radix_fft on four replications' lanes, built twice: for processors with AVX2 (a lane
// vector in one register, each operation one instruction) and for any x86-64 (two halves); the
// processor picks at load time. Either way each lane gets the same IEEE operations on doubles in
// the same order (no contraction into fused multiply-adds: -ffp-contract=off, and AVX2 alone
// does not enable FMA), so the results are equal as bits.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default"), flatten))
#endif
void split_radix_fft_lanes(Lanes* x, int m)
{
    split_radix_fft(x, m);
}

} // namespace

void fourier3(Numbers& in, sspectral_Res* res, long N, int t, int r, int s, int threads)
{
    if (N < 1 || r < 0 || s < 1 || r + s > 32 || t < 2 || t > 26)
        throw std::invalid_argument(
            "fourier3: N and s must be positive, r >= 0, r + s <= 32, 2 <= t <= 26");
    const long n = 1L << t;
    const long KALL = n / s + 1;
    const long bits = KALL * s; // written into res->Coef, the first n transformed
    const long quarter = n / 4;

    // sspectral.c's InitRes (res, n/4 + 1, 0, n, "sspectral_Fourier3").
    char name[] = "sspectral_Fourier3";
    sres_InitBasic(res->Bas, quarter + 1, name);
    if (n > res->jmax) {
        void* p = std::realloc(res->Coef, static_cast<std::size_t>(n + 200) * sizeof(double));
        if (p == nullptr) throw std::bad_alloc();
        res->Coef = static_cast<double*>(p);
    }
    for (long j = 0; j <= n; ++j)
        res->Coef[j] = 0.0;
    res->jmin = 0;
    res->jmax = n;
    statcoll_SetDesc(res->Bas->sVal1, "sVal1:   a standard normal");
    double* B = res->Bas->sVal1->V;
    for (long i = 0; i <= quarter; ++i)
        B[i] = 0.0;

    // Which bit (0-based) of a replication the bit-reversed array's x[p] holds, p = 1..n.
    // That bit is bit s - 1 - (i mod s) of the replication's number i / s (i the bit's place):
    // number_of[p] and shift_of[p].
    const std::vector<long> source = bit_reversal_sources(t);
    std::vector<std::uint32_t> number_of(static_cast<std::size_t>(n) + 1),
        shift_of(static_cast<std::size_t>(n) + 1);
    for (long p = 1; p <= n; ++p) {
        const long i = source[static_cast<std::size_t>(p)] - 1;
        number_of[static_cast<std::size_t>(p)] = static_cast<std::uint32_t>(i / s);
        shift_of[static_cast<std::size_t>(p)] = static_cast<std::uint32_t>(s - 1 - i % s);
    }

    threads = std::max(1, threads);
    // Replications per chunk, a multiple of the lanes: their words and their squared moduli
    // (16 MiB or so).
    const long per_rep = std::max<long>(KALL, quarter);
    const long chunk = lane_count
        * std::max<long>(1,
            std::min<long>((N + lane_count - 1) / lane_count,
                (std::size_t(1) << 21) / static_cast<std::size_t>(per_rep * lane_count)));
    std::vector<std::uint64_t> words(static_cast<std::size_t>(chunk * KALL));
    std::vector<double> squares(static_cast<std::size_t>(chunk * quarter));
    // Each thread's array of n + 1 lane vectors, aligned on their size (the AVX2 build loads
    // them whole; std::vector<Lanes> would align them on 16 bytes only, the attribute of Lanes
    // being dropped in a template argument).
    constexpr std::size_t lane_bytes = sizeof(Lanes);
    std::vector<std::vector<unsigned char>> arrays(static_cast<std::size_t>(threads),
        std::vector<unsigned char>((static_cast<std::size_t>(n) + 2) * lane_bytes));
    // Each thread's StripB values of its lanes' replications, interleaved: number k of lane l at
    // k lane_count + l, so that a place's four bits are read together.
    std::vector<std::vector<std::uint32_t>> numbers(static_cast<std::size_t>(threads),
        std::vector<std::uint32_t>(static_cast<std::size_t>(lane_count * KALL)));

    // The chunks' words in two buffers: while the helpers transform one chunk, the calling
    // thread (the stream's own) reads the next, then joins them (crew.hpp).
    std::vector<std::uint64_t> next_words(N > chunk ? words.size() : 0);
    Crew crew(threads - 1);
    long m = std::min(chunk, N);
    in.read(words.data(), static_cast<std::size_t>(m * KALL));
    for (long first = 0; first < N; first += chunk) {
        const long next_m = std::min(chunk, N - first - m);
        const long groups = (m + lane_count - 1) / lane_count;
        const auto transform = [&](long group, int thread) {
            unsigned char* raw = arrays[static_cast<std::size_t>(thread)].data();
            const std::size_t skew = reinterpret_cast<std::uintptr_t>(raw) % lane_bytes;
            Lanes* x = reinterpret_cast<Lanes*>(raw + (skew == 0 ? 0 : lane_bytes - skew));
            std::uint32_t* Z = numbers[static_cast<std::size_t>(thread)].data();
            for (int lane = 0; lane < lane_count; ++lane) {
                std::uint32_t* lane_Z = Z + lane;
                const long g = group * lane_count + lane;
                if (g >= m) {
                    // No replication in this lane (bits 0): transformed and left unused.
                    for (long k = 0; k < KALL; ++k)
                        lane_Z[k * lane_count] = 0;
                    continue;
                }
                const std::uint64_t* w = words.data() + g * KALL;
                for (long k = 0; k < KALL; ++k)
                    lane_Z[k * lane_count] = static_cast<std::uint32_t>(in.strip_b(w[k], r, s));
                if (first + g == N - 1) {
                    // The bits past n, which sspectral_Fourier3 leaves in res->Coef.
                    for (long q = n; q < bits; ++q)
                        res->Coef[q]
                            = (lane_Z[q / s * lane_count] >> (s - 1 - q % s)) & 1u ? 1.0 : -1.0;
                }
            }
            // A[i]: 1 for bit 1, -1 for bit 0 (2 bit - 1, converted exactly), in bit-reversed
            // order.
            for (long p = 1; p <= n; ++p) {
                const std::uint32_t* z = Z
                    + static_cast<std::size_t>(number_of[static_cast<std::size_t>(p)]) * lane_count;
                const std::uint32_t shift = shift_of[static_cast<std::size_t>(p)];
                Lanes v;
                for (int lane = 0; lane < lane_count; ++lane)
                    v[lane]
                        = static_cast<double>(static_cast<int>((z[lane] >> shift) & 1u) * 2 - 1);
                x[p] = v;
            }
            split_radix_fft_lanes(x, t);
            // A[i] A[i] + A[n - i] A[n - i], i = 1..n/4, A[i] = x[i + 1].
            for (long f = 1; f <= quarter; ++f) {
                const Lanes v = x[f + 1] * x[f + 1] + x[n - f + 1] * x[n - f + 1];
                for (int lane = 0; lane < lane_count; ++lane) {
                    const long g = group * lane_count + lane;
                    if (g < m) squares[static_cast<std::size_t>(g * quarter + f - 1)] = v[lane];
                }
            }
            for (int lane = 0; lane < lane_count; ++lane) {
                const long g = group * lane_count + lane;
                if (g < m && first + g == N - 1) {
                    // The last replication's transform, as sspectral_Fourier3 leaves res->Coef.
                    for (long q = 0; q < n; ++q)
                        res->Coef[q] = x[q + 1][lane];
                }
            }
        };
        crew.run(groups, transform, [&] {
            if (next_m > 0) in.read(next_words.data(), static_cast<std::size_t>(next_m * KALL));
        });
        for (long g = 0; g < m; ++g) {
            const double* sq = squares.data() + g * quarter - 1;
            for (long f = 1; f <= quarter; ++f)
                B[f] += sq[f];
        }
        words.swap(next_words);
        m = next_m;
    }

    for (long i = 1; i <= quarter; ++i)
        B[i] /= static_cast<double>(n);
    for (long i = 1; i <= quarter; ++i) {
        B[i] = (B[i] - static_cast<double>(N))
            / std::sqrt(static_cast<double>(N) * (1.0 - 2.0 / static_cast<double>(n)));
        statcoll_AddObs(res->Bas->sVal1, B[i]);
    }
    gofw_ActiveTests2(res->Bas->sVal1->V, res->Bas->pVal1->V, quarter, wdist_Normal, nullptr,
        res->Bas->sVal2, res->Bas->pVal2);
    res->Bas->pVal1->NObs = quarter;
}

namespace {

const Fourier3Row fourier3_table[] = {
    // Crush 74-75: sspectral_Fourier3 (gen, res, 50 * THOUSAND, 14, r, s), (r, s) = (0, 30)
    // and (20, 10).
    { "crush", 74, 50000, 14, 0, 30, "Fourier3, r = 0" },
    { "crush", 75, 50000, 14, 20, 10, "Fourier3, r = 20" },
    // BigCrush 84-85: sspectral_Fourier3 (gen, res, 100 * THOUSAND, 14, r, 3), r = 0 and 27.
    { "bigcrush", 84, 100000, 14, 0, 3, "Fourier3, r = 0" },
    { "bigcrush", 85, 100000, 14, 27, 3, "Fourier3, r = 27" },
};

} // namespace

std::vector<Fourier3Row> fourier3_rows()
{
    return { std::begin(fourier3_table), std::end(fourier3_table) };
}

std::vector<NativeStatistic> fourier3_statistics(
    Numbers& in, const Fourier3Row& row, long N, int threads)
{
    sspectral_Res* res = sspectral_CreateRes();
    try {
        fourier3(in, res, N, row.t, row.r, row.s, threads);
    } catch (...) {
        sspectral_DeleteRes(res);
        throw;
    }
    std::vector<NativeStatistic> out{ { row.name, res->Bas->pVal2[gofw_AD] } };
    sspectral_DeleteRes(res);
    return out;
}

std::vector<NativeTest> spectral_tests()
{
    std::vector<NativeTest> tests;
    for (const Fourier3Row& row : fourier3_table)
        tests.push_back({ row.battery, row.number,
            [&row](Numbers& in) { return fourier3_statistics(in, row, row.N, threads()); } });
    return tests;
}

} // namespace rngvet::native
