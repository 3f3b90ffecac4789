// The Mersenne Twister family (mtdc with Dynamic Creator parameter sets, mt19937): its row of
// the family table and its answers, the checks of its seeds and parameter sets, mtdc's sets
// loaded once and its canonical head mtdc[SETS#HASH@ID], the seeding of its instances and its
// reference stream. mt.hpp states the engine; jump.hpp its jump-ahead (shared with the kernels'
// jump-parallel form).
#include "engines.hpp"
#include "error.hpp"
#include "family_common.hpp"
#include "jump.hpp"
#include "mt.hpp"
#include "mt_charpoly.hpp"
#include "mt_params.hpp"
#include "sha256.hpp"

#include <cstdlib>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace rngvet {
namespace {

struct MtEngine {
    MtParams params;
    MtState state;
    std::uint64_t next() { return mt_next(state, params); }
    void jump(std::uint64_t n)
    {
        if (n == 0) return;
        if (phi.is_zero()) phi = mt_characteristic_polynomial(params);
        mt_jump(state, params, phi, n);
    }
    Gf2Poly phi; // computed on the first jump
};

bool is_mtdc(const Configuration& c)
{
    return c.generator.kind == kinds::mtdc;
}

std::uint32_t parse_hex32(const std::string& text, const std::string& what)
{
    std::string t = text;
    if (t.rfind("0x", 0) == 0 || t.rfind("0X", 0) == 0) t = t.substr(2);
    if (t.empty() || t.size() > 8
        || t.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        throw InputError(what + " must be a 32-bit hexadecimal number, got '" + text + "'");
    return static_cast<std::uint32_t>(std::strtoul(t.c_str(), nullptr, 16));
}

// --params p=P,aaa=A,maskB=B,maskC=C: one DC parameter set written out in full.
MtParamSet inline_param_set(const std::string& text)
{
    int p = 0;
    std::uint32_t aaa = 0, mask_b = 0, mask_c = 0;
    int seen = 0;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto eq = item.find('=');
        const std::string key = item.substr(0, eq),
                          value = eq == std::string::npos ? "" : item.substr(eq + 1);
        if (key == "p") {
            // Bounded before the narrowing, so that no p wraps onto a supported exponent.
            const std::uint64_t v = parse_u64(value, "p in --params");
            if (v > 44497)
                throw InputError("p = " + value + " is not a supported Mersenne exponent");
            p = static_cast<int>(v);
        } else if (key == "aaa")
            aaa = parse_hex32(value, "aaa in --params");
        else if (key == "maskB")
            mask_b = parse_hex32(value, "maskB in --params");
        else if (key == "maskC")
            mask_c = parse_hex32(value, "maskC in --params");
        else
            throw InputError("unknown key '" + key + "' in --params (valid: p, aaa, maskB, maskC)");
        ++seen;
    }
    if (seen != 4) throw InputError("--params p=P,aaa=A,maskB=B,maskC=C needs all four keys");
    static const int exponents[] = { 521, 607, 1279, 2203, 2281, 3217, 4253, 4423, 9689, 9941,
        11213, 19937, 21701, 23209, 44497 };
    bool known = false;
    for (int e : exponents)
        known |= e == p;
    if (!known)
        throw InputError("p = " + std::to_string(p) + " is not a supported Mersenne exponent");
    MtParamSet set;
    set.source = text;
    set.p = p;
    set.sets.push_back(mt_params_for(p, aaa, mask_b, mask_c));
    set.ids.push_back(aaa & 0xFFFFu);
    set.sha256 = sha256_hex(text);
    return set;
}

// The sets c.params names, read and hashed.
std::shared_ptr<const MtParamSet> read_param_sets(const Configuration& c)
{
    if (c.params.empty())
        throw InputError("mtdc needs --params (a built-in set such as fixstars-mt521, a file, or "
                         "p=P,aaa=A,maskB=B,maskC=C)");
    if (c.params.rfind("p=", 0) == 0)
        return std::make_shared<const MtParamSet>(inline_param_set(c.params));
    try {
        return std::make_shared<const MtParamSet>(load_param_set(c.params));
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw InputError(e.what());
    }
}

// Every MtParamSet records the text it was loaded from as its source.
bool loaded_from_params(const Configuration& c)
{
    return c.param_sets && !c.params.empty() && c.param_sets->source == c.params;
}

std::string params_label(const Configuration& c, const MtParamSet& set)
{
    std::string source = c.params;
    if (source.rfind("p=", 0) != 0) {
        const auto slash = source.find_last_of('/');
        if (slash != std::string::npos) source = source.substr(slash + 1);
    }
    return "mtdc[" + source + "#" + set.sha256.substr(0, 8) + "@" + std::to_string(c.param_id)
        + "]";
}

void check_mt(const Configuration& c)
{
    const GeneratorTraits& g = traits(c.generator);
    const std::string name = to_string(c.generator);
    if (c.seed.empty()) throw InputError(name + " needs --seed S (a 32-bit seed)");
    for (std::int64_t v : c.seed)
        if (v > 0xFFFFFFFFll)
            throw InputError(
                name + " seed " + std::to_string(v) + " is out of range 0..4294967295");
    if (!g.parameter_sets) {
        if (!c.params.empty())
            throw InputError(name + " has fixed parameters and takes no --params");
        return;
    }
    if (c.seed.size() != 1) throw InputError(name + " takes one seed --seed S");
    // The canonical name keeps the file's name, and ';' separates its options.
    if (c.params.rfind("p=", 0) != 0
        && c.params.substr(c.params.find_last_of('/') + 1).find(';') != std::string::npos)
        throw InputError("the parameter file '" + c.params
            + "' has ';' in its name, which its canonical name cannot hold; rename the file "
              "or link it under another name");
    if (c.param_id < 0) throw InputError("--param-id must be at least 0");
    const std::shared_ptr<const MtParamSet> set = mtdc_param_set(c);
    // split:S runs one parameter set in every instance.
    const std::size_t sets_used
        = c.seeding.kind == SeedingKind::split ? 1 : static_cast<std::size_t>(c.instances);
    if (static_cast<std::size_t>(c.param_id) + sets_used > set->sets.size())
        throw InputError("parameter set '" + c.params + "' has " + std::to_string(set->sets.size())
            + " sets; --param-id " + std::to_string(c.param_id) + " with "
            + std::to_string(c.instances) + " instances needs "
            + std::to_string(std::int64_t{ c.param_id } + std::int64_t{ c.instances }));
}

std::unique_ptr<Stream> make_mt_reference(const Configuration& c)
{
    std::vector<MtParams> params;
    std::vector<MtState> states;
    mt_instance_states(c, params, states);
    std::vector<MtEngine> engines(static_cast<std::size_t>(c.instances));
    for (std::size_t i = 0; i < engines.size(); ++i) {
        engines[i].params = params[i];
        engines[i].state = states[i];
    }
    return std::make_unique<CombinedStream<MtEngine>>(
        std::move(engines), c.layout, traits(c.generator).bits, canonical_name(c));
}

std::string mt_canonical_head(const Configuration& c)
{
    return is_mtdc(c) ? params_label(c, *mtdc_param_set(c)) : to_string(c.generator);
}

void load_mt(Configuration& c)
{
    if (!is_mtdc(c)) return;
    if (!loaded_from_params(c)) c.param_sets = read_param_sets(c);
}

void mt_instance_configuration(const Configuration& c, int i, Configuration& one)
{
    one.seed[0] = word_instance_seed(c, i);
    if (c.seeding.kind != SeedingKind::split) one.param_id = c.param_id + i;
}

// mtdc[SOURCE#HASH8@ID]
std::string parse_mtdc_head(const std::string& head, const std::string& params_file,
    const std::string&, Configuration& c, std::string& hash)
{
    const std::string inner = head.substr(5, head.size() - 6);
    const auto sharp = inner.rfind('#');
    const auto at = inner.rfind('@');
    if (sharp == std::string::npos || at == std::string::npos || at < sharp)
        return "expected mtdc[SETS#HASH@ID]";
    c.generator = kinds::mtdc;
    c.params = inner.substr(0, sharp);
    if (!params_file.empty()) {
        // The name keeps a file's name without its directory (params_label).
        const std::string source = params_file.rfind("p=", 0) == 0
            ? params_file
            : params_file.substr(params_file.find_last_of('/') + 1);
        if (source != c.params)
            return "its parameter sets are '" + c.params + "', not '" + params_file + "'";
        c.params = params_file;
    }
    hash = inner.substr(sharp + 1, at - sharp - 1);
    const std::uint64_t id = parse_u64(inner.substr(at + 1), "the parameter-set id");
    if (id > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        return "parameter-set id too large";
    c.param_id = static_cast<int>(id);
    return "";
}

std::string mtdc_head_mismatch(const Configuration& c, const std::string& hash)
{
    if (hash.empty() || !is_mtdc(c) || params_sha256(c).substr(0, 8) == hash) return "";
    return "the parameter sets '" + c.params + "' here have SHA-256 "
        + params_sha256(c).substr(0, 8) + "..., the name says " + hash;
}

} // namespace

std::shared_ptr<const MtParamSet> mtdc_param_set(const Configuration& c)
{
    return loaded_from_params(c) ? c.param_sets : read_param_sets(c);
}

void mt_instance_states(
    const Configuration& c, std::vector<MtParams>& params, std::vector<MtState>& states)
{
    const std::size_t n = static_cast<std::size_t>(c.instances);
    params.assign(n, MtParams{});
    states.assign(n, MtState{});
    const std::shared_ptr<const MtParamSet> set = is_mtdc(c) ? mtdc_param_set(c) : nullptr;
    // split:S: every instance runs the base instance's parameter set from its seed, jumped.
    const bool split = c.seeding.kind == SeedingKind::split;
    Gf2Poly phi;
    for (int i = 0; i < c.instances; ++i) {
        MtParams& prm = params[static_cast<std::size_t>(i)];
        MtState& st = states[static_cast<std::size_t>(i)];
        if (set) {
            prm = set->sets[static_cast<std::size_t>(c.param_id + (split ? 0 : i))];
            mt_seed(st, prm, word_instance_seed(c, i));
        } else {
            prm = mt19937_params();
            if (c.seed.size() == 1) {
                mt_seed(st, prm, word_instance_seed(c, i));
            } else {
                std::vector<std::uint32_t> key(c.seed.begin(), c.seed.end());
                key[0] = word_instance_seed(c, i);
                mt19937_init_by_array(st, prm, key.data(), static_cast<int>(key.size()));
            }
        }
        if (split && i > 0) {
            if (phi.is_zero()) phi = mt_characteristic_polynomial(prm);
            mt_jump(st, prm, phi, c.seeding.stride * static_cast<std::uint64_t>(i));
        }
    }
}

std::string params_sha256(const Configuration& c)
{
    return is_mtdc(c) ? mtdc_param_set(c)->sha256 : "";
}

const FamilyTraits& mt_family()
{
    static const FamilyTraits row = { families::mt, "mt", true, true, false, 8192, { 777 },
        single_series, single_seed_of_number, single_number_of_seed, describe_computed, true, false,
        check_mt, make_mt_reference, mt_canonical_head, nullptr, load_mt, mt_instance_configuration,
        nullptr, jumps_ahead_fixed<true>, "mtdc[", parse_mtdc_head, mtdc_head_mismatch, 20,
        {
            { kinds::mtdc, "mtdc", families::mt, 32, "S", true },
            { kinds::mt19937, "mt19937", families::mt, 32, "S or K1,K2,...", false },
        },
        nullptr, nullptr, nullptr };
    return row;
}

} // namespace rngvet
