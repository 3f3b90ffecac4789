// Mersenne Twister with Dynamic Creator (DC) parameters, word size w = 32.
//
// One engine serves every parameter set: DC's MT521 / MT607 sets (generators/mt_params.hpp),
// sets made by `rngvet dc create` (dc/dynamic_creator.hpp) and MT19937 itself.
//
// Formulas and known answers come from these sources:
// M. Matsumoto, T. Nishimura, "Mersenne Twister", ACM TOMACS 8(1) 1998, 3-30 (recurrence,
// tempering, MT19937 constants); "Dynamic Creation of Pseudorandom Number Generators",
// MCQMC 1998 (parameter layout, tempering shifts 12/7/15/18); mt19937ar.c of 2002-01-26
// (the constants of init_genrand and init_by_array: 1812433253, 19650218, 1664525,
// 1566083941).
//
// The state is the plain array of nn words plus the position k of the word the next step
// replaces. mt_next is a free function of (state, params); its twist and tempering are those of
// mt_step.hpp, which the CUDA / OpenCL / OpenMP kernels call too, so all run the same text.
//
// LOCKED: mt_seed, mt19937_init_by_array and mt_next define the streams that known answers pin
// down. A change that alters output needs a new generator name and new known-answer rows.
#pragma once

#include "generator_id.hpp"
#include "mt_step.hpp"
#include "portable.hpp" // RNGVET_HD

#include <cstddef>
#include <cstdint>

