// The native form of TestU01's smarsa_MatrixRank (smarsa.c): n random L x k matrices over GF(2)
// per replication, each row built from k bits of consecutive GetBits words (s bits after the r
// most significant of each, then k mod s bits of one more), and a chi-square test of their
// ranks against the exact rank probabilities.
//
// The ranks are rngvet's own (elimination on packed 64-bit words, the matrices of a batch in
// parallel); the expected numbers, the merging of classes, the chi-square values and the
// p-values follow smarsa_MatrixRank operation for operation, through TestU01's own library.
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <cstdint>
#include <vector>

extern "C" {
#include <testu01/sres.h>
}

namespace rngvet::native {

// smarsa_MatrixRank(gen, res, N, n, r, s, L, k) on the next numbers of `in`: fills `res` as
// TestU01's function fills it (sres_InitChi2, NbExp, Count, Loc, jmin, jmax, degFree, sVal1,
// pVal1, sVal2, pVal2) and consumes exactly the numbers it consumes. Throws
// std::invalid_argument where TestU01 stops the program (n < 2 gofs_MinExpected) and for
// parameters it does not define (s outside 1..32, r outside 0..31, L or k < 1). The matrices
// are ranked on `threads` threads (0: native::threads()).
void matrix_rank(
    Numbers& in, sres_Chi2* res, long N, long n, int r, int s, int l, int k, int threads = 0);

// The GF(2) rank of the l x k bit matrix whose row i is the k low bits of rows[i * words ..],
// words = (k + 63) / 64 words per row, least significant word first. The rows are destroyed.
int gf2_rank(std::uint64_t* rows, int l, int k);

// A battery's use of smarsa_MatrixRank (bbattery.c): its parameters, the name bbattery.c gives
// the p-value and the p-value it takes (gofw_Sum when N > 1, else gofw_Mean).
struct MatrixRankRow {
    const char* battery;
    int number;
    const char* name;
    long N;
    long n;
    int r;
    int s;
    int l;
    int k;
    bool sum; // the battery reports pVal2[gofw_Sum] (else pVal2[gofw_Mean])
};

// Every battery row of the family, in battery and test-number order.
const std::vector<MatrixRankRow>& matrix_rank_rows();

// Runs `row` with N and n replaced (the battery's own values give the battery's test) on
// `threads` threads (0: native::threads()).
std::vector<NativeStatistic> run_matrix_rank_row(
    const MatrixRankRow& row, Numbers& in, long N, long n, int threads = 0);

} // namespace rngvet::native
