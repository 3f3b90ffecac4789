/* Plugin generators that break the ABI of rngvet/plugin.h one way each, for the tests of what
 * rngvet refuses, and one that is sound but has no skip (serial runs only). Each is its own
 * exported symbol, chosen with --generator lib:PATH:SYMBOL. */
#include <rngvet/plugin.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

/* Marsaglia's xorshift32 (13, 17, 5), a 32-bit generator without a skip. */
static int xorshift32_seed(void* state, const uint64_t* words, size_t count)
{
    uint32_t x = (uint32_t)words[0];
    if (count != 1 || x == 0) return 1; /* the all-zero state is a fixed point */
    *(uint32_t*)state = x;
    return 0;
}

static uint64_t xorshift32_next(void* state)
{
    uint32_t x = *(uint32_t*)state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *(uint32_t*)state = x;
    return 0xFFFFFFFF00000000ull | x; /* high bits set: rngvet reads the low 32 only */
}

static const rngvet_plugin xorshift32
    = { RNGVET_PLUGIN_ABI_VERSION, 32, "xorshift32", 4, 0, 0, xorshift32_seed, xorshift32_next, 0 };
EXPORT const rngvet_plugin* xorshift32_generator(void)
{
    return &xorshift32;
}

static const rngvet_plugin wrong_version
    = { 999, 32, "wrong-version", 4, 0, 0, xorshift32_seed, xorshift32_next, 0 };
EXPORT const rngvet_plugin* wrong_version_generator(void)
{
    return &wrong_version;
}

static const rngvet_plugin wrong_bits
    = { RNGVET_PLUGIN_ABI_VERSION, 48, "wrong-bits", 4, 0, 0, xorshift32_seed, xorshift32_next, 0 };
EXPORT const rngvet_plugin* wrong_bits_generator(void)
{
    return &wrong_bits;
}

static const rngvet_plugin null_next
    = { RNGVET_PLUGIN_ABI_VERSION, 32, "null-next", 4, 0, 0, xorshift32_seed, 0, 0 };
EXPORT const rngvet_plugin* null_next_generator(void)
{
    return &null_next;
}

EXPORT const rngvet_plugin* null_generator(void)
{
    return 0;
}
