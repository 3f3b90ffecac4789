#include "checks.hpp"

#include "generators/layout_index.hpp"
#include "generators/mt_charpoly.hpp"
#include "generators/mt_params.hpp"
#include "known_answers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace rngvet {
namespace {

std::vector<std::uint64_t> take(Stream& s, std::size_t n)
{
    std::vector<std::uint64_t> v(n);
    s.fill(v.data(), n);
    return v;
}

std::string hex(double d)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", d);
    return buf;
}

// The conversion of the NVIDIA SDK's MersenneTwister sample (NVIDIA CUDA SDK, MersenneTwister
// sample): documented to give (0, 1], here evaluated in float arithmetic exactly as written there.
float sdk_float(std::uint32_t x)
{
    volatile float f = static_cast<float>(x);
    volatile float g = f + 1.0f;
    return g / 4294967296.0f;
}

CheckResult u01_contract(const std::string& generator, int bits, bool zero_occurs)
{
    // x * 2^-bits for 0 <= x < 2^bits (x >= 1 when zeros are replaced).
    const std::uint64_t max = (1ull << bits) - 1;
    const double top = to_u01(max, bits);
    const double step = to_u01(1, bits);
    const bool below_one = top < 1.0 && top == 1.0 - std::ldexp(1.0, -bits);
    const bool resolution = step == std::ldexp(1.0, -bits);
    std::ostringstream d;
    d << "GetU01 = x * 2^-" << bits << ": interval " << (zero_occurs ? "[0, 1)" : "(0, 1)")
      << ", resolution " << bits << " bits, smallest " << (zero_occurs ? "0" : hex(step))
      << ", largest 1 - 2^-" << bits << " = " << hex(top) << "; 1 never occurs";
    return { "output-contract " + generator, below_one && resolution, d.str() };
}

} // namespace

std::vector<CheckResult> check_known_answers(
    const StreamFactory& factory, const std::string& backend)
{
    std::vector<CheckResult> out;
    for (const KnownAnswer& row : known_answers()) {
        // A generator without a kernel on the backend (r250 on opencl) has nothing to check.
        if (!runs_on(traits(parse_generator(row.generator)), parse_backend(backend))) continue;
        CheckResult r{ "known-answer " + row.label(), false, "" };
        try {
            auto stream = factory(row.configuration(backend));
            const auto got = take(*stream, row.values.size());
            const auto bad = std::mismatch(got.begin(), got.end(), row.values.begin());
            if (bad.first == got.end()) {
                r.passed = true;
                r.detail = std::to_string(got.size()) + " values equal";
            } else {
                const auto at = bad.first - got.begin();
                r.detail = "value " + std::to_string(at + 1) + " is " + std::to_string(*bad.first)
                    + ", expected " + std::to_string(*bad.second);
            }
        } catch (const std::exception& e) {
            r.detail = e.what();
        }
        out.push_back(r);
    }
    return out;
}

std::vector<CheckResult> check_output_contracts()
{
    std::vector<CheckResult> out;
    out.push_back(u01_contract("ranmar24 (zero keep)", 24, true));
    out.push_back(u01_contract("ranmar24 (zero smallest)", 24, false));
    out.push_back(u01_contract("ranmar48, ranmar48x (zero keep)", 48, true));
    out.push_back(u01_contract("ranmar48, ranmar48x (zero smallest)", 48, false));
    out.push_back(
        u01_contract("mtdc, mt19937, stdin32, file, and the views of stdin64, file64", 32, true));

    // The 24-bit generators' bits reach GetBits left-aligned: bit 23 of x is bit 31.
    {
        const bool aligned = top32(1ull << 23, 24) == 0x80000000u && top32(1, 24) == 0x100u
            && top32((1ull << 48) - 1, 48) == 0xFFFFFFFFu;
        out.push_back({ "output-contract GetBits", aligned,
            "GetBits = the top 32 bits; a 24-bit value x becomes x << 8, a 48-bit value "
            "x >> 16" });
    }

    // The SDK's float conversion: find the smallest x that gives exactly 1.0.
    {
        std::uint32_t lo = 0, hi = 0xFFFFFFFFu;
        const bool reaches_one = sdk_float(hi) >= 1.0f;
        if (reaches_one) {
            while (lo < hi) {
                const std::uint32_t mid = lo + (hi - lo) / 2;
                if (sdk_float(mid) >= 1.0f)
                    hi = mid;
                else
                    lo = mid + 1;
            }
        }
        std::ostringstream d;
        d << "((float)x + 1.0f) / 2^32 (NVIDIA SDK sample): ";
        if (reaches_one)
            d << "returns exactly 1.0 for every x >= " << hi << " (" << (0xFFFFFFFFull - hi + 1)
              << " of 2^32 words), violating [0, 1); resolution 24 bits (float)";
        else
            d << "stays below 1.0";
        out.push_back({ "output-contract sdk-float", !reaches_one, d.str(), true });
    }
    return out;
}

