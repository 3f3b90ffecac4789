// active_tests.hpp: gofw_ActiveTests0 with its terms computed in parallel.
#include "active_tests.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

extern "C" {
#include <testu01/bitset.h>
#include <testu01/fbar.h>
#include <testu01/gofs.h>
#include <testu01/gofw.h>
}

namespace rngvet::native {

namespace {

// Fewer values than this are not worth a thread's start.
constexpr long parallel_min = 1 << 15;

} // namespace

void active_tests0(const double* U, long N, double* sVal, double* pVal, int threads)
{
    if (N == 1) {
        gofw_ActiveTests0(const_cast<double*>(U), N, sVal, pVal);
        return;
    }
    const double UnSurN = 1.0 / static_cast<double>(N);
    double A2 = 0.0, W2 = UnSurN / 12.0, DM = 0.0, DP = 0.0, SumZ = 0.0;
    constexpr long block = 1 << 20;
    std::vector<double> ad(static_cast<std::size_t>(std::min(N, block)));
    for (long first = 1; first <= N; first += block) {
        const long last = std::min(N, first + block - 1);
        double* term = ad.data() - first;
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && N >= parallel_min)
        for (long i = first; i <= last; ++i) {
            // The Anderson-Darling term.
            double Ui = U[i];
            double U1 = 1.0 - Ui;
            if (Ui < gofs_EpsilonAD)
                Ui = gofs_EpsilonAD;
            else if (U1 < gofs_EpsilonAD)
                U1 = gofs_EpsilonAD;
            term[i] = static_cast<double>(2 * i - 1) * std::log(Ui)
                + static_cast<double>(1 + 2 * (N - i)) * std::log(U1);
        }
        for (long i = first; i <= last; ++i) {
            // Kolmogorov-Smirnov.
            const double D1 = U[i] - static_cast<double>(i - 1) * UnSurN;
            const double D2 = static_cast<double>(i) * UnSurN - U[i];
            if (D1 > DM) DM = D1;
            if (D2 > DP) DP = D2;
            // Watson U and G.
            SumZ += U[i];
            const double W = U[i] - (static_cast<double>(i) - 0.5) * UnSurN;
            W2 += W * W;
            A2 += term[i];
        }
    }
    sVal[gofw_KS] = DM > DP ? DM : DP;
    sVal[gofw_KSM] = DM;
    sVal[gofw_KSP] = DP;
    SumZ = SumZ * UnSurN - 0.5;
    sVal[gofw_CM] = W2;
    sVal[gofw_WG] = std::sqrt(static_cast<double>(N)) * (DP + SumZ);
    sVal[gofw_WU] = W2 - SumZ * SumZ * static_cast<double>(N);
    sVal[gofw_AD] = static_cast<double>(-N) - A2 * UnSurN;

    if (bitset_TestBit(gofw_ActiveTests, gofw_KSP)) pVal[gofw_KSP] = fbar_KSPlus(N, sVal[gofw_KSP]);
    if (bitset_TestBit(gofw_ActiveTests, gofw_KSM)) pVal[gofw_KSM] = fbar_KSPlus(N, sVal[gofw_KSM]);
    if (bitset_TestBit(gofw_ActiveTests, gofw_KS)) pVal[gofw_KS] = fbar_KS1(N, sVal[gofw_KS]);
    if (bitset_TestBit(gofw_ActiveTests, gofw_AD))
        pVal[gofw_AD] = fbar_AndersonDarling(N, sVal[gofw_AD]);
    if (bitset_TestBit(gofw_ActiveTests, gofw_CM))
        pVal[gofw_CM] = fbar_CramerMises(N, sVal[gofw_CM]);
    if (bitset_TestBit(gofw_ActiveTests, gofw_WG)) pVal[gofw_WG] = fbar_WatsonG(N, sVal[gofw_WG]);
    if (bitset_TestBit(gofw_ActiveTests, gofw_WU)) pVal[gofw_WU] = fbar_WatsonU(N, sVal[gofw_WU]);
}

} // namespace rngvet::native
