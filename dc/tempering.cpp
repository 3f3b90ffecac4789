#include "dc/tempering.hpp"

#include "dc/equidistribution.hpp"
#include "generators/mt.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rngvet {

// ---------------------------------------------------------------------------------------------
// Tempering search
//
// Positions: "bit v" is the v-th bit from the top (0x80000000 >> v), the convention of dcmt's
// search; shifts s = shiftB = 7 and t = shiftC = 15. At level v the candidates decide bit v of
// maskC (free while v + t < 32), bit v of maskB (free while v + s < 32, unless maskC's bit
// v - t is set: then bit v of maskB was already decided at level v - t) and bit v + t of maskB
// (free while v + t + s < 32, and only when maskC's bit v is set: the only way it reaches the
// output at level v). Candidate order, which decides ties: maskC bit set before clear; for
// each, maskB bit v + t set before clear (outer) and maskB bit v set before clear (inner).
// ---------------------------------------------------------------------------------------------

namespace {

struct MaskPair {
    std::uint32_t b, c;
};

std::uint32_t top_bit(int v)
{
    return v < 32 ? 0x80000000u >> v : 0u;
}

// The candidates of level v grown from (b, c), in dcmt's order.
int level_candidates(const MtParams& prm, std::uint32_t b, std::uint32_t c, int v, MaskPair out[8])
{
    const int s = prm.shiftB;
    const int t = prm.shiftC;
    int n = 0;
    std::uint32_t c_opts[2];
    int n_c = 0;
    if (v + t < 32) {
        c_opts[n_c++] = c | top_bit(v);
    }
    c_opts[n_c++] = c;
    for (int ci = 0; ci < n_c; ++ci) {
        const std::uint32_t cc = c_opts[ci];
        std::uint32_t bv[2];
        int n_bv;
        if (s + v >= 32) {
            bv[0] = 0;
            n_bv = 1;
        } else if (v >= t && (cc & top_bit(v - t))) {
            bv[0] = b & top_bit(v);
            n_bv = 1;
        } else {
            bv[0] = top_bit(v);
            bv[1] = 0;
            n_bv = 2;
        }
        std::uint32_t bvt[2];
        int n_bvt;
        if (v + t + s < 32 && (cc & top_bit(v))) {
            bvt[0] = top_bit(v + t);
            bvt[1] = 0;
            n_bvt = 2;
        } else {
            bvt[0] = 0;
            n_bvt = 1;
        }
        std::uint32_t keep = top_bit(v);
        if (v + t < 32) keep |= top_bit(v + t);
        keep = ~keep;
        for (int i = 0; i < n_bvt; ++i) {
            for (int j = 0; j < n_bv; ++j)
                out[n++] = { (b & keep) | bv[j] | bvt[i], cc };
        }
    }
    return n;
}

int kv_with(MtParams prm, const MaskPair& m, int v)
{
    prm.maskB = m.b;
    prm.maskC = m.c;
    return mt_kv_lattice(prm, v);
}

// dcmt's exhaustive levels (its LIMIT_V_BEST_OPT) before the greedy ones.
constexpr int dcmt_exhaustive_levels = 15;

} // namespace

namespace {

// dcmt's search (dc_tune_tempering_dcmt), which also records in kv[v] each k(v) it computed
// (-1 elsewhere). After level v the top v + 1 output bits are final (later levels change
// lower mask bits only, which reach lower output bits only), so k(v + 1) is final too; with
// bound >= 0 the search gives up, returning false, as soon as the defects of the accuracies
// decided so far reach bound (it can then no longer end below bound).
bool dcmt_search(MtParams& prm, int kv[33], int bound)
{
    const int p = mt_exponent(prm);
    std::fill(kv, kv + 33, -1);
    int decided = 0; // defect sum of the accuracies decided so far
    auto decide = [&](int v, int k) {
        kv[v] = k;
        decided += p / v - k;
        return bound < 0 || decided < bound;
    };
    std::vector<MaskPair> prev{ { 0u, 0u } };
    MaskPair best{ 0u, 0u };
    MaskPair cand[8];
    for (int v = 0; v < dcmt_exhaustive_levels; ++v) {
        int best_k = -1;
        std::vector<std::pair<MaskPair, int>> kept; // in evaluation order
        for (const MaskPair& node : prev) {
            const int n = level_candidates(prm, node.b, node.c, v, cand);
            for (int i = 0; i < n; ++i) {
                const int k = kv_with(prm, cand[i], v + 1);
                if (k >= best_k) {
                    best_k = k;
                    best = cand[i];
                    kept.emplace_back(cand[i], k);
                }
            }
        }
        if (!decide(v + 1, best_k)) return false;
        // dcmt keeps its list newest first: the next level visits them in reverse order.
        prev.clear();
        for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
            if (it->second >= best_k) prev.push_back(it->first);
        }
    }
    // Greedy levels: the first best candidate of each level, from the last best of the
    // exhaustive levels.
    MaskPair cur = best;
    for (int v = dcmt_exhaustive_levels;; ++v) {
        const int n = level_candidates(prm, cur.b, cur.c, v, cand);
        int best_i = 0;
        int best_k = 0;
        if (n > 1) {
            for (int i = 0; i < n; ++i) {
                const int k = kv_with(prm, cand[i], v + 1);
                if (k > best_k) {
                    best_k = k;
                    best_i = i;
                }
            }
            if (!decide(v + 1, best_k)) return false;
        }
        cur = cand[best_i];
        if (v >= 31) break;
    }
    prm.maskB = cur.b;
    prm.maskC = cur.c;
    return true;
}

