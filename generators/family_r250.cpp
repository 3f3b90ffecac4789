// The R250 family (r250, r250gsl; the tap order is in the generator's row): its row of the
// family table and its answers, the checks of its seeds, the seeding of its instances, its
// reference stream and its exact jump-ahead (r250.hpp states the engine, its seeding and step).
#include "engines.hpp"
#include "error.hpp"
#include "family_common.hpp"
#include "jump.hpp"
#include "r250.hpp"

#include <memory>
#include <string>
#include <vector>

namespace rngvet {
namespace {

struct R250Engine {
    R250State state;
    std::uint64_t next() { return r250_next(state); }
    void jump(std::uint64_t n) { r250_jump(state, n); }
};

// The smallest i >= 0 with base + stride * i = 0 (mod 2^32), or 2^32 when there is none: where
// an R250 seeding scheme reaches the seed 0, which GSL's seeding (r250.hpp) takes as seed 1.
std::uint64_t r250_first_zero_seed(std::uint32_t base, std::uint32_t stride)
{
    if (base == 0) return 0;
    if (stride == 0) return std::uint64_t(1) << 32;
    int v = 0;
    while (!((stride >> v) & 1u))
        ++v;
    if (base & ((std::uint32_t(1) << v) - 1)) return std::uint64_t(1) << 32;
    // (stride / 2^v) i = -base / 2^v (mod 2^(32 - v)), the inverse of the odd stride / 2^v by
    // Newton's iteration (each step doubles the bits that are right).
    const std::uint32_t odd = stride >> v;
    std::uint32_t inverse = odd;
    for (int k = 0; k < 5; ++k)
        inverse *= 2u - odd * inverse;
    const std::uint64_t modulus = std::uint64_t(1) << (32 - v);
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(-(base >> v) * inverse)) % modulus;
}

void check_r250(const Configuration& c)
{
    const std::string name = to_string(c.generator);
    if (c.seed.size() != 1) throw InputError(name + " takes one seed --seed S (1..4294967295)");
    if (c.seed[0] < 1 || c.seed[0] > 0xFFFFFFFFll)
        throw InputError(name + " seed " + std::to_string(c.seed[0])
            + " is out of range 1..4294967295 (its seeding takes 0 as 1)");
    // increment and stride:S reach the seed 0 (that is, 1) by wrapping around 2^32.
    const auto base = static_cast<std::uint32_t>(c.seed[0]);
    const bool stepped
        = c.seeding.kind == SeedingKind::increment || c.seeding.kind == SeedingKind::stride;
    const auto step = static_cast<std::uint32_t>(
        c.seeding.kind == SeedingKind::increment ? 1 : c.seeding.stride);
    if (stepped && r250_first_zero_seed(base, step) < static_cast<std::uint64_t>(c.instances))
        throw InputError(name + " instance " + std::to_string(r250_first_zero_seed(base, step))
            + " of --seeding " + to_string(c.seeding)
            + " would get the seed 0 (seed 1's stream); choose another --seed");
}

std::unique_ptr<Stream> make_r250_reference(const Configuration& c)
{
    std::vector<R250Engine> engines(static_cast<std::size_t>(c.instances));
    for (int i = 0; i < c.instances; ++i)
        engines[static_cast<std::size_t>(i)].state = r250_instance_state(c, i);
    return std::make_unique<CombinedStream<R250Engine>>(
        std::move(engines), c.layout, traits(c.generator).bits, canonical_name(c));
}

void r250_instance_configuration(const Configuration& c, int i, Configuration& one)
{
    one.seed[0] = word_instance_seed(c, i);
}

} // namespace

R250State r250_instance_state(const Configuration& c, int instance)
{
    R250State state{};
    r250_seed(state, word_instance_seed(c, instance),
        c.generator.kind == kinds::r250gsl ? R250Taps::gsl : R250Taps::stated);
    if (c.seeding.kind == SeedingKind::split)
        r250_jump(state, c.seeding.stride * static_cast<std::uint64_t>(instance));
    return state;
}

Gf2Poly r250_characteristic_polynomial(int short_lag)
{
    // x_{t+250} = x_{t+250-s} XOR x_t.
    Gf2Poly p = Gf2Poly::monomial(r250_long_lag);
    p.set_coeff(r250_long_lag - short_lag, true);
    p.set_coeff(0, true);
    return p;
}

void r250_jump(R250State& s, std::uint64_t n)
{
    if (n == 0) return;
    r250_jump(s, gf2_jump_polynomial(r250_characteristic_polynomial(s.short_lag), n));
}

void r250_jump(R250State& s, const Gf2Poly& g)
{
    constexpr int long_lag = r250_long_lag;
    // y[k] = x_{t+k}, k = 0..498: the register (t = n - 250), then 249 words of the recurrence.
    std::uint32_t y[2 * long_lag - 1];
    r250_register(s, y);
    for (int k = long_lag; k < 2 * long_lag - 1; ++k)
        y[k] = y[k - s.short_lag] ^ y[k - long_lag];
    std::uint32_t next[long_lag] = {};
    for (int k = 0; k <= g.degree(); ++k) {
        if (!g.coeff(k)) continue;
        for (int j = 0; j < long_lag; ++j)
            next[j] ^= y[j + k];
    }
    for (int j = 0; j < long_lag; ++j)
        s.x[j] = next[j];
    s.i = 0;
}

const FamilyTraits& r250_family()
{
    static const FamilyTraits row = { families::r250, "r250", true, false, false, 1024, { 777 },
        single_series, single_seed_of_number, single_number_of_seed, describe_computed, false,
        false, check_r250, make_r250_reference, nullptr, nullptr, nullptr,
        r250_instance_configuration, nullptr, jumps_ahead_fixed<true>, nullptr, nullptr, nullptr,
        30,
        {
            // The tap order is the kind's: r250 R250Taps::stated, r250gsl R250Taps::gsl.
            { kinds::r250, "r250", families::r250, 32, "S", false },
            { kinds::r250gsl, "r250gsl", families::r250, 32, "S", false },
        },
        nullptr, nullptr, nullptr };
    return row;
}

} // namespace rngvet
