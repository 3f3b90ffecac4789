// The native form of TestU01's smarsa_BirthdaySpacings (native.hpp): the same cells from the
// same numbers, the same collision counts and the same p-value, bit for bit.
#pragma once

#include "native.hpp"

#include <vector>

namespace rngvet::native {

// The arguments of smarsa_BirthdaySpacings(gen, res, N, n, r, d, t, Order).
struct BirthdaySpacingsParams {
    long N = 1; // replications
    long n = 0; // birth dates per replication
    int r = 0; // most significant bits of each U dropped (0 <= r <= 62)
    long d = 0; // values per coordinate
    int t = 0; // coordinates per date: d^t cells
    int order = 1; // 2: smultin_GenerCellSerial2; anything else: smultin_GenerCellSerial
};

// What smarsa_BirthdaySpacings leaves in its sres_Poisson.
struct BirthdaySpacingsResult {
    // False where TestU01 declines the test (d <= 1, d^t > smarsa_Maxk, 8 N Lambda > (d^t)^1/4):
    // nothing was read and TestU01 leaves its result untouched.
    bool done = false;
    double lambda = 0; // res->Lambda: Poisson mean of one replication
    double mu = 0; // res->Mu = N Lambda
    std::vector<double> collisions; // res->sVal1: the N collision counts, in replication order
    double sum = 0; // res->sVal2: their sum
    double p_left = 0; // res->pLeft
    double p_right = 0; // res->pRight
    double p_value = 0; // res->pVal2
};

// Runs smarsa_BirthdaySpacings on the next numbers of `in` with up to `threads` threads.
// Throws std::invalid_argument for N < 1, n < 1, t < 1 or r outside [0, 62].
BirthdaySpacingsResult birthday_spacings(Numbers& in, const BirthdaySpacingsParams& p, int threads);

// One battery row of this family: its battery, test number, the name bbattery.c gives its
// p-value (res->pVal2), and its parameters (USE_LONGLONG, 64-bit long).
struct BirthdaySpacingsRow {
    const char* battery;
    int number;
    const char* name;
    BirthdaySpacingsParams params;
};
const std::vector<BirthdaySpacingsRow>& birthday_spacings_rows();

} // namespace rngvet::native