std::vector<CheckResult> check_layout(const Configuration& config, const StreamFactory& factory)
{
    std::vector<CheckResult> out;
    const std::string name = canonical_name(config);
    const std::size_t n
        = std::max<std::size_t>(4096, 64 * static_cast<std::size_t>(config.instances));

    // Canary: no stream value can be 2^64 - 1 (every resolution is at most 48 bits).
    std::vector<std::uint64_t> whole(n, ~0ull);
    factory(config)->fill(whole.data(), n);
    const auto unwritten = std::count(whole.begin(), whole.end(), ~0ull);
    out.push_back({ "layout-coverage " + name, unwritten == 0,
        unwritten == 0 ? "all " + std::to_string(n) + " slots written"
                       : std::to_string(unwritten) + " slots left unwritten" });

    // Each instance's numbers, generated alone, appear at the layout's positions in order.
    std::vector<std::vector<std::uint64_t>> own(static_cast<std::size_t>(config.instances));
    std::vector<std::size_t> used(own.size(), 0);
    for (int i = 0; i < config.instances; ++i)
        own[static_cast<std::size_t>(i)] = take(*make_stream(instance_configuration(config, i)), n);
    std::size_t first_bad = n;
    for (std::size_t g = 0; g < n && first_bad == n; ++g) {
        const auto i = static_cast<std::size_t>(
            rv_layout_instance(own.size(), layout_code(config.layout), config.layout.block, g));
        if (whole[g] != own[i][used[i]++]) first_bad = g;
    }
    if (config.skip != 0) {
        out.push_back({ "layout-order " + name, true, "not checked: --skip shifts the instances" });
    } else {
        out.push_back({ "layout-order " + name, first_bad == n,
            first_bad == n
                ? "every instance's numbers in place and in order"
                : "position " + std::to_string(first_bad) + " holds another instance's number" });
    }

    // Chunked generation (awkward sizes) equals one-shot generation.
    auto chunked = factory(config);
    std::vector<std::uint64_t> pieces;
    const std::size_t sizes[] = { 1, 3, 1000, 7, 2 };
    for (std::size_t k = 0; pieces.size() < n; ++k) {
        const auto part = take(*chunked, std::min(sizes[k % 5], n - pieces.size()));
        pieces.insert(pieces.end(), part.begin(), part.end());
    }
    out.push_back({ "chunking " + name, pieces == whole,
        pieces == whole ? "chunks of 1, 3, 1000, 7, 2 equal one-shot generation"
                        : "chunked generation differs from one-shot" });
    return out;
}

StartCorrelation start_correlation(const Configuration& config, int steps)
{
    StartCorrelation r;
    r.steps = steps;
    const int used = std::min(config.instances, 256);
    r.pairs = used - 1;
    if (r.pairs < 1) return r;
    std::vector<std::vector<std::uint64_t>> words(static_cast<std::size_t>(used));
    int bits = 32;
    for (int i = 0; i < used; ++i) {
        auto stream = make_stream(instance_configuration(config, i));
        bits = stream->bits();
        words[static_cast<std::size_t>(i)] = take(*stream, static_cast<std::size_t>(steps));
    }
    // Only the generator's own bits: a 24-bit generator's top-32 word has 8 constant bits that
    // would agree always.
    const int compared = std::min(bits, 32);
    const std::uint32_t mask = compared == 32 ? 0xFFFFFFFFu : ~((1u << (32 - compared)) - 1);
    r.bits = compared;
    const double per_pair = static_cast<double>(compared) * steps;
    const auto two_sided = [](double z) { return std::erfc(std::fabs(z) / std::sqrt(2.0)); };
    double agree_all = 0;
    for (int i = 0; i + 1 < used; ++i) {
        const auto& a = words[static_cast<std::size_t>(i)];
        const auto& b = words[static_cast<std::size_t>(i) + 1];
        long agree = 0;
        for (int t = 0; t < steps; ++t)
            agree += compared
                - __builtin_popcount((top32(a[static_cast<std::size_t>(t)], bits)
                                         ^ top32(b[static_cast<std::size_t>(t)], bits))
                    & mask);
        agree_all += static_cast<double>(agree);
        const double z = (static_cast<double>(agree) - per_pair / 2) / std::sqrt(per_pair / 4);
        const double p = std::min(1.0, two_sided(z) * r.pairs);
        if (i == 0 || p < r.worst_p) {
            r.worst_pair = i;
            r.worst_p = p;
            r.worst_agreement = static_cast<double>(agree) / per_pair;
        }
    }
    const double n = per_pair * r.pairs;
    r.agreement = agree_all / n;
    r.z = (agree_all - n / 2) / std::sqrt(n / 4);
    r.p = two_sided(r.z);
    return r;
}