namespace rngvet {

// The family's words (generator_id.hpp): the family and its generators.
namespace families {
inline constexpr GeneratorFamily mt{ "mt" };
}
namespace kinds {
inline constexpr GeneratorKind mtdc{ "mtdc" };
inline constexpr GeneratorKind mt19937{ "mt19937" };
} // namespace kinds

// Largest supported nn: p = 44497, w = 32 gives nn = 44497 / 32 + 1 = 1391.
inline constexpr int mt_max_nn = 1391;

// The tempering shifts DC fixes for every set it creates.
inline constexpr int mt_dc_shift0 = 12;
inline constexpr int mt_dc_shift1 = 18;
inline constexpr int mt_dc_shiftB = 7;
inline constexpr int mt_dc_shiftC = 15;

// One parameter set, in DC's layout. Only ww = 32 is supported by mt_next;
// ww is kept for the record.
struct MtParams {
    std::uint32_t aaa; // twist matrix A's last row; bit 31 set for DC sets
    int mm, nn, rr, ww;
    std::uint32_t wmask, umask, lmask;
    int shift0, shift1, shiftB, shiftC;
    std::uint32_t maskB, maskC;
};

// nn words of state; st[k] is the word the next step replaces. Only the upper ww - rr bits
// of st[k] take part, so the state has p = nn*ww - rr live bits.
struct MtState {
    std::uint32_t st[mt_max_nn];
    int k;
};

// Mersenne exponent p of a parameter set: nn*ww - rr.
RNGVET_HD int mt_exponent(const MtParams& prm)
{
    return prm.nn * prm.ww - prm.rr;
}

// sgenrand_mt of DC / init_genrand of MT19937:
// st[0] = seed, st[i] = 1812433253 * (st[i-1] ^ (st[i-1] >> 30)) + i.
RNGVET_HD void mt_seed(MtState& s, const MtParams& prm, std::uint32_t seed)
{
    s.st[0] = seed & prm.wmask;
    for (int i = 1; i < prm.nn; ++i) {
        const std::uint32_t prev = s.st[i - 1];
        s.st[i] = (1812433253u * (prev ^ (prev >> 30)) + static_cast<std::uint32_t>(i)) & prm.wmask;
    }
    s.k = 0;
}

// The tempering alone (the output transform of mt_next), also for analysis code.
RNGVET_HD std::uint32_t mt_temper(const MtParams& prm, std::uint32_t y)
{
    return mt_temper_word(y, static_cast<std::uint32_t>(prm.shift0),
        static_cast<std::uint32_t>(prm.shiftB), static_cast<std::uint32_t>(prm.shiftC),
        static_cast<std::uint32_t>(prm.shift1), prm.maskB, prm.maskC);
}

// Advances the recurrence by one word and returns its tempered value (MT paper, DC tempering;
// the formulas are mt_step.hpp's: mt_twist, mt_temper_word), indices mod nn.
RNGVET_HD std::uint32_t mt_next(MtState& s, const MtParams& prm)
{
    const int k = s.k;
    const int k1 = k + 1 == prm.nn ? 0 : k + 1;
    const int km = k + prm.mm >= prm.nn ? k + prm.mm - prm.nn : k + prm.mm;
    const std::uint32_t y = mt_twist(s.st[k], s.st[k1], s.st[km], prm.umask, prm.lmask, prm.aaa);
    s.st[k] = y;
    s.k = k1;
    return mt_temper(prm, y);
}

// DC's layout for w = 32 and Mersenne exponent p: nn = p/32 + 1, mm = nn/2,
// rr = 32*nn - p, lmask = low rr bits, umask = the other bits; shifts 12/7/15/18.
// The caller checks that nn <= mt_max_nn (p <= 44497).
inline MtParams mt_params_for(int p, std::uint32_t aaa, std::uint32_t maskB, std::uint32_t maskC)
{
    MtParams prm{};
    prm.aaa = aaa;
    prm.ww = 32;
    prm.nn = p / 32 + 1;
    prm.mm = prm.nn / 2;
    prm.rr = prm.nn * 32 - p;
    prm.wmask = 0xFFFFFFFFu;
    prm.lmask = prm.rr >= 32 ? 0xFFFFFFFFu : (1u << prm.rr) - 1u;
    prm.umask = ~prm.lmask & prm.wmask;
    prm.shift0 = mt_dc_shift0;
    prm.shift1 = mt_dc_shift1;
    prm.shiftB = mt_dc_shiftB;
    prm.shiftC = mt_dc_shiftC;
    prm.maskB = maskB;
    prm.maskC = maskC;
    return prm;
}

// MT19937 (mt19937ar.c): nn 624, mm 397, rr 31, aaa 0x9908B0DF, tempering 11 / 7 & 0x9D2C5680 /
// 15 & 0xEFC60000 / 18. Its mm is not DC's nn/2, so it is spelled out here.
inline MtParams mt19937_params()
{
    MtParams prm = mt_params_for(19937, 0x9908B0DFu, 0x9D2C5680u, 0xEFC60000u);
    prm.mm = 397;
    prm.shift0 = 11;
    return prm;
}

// MT19937's init_by_array (mt19937ar.c, 2002): start from init_genrand(19650218), mix the key
// in with multiplier 1664525 over max(nn, key_length) steps, then with 1566083941 over nn - 1
// steps, and force the top bit of st[0] so the state is never zero. Defined for any nn >= 2.
RNGVET_HD void mt19937_init_by_array(
    MtState& s, const MtParams& prm, const std::uint32_t* key, int key_length)
{
    mt_seed(s, prm, 19650218u);
    const int n = prm.nn;
    int i = 1;
    int j = 0;
    for (int step = n > key_length ? n : key_length; step > 0; --step) {
        const std::uint32_t prev = s.st[i - 1];
        s.st[i] = (s.st[i] ^ ((prev ^ (prev >> 30)) * 1664525u)) + key[j]
            + static_cast<std::uint32_t>(j);
        ++i;
        ++j;
        if (i >= n) {
            s.st[0] = s.st[n - 1];
            i = 1;
        }
        if (j >= key_length) j = 0;
    }
    for (int step = n - 1; step > 0; --step) {
        const std::uint32_t prev = s.st[i - 1];
        s.st[i] = (s.st[i] ^ ((prev ^ (prev >> 30)) * 1566083941u)) - static_cast<std::uint32_t>(i);
        ++i;
        if (i >= n) {
            s.st[0] = s.st[n - 1];
            i = 1;
        }
    }
    s.st[0] = 0x80000000u;
    s.k = 0;
}

} // namespace rngvet