// Completes kv[1..32] (entries < 0 are computed) and returns the defect sum.
int complete_kv(const MtParams& prm, int kv[33])
{
    const int p = mt_exponent(prm);
    int sum = 0;
    for (int v = 1; v <= 32; ++v) {
        if (kv[v] < 0) kv[v] = mt_kv_lattice(prm, v);
        sum += p / v - kv[v];
    }
    return sum;
}

} // namespace

void dc_tune_tempering_dcmt(MtParams& prm)
{
    int kv[33];
    dcmt_search(prm, kv, -1);
}

// rngvet's search: dcmt's, then single-bit flips judged on the accuracies each can change
// (maskB bit j moves output bit j and, through maskC bit j + shiftC, output bit j + shiftC;
// maskC bit j moves output bit j; output bit q belongs to the top v bits for v >= 32 - q).

namespace {

constexpr int dc_tempering_sweeps = 8;

// The flips, from prm with its k(v) in kv[1..32] (both updated), at most `sweeps` sweeps.
void flip_search(MtParams& prm, int kv[33], int sweeps)
{
    const int p = mt_exponent(prm);
    for (int sweep = 0; sweep < sweeps; ++sweep) {
        bool improved = false;
        for (int j = 31; j >= prm.shiftB; --j) {
            for (int which = 0; which < 2; ++which) {
                if (which == 1 && j < prm.shiftC) continue;
                MtParams trial = prm;
                int q = j;
                if (which == 0) {
                    trial.maskB ^= 1u << j;
                    if (j + prm.shiftC < 32 && ((prm.maskC >> (j + prm.shiftC)) & 1u))
                        q = j + prm.shiftC;
                } else {
                    trial.maskC ^= 1u << j;
                }
                // The flip can change k(v) for v >= 32 - q only. Defects are >= 0, so the
                // trial is rejected as soon as its partial sum reaches the current one.
                const int v_lo = 32 - q;
                int current = 0;
                for (int v = v_lo; v <= 32; ++v)
                    current += p / v - kv[v];
                int trial_kv[33] = {};
                int sum = 0;
                for (int v = v_lo; v <= 32 && sum < current; ++v) {
                    trial_kv[v] = mt_kv_lattice(trial, v);
                    sum += p / v - trial_kv[v];
                }
                if (sum < current) {
                    prm = trial;
                    std::copy(trial_kv + v_lo, trial_kv + 33, kv + v_lo);
                    improved = true;
                }
            }
        }
        if (!improved) break;
    }
}

} // namespace

void dc_tune_tempering(MtParams& prm)
{
    int kv[33];
    dcmt_search(prm, kv, -1);
    complete_kv(prm, kv);
    flip_search(prm, kv, dc_tempering_sweeps);
}

namespace {

// rngvet mode: sweeps of single-bit flips after choosing the aaa (one: a second sweep costs
// about a fifth more time at p = 521 and changed 1 of the 32 sets of the benchmark at p = 521
// and 1279, none at 607, with the same median and maximum defect sums).
constexpr int rngvet_flip_sweeps = 1;

} // namespace

// rngvet mode: the set for one id from its first primitive aaa (in stream order). Each gets
// dcmt's tempering search; a later one only replaces the best so far when its defect sum is
// lower (its search stops as soon as the defects it has decided reach the best sum); then
// single-bit flips lower the winner's defect sum further.
MtParams dc_temper_best_of(int p, const std::vector<std::uint32_t>& aaa)
{
    MtParams best = mt_params_for(p, aaa.at(0), 0, 0);
    int best_kv[33];
    dcmt_search(best, best_kv, -1);
    int best_sum = complete_kv(best, best_kv);
    for (std::size_t i = 1; i < aaa.size(); ++i) {
        MtParams trial = mt_params_for(p, aaa[i], 0, 0);
        int kv[33];
        if (!dcmt_search(trial, kv, best_sum)) continue;
        const int sum = complete_kv(trial, kv);
        if (sum < best_sum) {
            best = trial;
            std::copy(kv, kv + 33, best_kv);
            best_sum = sum;
        }
    }
    flip_search(best, best_kv, rngvet_flip_sweeps);
    return best;
}

} // namespace rngvet
