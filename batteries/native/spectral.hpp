// Native form of sspectral_Fourier3 (native.hpp): the same bits read in the same order, the
// same Fourier coefficients (TestU01's real split-radix FFT, operation for operation), and the
// same statistics and p-values, bit for bit, as TestU01's function, written into TestU01's own
// result record (sspectral_Res) so that every field can be compared.
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <vector>

extern "C" {
#include <testu01/sspectral.h>
}

namespace rngvet::native {

// sspectral_Fourier3(gen, res, N, t, r, s) on the next N * (2^t / s + 1) numbers of `in`: for
// each of the 2^t / 4 first frequencies, the sum over the N replications of the squared moduli
// of the Fourier coefficients of 2^t bits (as +1 and -1), standardized (res->Bas->sVal1), and
// the goodness-of-fit tests of these against the standard normal law (res->Bas->sVal2, pVal2).
// res->Coef holds the last replication's transform, as TestU01 leaves it. The replications'
// transforms are computed on `threads` threads and summed in replication order.
void fourier3(Numbers& in, sspectral_Res* res, long N, int t, int r, int s, int threads);

// The battery rows (bbattery.c): the parameters and the name of the p-value the battery
// writes, res->Bas->pVal2[gofw_AD].
struct Fourier3Row {
    const char* battery;
    int number;
    long N;
    int t, r, s;
    const char* name;
};
std::vector<Fourier3Row> fourier3_rows();

// A row's p-value, named as the battery names it, with N replications instead of the row's N
// (the registered rows run with the row's N).
std::vector<NativeStatistic> fourier3_statistics(
    Numbers& in, const Fourier3Row& row, long N, int threads);

} // namespace rngvet::native
