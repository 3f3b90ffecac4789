// Native form of scomp_LinearComp (native.hpp): the same bits read in the same order, the same
// linear complexity profile and the same statistics and p-values, bit for bit, as TestU01's
// function, written into TestU01's own result record (scomp_Res) so that every field can be
// compared.
#pragma once

#include "native.hpp"
#include "source.hpp"

#include <vector>

extern "C" {
#include <testu01/scomp.h>
}

namespace rngvet::native {

// scomp_LinearComp(gen, res, N, n, r, s) on the next N * (n / s) numbers of `in`: the number of
// jumps of the linear complexity profile of each replication's n / s * s bits (res->JumpNum, a
// standard normal), the chi-square of the jumps' sizes (res->JumpSize) and, where N > 2
// gofs_MinExpected, the chi-square of the final linear complexities (res->LinComp).
void linear_comp(Numbers& in, scomp_Res* res, long N, long n, int r, int s);

// The battery rows (bbattery.c): the parameters and the names of the two p-values the battery
// writes, res->JumpNum->pVal2[gofw_Mean] then res->JumpSize->pVal2[gofw_Mean].
struct LinearCompRow {
    const char* battery;
    int number;
    long N, n;
    int r, s;
    const char* jump_count_name;
    const char* jump_size_name;
};
std::vector<LinearCompRow> linear_comp_rows();

// A row's p-values, named as the battery names them, with n bits instead of the row's n (the
// registered rows run with the row's n).
std::vector<NativeStatistic> linear_comp_statistics(Numbers& in, const LinearCompRow& row, long n);

} // namespace rngvet::native
