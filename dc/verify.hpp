// dc_verify: the checks of a file of Dynamic Creator parameter sets (layout, primitivity,
// distinct ids and polynomials, k(v)), and dcmt's own sets' defect sums to set them beside.
#pragma once

#include "dc/equidistribution.hpp"
#include "generators/gf2poly.hpp"
#include "generators/mt_params.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rngvet {

// k(v) defect sums (over v = 1..32) of dcmt 0.6.1's sets for one p, measured by this project on
// the sets stored in tests/data/dcmt_0.6.1_sets.txt (the test suite recomputes them), so that
// reports can set a file's sets beside dcmt's. Known for p = 521, 607, 1279, 2203.
struct DcmtReference {
    int p;
    int sets;
    const char* call;
    int min;
    double median;
    int max;
};
const DcmtReference* dcmt_reference(int p); // nullptr when not stored

struct DcVerifyOptions {
    int threads = 0; // <= 0: hardware concurrency
    bool equidistribution = true; // compute k(v)
    int max_defect_sum = -1; // >= 0: a set whose defect sum exceeds it fails
};

struct DcSetReport {
    std::size_t index = 0;
    std::uint32_t id = 0;
    bool layout_ok = false; // nn, mm, rr, masks, shifts are DC's layout for p
    bool primitive = false;
    std::string reason; // why not primitive
    Gf2Poly charpoly;
    bool kv_computed = false;
    MtEquidistribution kv;
};

struct DcVerifyReport {
    std::string source;
    std::string sha256;
    std::string creator; // from the file's header ("" when not stated)
    std::string dc_seed;
    int p = 0;
    std::vector<DcSetReport> sets;
    std::vector<std::pair<std::size_t, std::size_t>> duplicate_ids; // pairs of set indices
    std::vector<std::pair<std::size_t, std::size_t>> equal_charpolys; // pairs of set indices
    bool kv_computed = false;
    int max_defect_sum = -1;
    double seconds = 0;

    // One line per failed check, naming the set (index and id) and the check.
    std::vector<std::string> failures() const;
    bool passed() const { return failures().empty(); }
};

// Checks every set: layout, primitivity of phi, ids distinct, characteristic polynomials
// pairwise distinct (for irreducible polynomials distinct means coprime), and k(v).
DcVerifyReport dc_verify(const MtParamSet& set, const DcVerifyOptions& options = {});

} // namespace rngvet
