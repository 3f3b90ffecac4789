#include "dc/verify.hpp"

#include "dc/primitivity.hpp"
#include "dc/threads.hpp"

#include <algorithm>
#include <chrono>
#include <string>

namespace rngvet {

// ---------------------------------------------------------------------------------------------
// dc_verify
// ---------------------------------------------------------------------------------------------

const DcmtReference* dcmt_reference(int p)
{
    static const DcmtReference refs[] = {
        { 521, 32, "seed 4172, ids 0..31", 105, 108.5, 126 },
        { 607, 32, "seed 4172, ids 0..31", 205, 224.5, 283 },
        { 1279, 32, "seed 4172, ids 0..31", 419, 498.0, 616 },
        { 2203, 32, "seed 4172, ids 0..31", 700, 780.5, 1044 },
    };
    for (const auto& r : refs) {
        if (r.p == p) return &r;
    }
    return nullptr;
}

namespace {

bool same_layout(const MtParams& a, const MtParams& b)
{
    return a.aaa == b.aaa && a.mm == b.mm && a.nn == b.nn && a.rr == b.rr && a.ww == b.ww
        && a.wmask == b.wmask && a.umask == b.umask && a.lmask == b.lmask && a.shift0 == b.shift0
        && a.shift1 == b.shift1 && a.shiftB == b.shiftB && a.shiftC == b.shiftC
        && a.maskB == b.maskB && a.maskC == b.maskC;
}

// Index pairs (i, j), i < j, of equal keys.
template <class Key>
std::vector<std::pair<std::size_t, std::size_t>> equal_pairs(
    std::vector<std::pair<Key, std::size_t>> keyed)
{
    std::sort(keyed.begin(), keyed.end());
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t i = 1; i < keyed.size(); ++i) {
        if (!(keyed[i - 1].first < keyed[i].first)) {
            out.emplace_back(keyed[i - 1].second, keyed[i].second);
        }
    }
    return out;
}

std::string set_name(const DcSetReport& s)
{
    return "set " + std::to_string(s.index) + " (id " + std::to_string(s.id) + ")";
}

} // namespace

std::vector<std::string> DcVerifyReport::failures() const
{
    std::vector<std::string> out;
    for (const auto& s : sets) {
        if (!s.layout_ok)
            out.push_back(set_name(s) + ": layout: parameters are not DC's layout for p");
        if (!s.primitive) out.push_back(set_name(s) + ": primitive: " + s.reason);
        if (max_defect_sum >= 0 && s.kv_computed && s.kv.defect_sum() > max_defect_sum) {
            out.push_back(set_name(s) + ": equidistribution: defect sum "
                + std::to_string(s.kv.defect_sum()) + " > " + std::to_string(max_defect_sum));
        }
    }
    for (const auto& [a, b] : duplicate_ids) {
        out.push_back(set_name(sets[a]) + ": ids distinct: same id as " + set_name(sets[b]));
    }
    for (const auto& [a, b] : equal_charpolys) {
        out.push_back(set_name(sets[a]) + ": distinct characteristic polynomials: same as "
            + set_name(sets[b]));
    }
    return out;
}

DcVerifyReport dc_verify(const MtParamSet& set, const DcVerifyOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    DcVerifyReport rep;
    rep.source = set.source;
    rep.sha256 = set.sha256;
    rep.creator = set.creator;
    rep.dc_seed = set.dc_seed;
    rep.p = set.p;
    rep.max_defect_sum = options.max_defect_sum;
    rep.kv_computed = options.equidistribution;
    rep.sets.resize(set.sets.size());
    const std::size_t n = set.sets.size();
    dc_parallel_for(n, dc_thread_count(options.threads, n), [&](std::size_t i) {
        const MtParams& prm = set.sets[i];
        DcSetReport& s = rep.sets[i];
        s.index = i;
        s.id = i < set.ids.size() ? set.ids[i] : static_cast<std::uint32_t>(i);
        s.layout_ok = same_layout(prm, mt_params_for(set.p, prm.aaa, prm.maskB, prm.maskC));
        if (!s.layout_ok) { // the analysis below assumes DC's layout
            s.reason = "not checked (layout)";
            return;
        }
        const MtPrimitivity prim = mt_primitivity(prm);
        s.primitive = prim.primitive;
        s.reason = prim.reason;
        s.charpoly = prim.charpoly;
        if (rep.kv_computed) {
            s.kv = mt_equidistribution(prm);
            s.kv_computed = true;
        }
    });

    std::vector<std::pair<std::uint32_t, std::size_t>> by_id;
    std::vector<std::pair<Gf2Poly, std::size_t>> by_poly;
    for (const auto& s : rep.sets) {
        by_id.emplace_back(s.id, s.index);
        if (s.primitive) by_poly.emplace_back(s.charpoly, s.index);
    }
    rep.duplicate_ids = equal_pairs(std::move(by_id));
    rep.equal_charpolys = equal_pairs(std::move(by_poly));
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return rep;
}

} // namespace rngvet