CheckResult check_start_correlation(const Configuration& config)
{
    return start_check_result(config, start_correlation(config));
}

CheckResult start_check_result(const Configuration& config, const StartCorrelation& r)
{
    const std::string name = "instance-start " + canonical_name(config);
    if (r.pairs < 1) return { name, true, "one instance: nothing to correlate" };
    char detail[400];
    std::snprintf(detail, sizeof detail,
        "bits of neighbouring instances agreeing over their first %d numbers: %.5f of %.0f "
        "(%d bits x %d numbers x %d pairs), z = %.2f, p = %.3g; most extreme pair %d,%d: %.5f, "
        "p x pairs = %.3g",
        r.steps, r.agreement, double(r.bits) * r.steps * r.pairs, r.bits, r.steps, r.pairs, r.z,
        r.p, r.worst_pair, r.worst_pair + 1, r.worst_agreement, r.worst_p);
    return { name, r.p >= 0.001 && r.worst_p >= 0.001, detail };
}

std::vector<CheckResult> check_instances(const Configuration& config, StartCorrelation* start)
{
    std::vector<CheckResult> out;
    const std::string name = canonical_name(config);
    // Equal starting states give equal streams; different states of these full-period
    // generators give different first state-size outputs. 1400 words cover MT44497's state.
    std::map<std::vector<std::uint64_t>, int> seen;
    std::string clash;
    for (int i = 0; i < config.instances && clash.empty(); ++i) {
        auto fingerprint = take(*make_stream(instance_configuration(config, i)), 1400);
        const auto [at, fresh] = seen.emplace(std::move(fingerprint), i);
        if (!fresh) clash = "instances " + std::to_string(at->second) + " and " + std::to_string(i);
    }
    out.push_back({ "instance-states " + name, clash.empty(),
        clash.empty() ? std::to_string(config.instances)
                + " instances, all starting states distinct (a precondition; the start check "
                  "tests independence)"
                      : clash + " start from the same state" });

    if (traits(config.generator).parameter_sets && config.instances > 1
        && config.params.rfind("p=", 0) != 0) {
        // The sets are loaded once; every instance configuration shares them.
        std::vector<MtParams> sets;
        for (int i = 0; i < config.instances; ++i) {
            const Configuration one = instance_configuration(config, i);
            sets.push_back(mtdc_param_set(one)->sets[static_cast<std::size_t>(one.param_id)]);
        }
        std::map<Gf2Poly, int> polys;
        std::string shared;
        for (std::size_t i = 0; i < sets.size() && shared.empty(); ++i) {
            const auto [at, fresh]
                = polys.emplace(mt_characteristic_polynomial(sets[i]), static_cast<int>(i));
            if (!fresh)
                shared = "instances " + std::to_string(at->second) + " and " + std::to_string(i);
        }
        out.push_back({ "instance-polynomials " + name, shared.empty(),
            shared.empty() ? std::to_string(sets.size())
                    + " parameter sets, characteristic polynomials pairwise distinct"
                           : shared + " share a characteristic polynomial" });
    }
    if (config.instances > 1) {
        const StartCorrelation r = start_correlation(config);
        if (start) *start = r;
        out.push_back(start_check_result(config, r));
    }
    return out;
}

} // namespace rngvet
